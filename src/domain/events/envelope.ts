import { z } from "@hono/zod-openapi";
import type { CARRIER_KEYS } from "../tracking/carriers.ts";
import { EVENT_TYPES, type EventType } from "./types.ts";
import type { AppliedPatch, Order, OrderSource } from "../orders/order.ts";
import { newId } from "../../lib/ids.ts";

export const EventTypeSchema = z.enum(EVENT_TYPES).openapi("EventType");

/** `data` of the order events. */
export type OrderEventData = { order: Order; source: OrderSource };

/** A share card as `share.created` carries it (CONTRACT.md "Shares"): public data only. */
export type ShareCard = {
  slug: string;
  kind: "order" | "profit";
  url: string;
  createdAt: string;
  title: string;
  lines: string[];
  /** The order's product image (https only); absent for profit cards. */
  imageUrl?: string;
};

/**
 * The `data` of each event type. src/schemas/webhooks/events.ts describes each one in zod for the
 * OpenAPI `webhooks`, and fails to compile when its schema and this type differ.
 */
export interface EventData {
  "order.created": OrderEventData;
  "order.merged": OrderEventData;
  "order.updated": { order: Order; source: OrderSource; patch: AppliedPatch };
  "order.shipped": OrderEventData;
  "order.delivered": OrderEventData;
  "order.tracking_updated": {
    order: Order;
    carrier: typeof CARRIER_KEYS[number];
    delivered: boolean;
    eventCount: number;
  };
  "share.created": { share: ShareCard };
}

/** The `data` of a test event, whatever its type. */
export type TestEventData = { test: true };

/** The delivery envelope: what receivers get as the JSON body (and what the queue carries). */
export const EventEnvelopeSchema = z.object({
  id: z.string().openapi({
    description: "Unique event id (`evt_`, `evt_test_` on test events); receivers deduplicate " +
      "by it",
    example: "evt_01jq4w5v2x8c9d0e1f2g3h4j5k",
  }),
  type: EventTypeSchema,
  createdAt: z.string().openapi({
    description: "When the event happened: ISO 8601 UTC, millisecond precision",
    example: "2026-11-21T01:12:08.232Z",
  }),
  userId: z.string().openapi({
    description: "The workspace owner",
    example: "usr_01m7xtj8g5e8w6b8j06k3khztz",
  }),
  data: z.record(z.string(), z.unknown()),
});

export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

/** An envelope of one event type, with that type's `data`. */
export type TypedEvent<T extends EventType, D = EventData[T]> =
  & Omit<EventEnvelope, "type" | "data">
  & { type: T; data: D };

export function buildEvent<T extends EventType>(
  type: T,
  userId: string,
  data: EventData[T],
  now = Date.now(),
): TypedEvent<T> {
  return { id: newId("evt", now), type, createdAt: new Date(now).toISOString(), userId, data };
}

/** One event to build: a type with its own `data` (any type, each checked against its data). */
export type EventSpec = { [T in EventType]: { type: T; data: EventData[T] } }[EventType];

/** Builds the envelope of an `EventSpec` (the union form of {@link buildEvent}). */
export function buildEventOf(spec: EventSpec, userId: string, now = Date.now()): EventEnvelope {
  return buildEvent(spec.type, userId, spec.data as never, now);
}

/** A test event: an `evt_test_` id and `data: {test: true}`, of any type. */
export function buildTestEvent<T extends EventType>(
  type: T,
  userId: string,
  now = Date.now(),
): TypedEvent<T, TestEventData> {
  const data: TestEventData = { test: true };
  return { id: newId("evt_test", now), type, createdAt: new Date(now).toISOString(), userId, data };
}
