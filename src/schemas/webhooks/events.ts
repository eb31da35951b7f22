/**
 * The outbound events in zod, for the OpenAPI `webhooks`: each event type's envelope and `data`,
 * and the delivery headers. The envelopes are built by src/domain/events/envelope.ts; the checks below
 * stop the build when a schema and the type the builder takes differ.
 */
import { z } from "@hono/zod-openapi";
import type { RouteConfig } from "@hono/zod-openapi";
import { CARRIER_KEYS } from "../../domain/tracking/carriers.ts";
import { EDITABLE_FIELDS, type EditableField } from "../../domain/orders/order.ts";
import { EVENT_TYPES, type EventType } from "../../domain/events/types.ts";
import { DeliveryHeadersSchema } from "../../webhooks/headers.ts";
import {
  type EventData,
  type EventEnvelope,
  EventEnvelopeSchema,
  type TestEventData,
} from "../../domain/events/envelope.ts";
import { json } from "../../http/openapi.ts";
import type { Same } from "../../lib/types.ts";
import { OrderSchema } from "../orders/orders.ts";

const order = OrderSchema.openapi({ description: "The whole order after the change" });
const source = OrderSchema.shape.source.openapi({
  description: "Channel of the change: `chat`, `email` or `manual` (PATCH is `manual`)",
});

const OrderEventData = z.object({ order, source }).openapi("OrderEventData");

const editable = Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, true])) as {
  [F in EditableField]: true;
};

const AppliedPatchSchema = OrderSchema.pick(editable).partial().extend({
  salePriceCents: z.number().int().nullable().optional().openapi({
    description: "Integer cents; `null` when the PATCH cleared the sale price",
  }),
  userEdited: OrderSchema.shape.userEdited,
}).openapi("OrderPatch", {
  description: "The fields the PATCH applied, `status` when a tracking number moved the order " +
    "to `shipped`, and the updated `userEdited`",
});

export const ShareCardSchema = z.object({
  slug: z.string(),
  kind: z.enum(["order", "profit"]),
  url: z.string().openapi({ description: "`<BASE_URL>/s/<slug>`" }),
  createdAt: z.string(),
  title: z.string(),
  lines: z.array(z.string()).openapi({
    description: "Store, status and, when the owner chose to show them, the money",
  }),
  imageUrl: z.string().optional().openapi({ description: "The order's product image (https)" }),
}).openapi("ShareCard", {
  description: "The card's public data: never order or tracking numbers, emails or addresses",
});

/** `data` of each event type. */
export const EVENT_DATA = {
  "order.created": OrderEventData,
  "order.merged": OrderEventData,
  "order.updated": z.object({ order, source, patch: AppliedPatchSchema }).openapi(
    "OrderUpdatedData",
  ),
  "order.shipped": OrderEventData,
  "order.delivered": OrderEventData,
  "order.tracking_updated": z.object({
    order,
    carrier: z.enum(CARRIER_KEYS),
    delivered: z.boolean(),
    eventCount: z.number().int().min(0).openapi({ description: "Number of carrier scans" }),
  }).openapi("TrackingUpdatedData"),
  "share.created": z.object({ share: ShareCardSchema }).openapi("ShareCreatedData"),
} satisfies Record<EventType, z.ZodType>;

export const TestEventDataSchema = z.object({ test: z.literal(true) }).openapi("TestEventData");

/** `OrderCreated` for `order.created`, ... */
const pascal = (type: EventType) =>
  type.split(/[._]/).map((w) => w[0].toUpperCase() + w.slice(1)).join("");

/** The envelope of one event type. */
export function eventSchema<T extends EventType>(type: T) {
  return EventEnvelopeSchema.extend({ type: z.literal(type), data: EVENT_DATA[type] })
    .openapi(`${pascal(type)}Event`, { description: `The body of every \`${type}\` delivery` });
}

/** The envelope of a test event, whatever its type. */
export const TestEventSchema = EventEnvelopeSchema.extend({
  id: z.string().startsWith("evt_test_").openapi({
    description: "`evt_test_` and a unique id",
    example: "evt_test_01jq4w5v2x8c9d0e1f2g3h",
  }),
  data: TestEventDataSchema,
}).openapi("TestEvent", {
  description: "Sent by `POST /api/webhook-subscriptions/{id}/test`, with `X-Service-Test: true`",
});

// Compile-time: each schema describes exactly what the builders take.
// (Flat: `{a} & {b}` and `{a, b}` are the same type to a reader but not to `Same`.)
type Flat<T> = { [K in keyof T]: T[K] };
type Flat2<T> = { [K in keyof T]: Flat<T[K]> };
type DataMatches = {
  [T in EventType]: Same<Flat2<z.infer<typeof EVENT_DATA[T]>>, Flat2<EventData[T]>>;
}[EventType];
type Checks = [
  DataMatches,
  Same<z.infer<typeof TestEventDataSchema>, TestEventData>,
  Same<z.infer<typeof EventEnvelopeSchema>, EventEnvelope>,
];
const _schemasMatchTypes: Same<Checks, [true, true, true]> = true;

const RECEIVER_ANSWERS = {
  "2XX": { description: "Delivered: any 2xx. The body is not read." },
  "4XX": {
    description: "A failure: increments the subscription's `failureCount` (the 10th in a " +
      "row pauses it) and sets `lastError` to `HTTP <code>`. Never retried.",
  },
  "5XX": { description: "A failure, as 4xx. A 3xx is one too: redirects are not followed." },
};

/**
 * The OpenAPI `webhooks`: one signed `POST` per event type to every active subscription that
 * lists it, or a test event of that type.
 */
export function eventWebhooks(): RouteConfig[] {
  return EVENT_TYPES.map((type) => ({
    method: "post",
    path: type,
    operationId: `on${pascal(type)}`,
    tags: ["Webhook events"],
    summary: `\`${type}\` delivery`,
    description: "Sent to your subscription URL within 5 seconds or counted as a failure. " +
      "Verify `X-Service-Signature` over the raw body before parsing it, and deduplicate by " +
      "`id`: the body carries no timestamp in the signed data.",
    security: [],
    request: {
      headers: DeliveryHeadersSchema.omit({ "Content-Type": true }).extend({
        "X-Service-Event": z.literal(type).openapi({ description: "The envelope's `type`" }),
      }),
      body: {
        required: true,
        content: json(z.union([eventSchema(type), TestEventSchema])),
      },
    },
    responses: RECEIVER_ANSWERS,
  }));
}
