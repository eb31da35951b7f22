import { keys } from "../store/keys.ts";
import type { EventEnvelope } from "./types.ts";

/** How long the workspace's event log keeps an event. */
export const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The queue message that asks for an event's fan-out to subscribers. */
export interface EventMessage {
  kind: "event";
  event: EventEnvelope;
}

/**
 * Adds events to the atomic operation that makes the change, so an event exists if and only
 * if the change is stored: each goes into the workspace's event log and onto the queue.
 */
export function addEvents(op: Deno.AtomicOperation, events: EventEnvelope[]): void {
  for (const event of events) {
    op.set(keys.event(event.userId, event.id), event, { expireIn: EVENT_RETENTION_MS });
    op.enqueue({ kind: "event", event } satisfies EventMessage);
  }
}

/** The workspace's events, oldest first. */
export async function listEvents(kv: Deno.Kv, userId: string): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  for await (const e of kv.list<EventEnvelope>({ prefix: keys.events(userId) })) {
    out.push(e.value);
  }
  return out;
}
