import { keys } from "../store/keys.ts";
import { listValues } from "../store/kv.ts";
import { eventTransportOf } from "./transport.ts";
import type { EventEnvelope } from "./types.ts";

/** How long the workspace's event log keeps an event. */
export const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The queue message that asks for an event's fan-out to subscribers. */
export interface EventMessage {
  kind: "event";
  event: EventEnvelope;
  /** Set on the in-process hand-over right after the commit (never on the transport's copy). */
  atCommit?: true;
}

type CommitListener = (events: EventEnvelope[]) => void;
const commitListeners = new WeakMap<Deno.Kv, Set<CommitListener>>();

/**
 * Calls `listener` with the events of every commit of this process through `kv` right after
 * it succeeds. The queue's dequeue adds up to ~100 ms of jitter (and the outbox is only
 * drained every minute), so the process's delivery listener uses this to start delivery at
 * once; the transport's copy finds the work done (and still delivers when the process dies
 * first). Returns the unsubscribe function.
 */
export function onEventsCommitted(kv: Deno.Kv, listener: CommitListener): () => void {
  let listeners = commitListeners.get(kv);
  if (!listeners) commitListeners.set(kv, listeners = new Set());
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Adds events to the atomic operation that makes the change through `kv`, so an event exists
 * if and only if the change is stored: each goes into the workspace's event log and to the
 * store's event transport (a queue message, or an outbox entry where KV has no queues).
 */
export function addEvents(kv: Deno.Kv, op: Deno.AtomicOperation, events: EventEnvelope[]): void {
  const transport = eventTransportOf(kv);
  for (const event of events) {
    op.set(keys.event(event.userId, event.id), event, { expireIn: EVENT_RETENTION_MS });
    transport.add(op, event);
  }
  if (events.length === 0) return;
  const commit = op.commit.bind(op);
  op.commit = async () => {
    const result = await commit();
    if (!result.ok) return result;
    for (const listener of commitListeners.get(kv) ?? []) {
      try {
        listener(events);
      } catch {
        // The change is stored; a listener's failure must not report it as failed, and the
        // transport's copy still delivers the events.
      }
    }
    return result;
  };
}

/** The workspace's events, oldest first. */
export function listEvents(kv: Deno.Kv, userId: string): Promise<EventEnvelope[]> {
  return listValues<EventEnvelope>(kv, { prefix: keys.events(userId) });
}
