import { createRoute, z } from "@hono/zod-openapi";
import { cachedAnswer, liveLookup, type TrackTarget } from "../../tracking/lookup.ts";
import { CARRIER_NAMES, type CarrierKey } from "../../domain/tracking/carriers.ts";
import { budgetShares, LOOKUP_SHARE } from "../../domain/tracking/tracker.ts";
import type { TrackingResult } from "../../domain/tracking/answer.ts";
import { detectCarrier, type TrackingForm, trackingKey } from "../../domain/tracking/number.ts";
import { calendarDate } from "../../domain/tracking/update.ts";
import { UpstreamError } from "../../errors.ts";
import { currentUser } from "../../http/auth.ts";
import { ApiError, badRequest } from "../../http/errors.ts";
import { authed, errors, jsonResponse } from "../../http/openapi.ts";
import { rateLimit } from "../../http/rate_limit.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { compact } from "../../lib/compact.ts";
import { safeTimeZone } from "../../lib/timezone.ts";
import {
  CarrierKeySchema,
  CarrierListSchema,
  CarrierStatusSchema,
  DetectionSchema,
  TrackingNumberParam,
} from "../../schemas/tracking/carriers.ts";

const tags = ["Carriers"];

const getCarriersRoute = createRoute({
  method: "get",
  path: "/",
  tags,
  summary: "The carrier keys, and which ones this deployment can look up",
  responses: { 200: jsonResponse(CarrierListSchema, "Every carrier key") },
});

const getDetectRoute = createRoute({
  ...authed,
  method: "get",
  path: "/detect",
  tags,
  summary: "Which carrier a tracking number belongs to",
  description: "By format and check digit: UPS `1Z` and waybills, FedEx 12/15/22-digit and " +
    "its barcodes, USPS IMpb and international `..US` items, DHL Express 10-digit waybills " +
    "(mod 7), DHL eCommerce and Paket forms that no other carrier claims. A number of none " +
    "of these forms, or with a wrong check digit, is `{valid: false}`.",
  request: { query: z.object({ trackingNumber: TrackingNumberParam }) },
  responses: {
    200: jsonResponse(DetectionSchema, "The verdict"),
    ...errors(400, 401),
  },
});

const getCarrierStatusRoute = createRoute({
  ...authed,
  middleware: [
    ...authed.middleware,
    rateLimit({
      name: "carrier-status",
      limit: 60,
      key: (c) => c.var.auth.userId,
      message: "Too many carrier lookups from this account; try again in a minute",
    }),
  ],
  method: "get",
  path: "/",
  tags,
  summary: "A tracking number's status at its carrier",
  description:
    "Asks the carrier's own API (`carrier`, else the carrier detected from the number). " +
    "An answer younger than `TRACKING_CACHE_MINUTES` for this workspace and number is served " +
    "from the cache (`cached: true`) and changes nothing. A live answer is merged into every " +
    "order of the workspace with this tracking number (carrier, estimated delivery, shipped, " +
    "delivered with `actualDelivery`, `issue` on a carrier exception; fields in " +
    "`userEdited` are never touched) and fires `order.tracking_updated` " +
    "`{order, carrier, delivered, eventCount}` for each, then `order.shipped` / " +
    "`order.delivered` when an order's status really moved. Lookups spend " +
    `${LOOKUP_SHARE * 100}% of each carrier's \`TRACKING_DAILY_BUDGET\` (the tracker the ` +
    "rest); 60 requests a minute per account.",
  request: {
    query: z.object({
      trackingNumber: TrackingNumberParam,
      carrier: CarrierKeySchema.optional().openapi({ description: "Default: detected" }),
    }),
  },
  responses: {
    200: jsonResponse(CarrierStatusSchema, "The carrier's answer"),
    400: jsonResponse(
      z.object({ error: z.string() }),
      "No carrier given and none detected, or not a tracking number",
    ),
    ...errors(401, 429),
    502: jsonResponse(
      z.object({
        error: z.string(),
        carrier: CarrierKeySchema,
        retryAfterSeconds: z.number().int().optional(),
      }),
      "The carrier's API failed, timed out, or asked for fewer requests (then with " +
        "`retryAfterSeconds` and `Retry-After`)",
    ),
    503: jsonResponse(
      z.object({ error: z.string() }),
      "The carrier has no credentials on this deployment, or its daily lookup budget is " +
        "spent (`Retry-After`: seconds to 00:00 UTC)",
    ),
  },
});

