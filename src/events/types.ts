import { z } from "@hono/zod-openapi";
import { newId } from "../lib/ids.ts";

/** Every event type, with CONTRACT.md's names for those the spec leaves open. */
export const EVENT_TYPES = [
  "order.created",
  "order.merged",
  "order.updated",
  "order.shipped",
  "order.delivered",
  "order.tracking_updated",
  "share.created",
] as const;

export type EventType = typeof EVENT_TYPES[number];

export const EventTypeSchema = z.enum(EVENT_TYPES).openapi("EventType");

/** Where an order change came from. */
export type OrderSource = "chat" | "email" | "manual";

/** The delivery envelope: what receivers get as the JSON body. */
export interface EventEnvelope<D = Record<string, unknown>> {
  id: string;
  type: EventType;
  createdAt: string;
  userId: string;
  data: D;
}

export function buildEvent<D>(
  type: EventType,
  userId: string,
  data: D,
  now = Date.now(),
): EventEnvelope<D> {
  return { id: newId("evt", now), type, createdAt: new Date(now).toISOString(), userId, data };
}
