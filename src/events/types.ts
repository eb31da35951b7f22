import { z } from "@hono/zod-openapi";
import { EVENT_TYPES, type EventType } from "../domain/event_types.ts";
import { newId } from "../lib/ids.ts";

export const EventTypeSchema = z.enum(EVENT_TYPES).openapi("EventType");

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
