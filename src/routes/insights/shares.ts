import { createRoute, z } from "@hono/zod-openapi";
import { PROFIT_RANGES } from "../../domain/insights/profitability.ts";
import { type CardText, orderCard, profitCard, SHARES_MAX } from "../../domain/insights/share.ts";
import { buildEvent, type ShareCard } from "../../domain/events/envelope.ts";
import { currentUser } from "../../http/auth.ts";
import { ApiError, unauthorized } from "../../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { randomHex } from "../../lib/ids.ts";
import { ShareCardSchema } from "../../schemas/webhooks/events.ts";
import { createItem, deleteItem } from "../../store/insights/collection.ts";
import { readProfitability } from "../../store/insights/queries.ts";
import { getOrder } from "../../store/orders/orders.ts";
import * as shareStore from "../../store/insights/shares.ts";

const TAGS = ["Shares"];
const NOT_FOUND = "Share not found";
const SlugParam = resourceParam("slug", NOT_FOUND, { example: "3f9a0c1d2b4e6a78" });

const CreateShareBody = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("order"),
    orderId: z.string().min(1).max(64).openapi({ example: "ord_01jq4w5v2x8c9d0e1f2g3h4j5k" }),
    showPrices: z.boolean().optional().openapi({
      description: "Show what was paid and sold for; default false",
    }),
  }),
  z.object({
    kind: z.literal("profit"),
    range: z.enum(PROFIT_RANGES).openapi({ description: "As `GET /api/profitability`" }),
  }),
]).openapi("CreateShare");

const ShareEnvelope = z.object({ share: ShareCardSchema }).openapi("ShareEnvelope");

const listSharesRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "List share cards, newest first",
  responses: {
    200: jsonResponse(z.object({ shares: z.array(ShareCardSchema) }), "Every share"),
    ...errors(401),
  },
});

const createShareRoute = createRoute({
  ...authed,
  method: "post",
  path: "/",
  tags: TAGS,
  summary: "Create a share card",
  description: "A public card of an order (item name, store, image, status; the money only " +
    "with `showPrices`) or of the account's profitability over a range, frozen as it is now. " +
    "Its page `<BASE_URL>/s/<slug>` carries Open Graph and Twitter card tags and the image " +
    "`/s/<slug>.png`; never order or tracking numbers, emails or addresses. Fires " +
    `\`share.created\`. At most ${SHARES_MAX} per account (429).`,
  request: { body: jsonBody(CreateShareBody) },
  responses: {
    201: jsonResponse(ShareEnvelope, "Created"),
    ...errors(400, 401, 404, 413, 429),
  },
});

const deleteShareRoute = createRoute({
  ...authed,
  method: "delete",
  path: "/{slug}",
  tags: TAGS,
  summary: "Delete a share card",
  description: "Its page and image answer 404 at once.",
  request: { params: SlugParam },
  responses: { 200: jsonResponse(OkSchema, "Deleted"), ...errors(401, 404) },
});

export const listShares: AppRouteHandler<typeof listSharesRoute> = async (c) => {
  return c.json({ shares: await shareStore.listShares(c.var.deps.kv, c.var.auth.userId) }, 200);
};

export const createShare: AppRouteHandler<typeof createShareRoute> = async (c) => {
  const { kv, now, config, events } = c.var.deps;
  const body = c.req.valid("json");
  const user = await currentUser(c);
  const at = now();
  let text: CardText;
  if (body.kind === "order") {
    const order = found(await getOrder(kv, user.id, body.orderId), "Order not found");
    text = orderCard(order, body.showPrices ?? false);
  } else {
    text = profitCard(await readProfitability(kv, user, body.range, at));
  }
  const slug = randomHex(8);
  const share: ShareCard = {
    slug,
    kind: body.kind,
    url: `${config.baseUrl}/s/${slug}`,
    createdAt: new Date(at).toISOString(),
    ...text,
  };
  const event = buildEvent("share.created", user.id, { share }, at);
  const outcome = await createItem(
    kv,
    shareStore.SHARES,
    user.id,
    slug,
    share,
    (op) => events.bus.commit(op, [event]),
  );
  if (outcome === "account_gone") throw unauthorized();
  if (outcome === "limit") {
    throw new ApiError(429, `Share limit reached (${SHARES_MAX} per account)`);
  }
  return c.json({ share }, 201);
};

export const deleteShare: AppRouteHandler<typeof deleteShareRoute> = async (c) => {
  const { kv } = c.var.deps;
  found(
    await deleteItem(kv, shareStore.SHARES, c.var.auth.userId, c.req.valid("param").slug),
    NOT_FOUND,
  );
  return c.json({ ok: true as const }, 200);
};

export const shareRoutes = createRouter()
  .openapi(listSharesRoute, listShares)
  .openapi(createShareRoute, createShare)
  .openapi(deleteShareRoute, deleteShare);