const notConfigured = (carrier: CarrierKey) =>
  new ApiError(503, `${CARRIER_NAMES[carrier]} tracking is not configured on this deployment`);

/** The 200 body from a stored or live answer. */
function statusBody(result: TrackingResult, checkedAt: number, timeZone: string, cached: boolean) {
  return compact({
    trackingNumber: result.trackingNumber,
    carrier: result.carrier,
    status: result.status,
    delivered: result.status === "delivered",
    estimatedDelivery: result.estimatedDelivery &&
      calendarDate(result.estimatedDelivery, timeZone),
    actualDelivery: result.status === "delivered" && result.actualDelivery
      ? calendarDate(result.actualDelivery, timeZone)
      : undefined,
    eventCount: result.eventCount,
    events: result.events.map((e) => compact({ ...e })),
    checkedAt: new Date(checkedAt).toISOString(),
    cached,
  });
}

export const getCarriers: AppRouteHandler<typeof getCarriersRoute> = (c) =>
  c.json({ carriers: c.var.deps.carriers.list() }, 200);

export const getDetect: AppRouteHandler<typeof getDetectRoute> = (c) => {
  const detected = detectCarrier(c.req.valid("query").trackingNumber);
  return c.json(
    detected.valid
      ? { valid: true, carrier: detected.carrier, trackingNumber: detected.trackingNumber }
      : { valid: false },
    200,
  );
};

export const getCarrierStatus: AppRouteHandler<typeof getCarrierStatusRoute> = async (c) => {
  const { deps, auth } = c.var;
  const query = c.req.valid("query");
  const detected = detectCarrier(query.trackingNumber);
  const key = trackingKey(query.trackingNumber);
  const carrier = query.carrier ?? (detected.valid ? detected.carrier : undefined);
  if (!key) {
    throw badRequest(
      "trackingNumber: must be letters and digits (spaces and dashes are ignored)",
    );
  }
  if (!carrier) {
    throw badRequest("carrier could not be detected from trackingNumber; send carrier");
  }
  if (!deps.carriers.configured(carrier)) {
    throw notConfigured(carrier);
  }
  const user = await currentUser(c);
  const timeZone = safeTimeZone(user.timezone);
  const form: TrackingForm | undefined = detected.valid && detected.carrier === carrier
    ? detected.form
    : undefined;
  const target: TrackTarget = {
    userId: auth.userId,
    timeZone,
    key,
    query: { carrier, trackingNumber: key, form },
  };
  const tracking = { kv: deps.kv, carriers: deps.carriers, bus: deps.events.bus, now: deps.now };
  const cached = await cachedAnswer(tracking, target, deps.config.tracking.cacheMinutes * 60_000);
  if (cached) return c.json(statusBody(cached.result, cached.answeredAt, timeZone, true), 200);
  let live;
  try {
    live = await liveLookup(tracking, target, "lookup");
  } catch (err) {
    const seconds = err instanceof UpstreamError ? err.details.retryAfterSeconds : undefined;
    if (typeof seconds !== "number") throw err;
    throw new ApiError(502, (err as Error).message, (err as UpstreamError).details, {
      "Retry-After": String(seconds),
    });
  }
  if (live.ok) return c.json(statusBody(live.result, live.checkedAt, timeZone, false), 200);
  if (live.reason === "not_configured") throw notConfigured(carrier);
  const { lookup } = budgetShares(deps.config.tracking.dailyBudget);
  throw new ApiError(
    503,
    `Today's ${lookup} ${CARRIER_NAMES[carrier]} lookups are used up; try again after 00:00 UTC`,
    {},
    { "Retry-After": String(Math.ceil(live.retryAfterMs / 1000)) },
  );
};

/** `/carriers`: the carriers this deployment knows, and which one a tracking number is. */
export const carrierRoutes = createRouter()
  .openapi(getCarriersRoute, getCarriers)
  .openapi(getDetectRoute, getDetect);

/** `/carrier-status`: a shipment's status as its carrier reports it. */
export const carrierStatusRoutes = createRouter()
  .openapi(getCarrierStatusRoute, getCarrierStatus);
