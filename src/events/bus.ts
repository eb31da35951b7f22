/**
 * The event path of one store, built once by `createDeps` and passed wherever a change commits
 * events: each event goes into the workspace's event log and to the transport in the change's
 * own atomic operation (so an event exists if and only if the change is stored), and once the
 * commit succeeds the process's listeners hear of it at once. The queue's dequeue adds up to
 * ~100 ms of jitter and the outbox is drained every minute, so the delivery listener starts
 * from here; the transport's copy finds the work done, or does it when this process died first.
 */
import { metrics } from "../lib/metrics.ts";
import { keys } from "../store/keys.ts";
import { EVENT_RETENTION_MS } from "./emit.ts";
import type { EventTransport } from "./transport.ts";
import type { EventEnvelope } from "../domain/events/envelope.ts";
import { commit, type EventCommitter } from "../store/kv.ts";

export type CommitListener = (events: EventEnvelope[]) => void;

export class EventBus implements EventCommitter {
  readonly #listeners = new Set<CommitListener>();

  constructor(readonly transport: EventTransport) {}

  /** Adds the events' log entries and hand-offs to the change's atomic operation. */
  add(op: Deno.AtomicOperation, events: EventEnvelope[]): void {
    for (const event of events) {
      op.set(keys.event(event.userId, event.id), event, { expireIn: EVENT_RETENTION_MS });
      this.transport.add(op, event);
    }
  }

  /** Adds the events to `op`, commits it, and tells the listeners when the change is stored. */
  async commit(
    op: Deno.AtomicOperation,
    events: EventEnvelope[],
  ): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
    this.add(op, events);
    const result = await commit(op);
    if (result.ok && events.length) {
      for (let i = 0; i < events.length; i++) metrics.eventHandedOff(this.transport.name);
      this.#tell(events);
    }
    return result;
  }

  /** Calls `listener` with the events of every commit made through this bus; unsubscribes. */
  onCommitted(listener: CommitListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tell(events: EventEnvelope[]) {
    for (const listener of this.#listeners) {
      try {
        listener(events);
      } catch {
        // The change is stored: a listener's failure must not report it as failed, and the
        // transport's copy still delivers the events.
      }
    }
  }
}
