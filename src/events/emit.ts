import { keys } from "../store/keys.ts";
import { listValues } from "../store/kv.ts";
import type { EventEnvelope } from "../domain/events/envelope.ts";

/** How long the workspace's event log keeps an event. */
export const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The queue message that asks for an event's fan-out to subscribers. */
export interface EventMessage {
  kind: "event";
  event: EventEnvelope;
  /** Set on the in-process hand-over right after the commit (never on the transport's copy). */
  atCommit?: true;
}

/** The workspace's events, oldest first. */
export function listEvents(kv: Deno.Kv, userId: string): Promise<EventEnvelope[]> {
  return listValues<EventEnvelope>(kv, { prefix: keys.events(userId) });
}
