import { addToOutbox, removeFromOutbox } from "../store/outbox.ts";
import type { EventMessage } from "./emit.ts";
import type { EventEnvelope } from "../domain/events/envelope.ts";

/**
 * How events committed with a change reach delivery. The committing process hands them to its
 * delivery handler at once either way (`EventBus.onCommitted`); the transport is the backstop for
 * a process that dies first.
 */
export interface EventTransport {
  readonly name: "queue" | "outbox";
  /** Adds the event's hand-off to the commit that stores it. */
  add(op: Deno.AtomicOperation, event: EventEnvelope): void;
  /**
   * Every pair of the event is done (its outcome recorded, or nothing is left to send): its
   * hand-off ends. Until then the hand-off stays, so a crash loses nothing.
   */
  settled(kv: Deno.Kv, eventId: string): Promise<void>;
}

/**
 * A local KV: a queue message in the change's commit, delivered by the process's
 * `listenQueue` and acknowledged when its handler returns (pairs still under way then get a
 * delayed message of their own), so the message itself is the hand-off.
 */
export const QUEUE: EventTransport = {
  name: "queue",
  add: (op, event) => op.enqueue({ kind: "event", event } satisfies EventMessage),
  settled: () => Promise.resolve(),
};

/**
 * A KV without queues (KV Connect, Deno Deploy): an `["outbox", eventId]` entry in the change's commit,
 * removed once every pair is done; a cron job (`src/jobs/outbox_drain.ts`) delivers what a
 * dead process left there.
 */
export const OUTBOX: EventTransport = {
  name: "outbox",
  add: addToOutbox,
  settled: removeFromOutbox,
};
