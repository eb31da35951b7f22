import type { EventEnvelope } from "../domain/events/envelope.ts";
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";

/** An entry nobody handled is dropped with the event log entry it mirrors (7 days). */
const OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Adds the event to the outbox in the commit that stores it. */
export function addToOutbox(op: Deno.AtomicOperation, event: EventEnvelope): void {
  op.set(keys.outboxEntry(event.id), event, { expireIn: OUTBOX_RETENTION_MS });
}

/** Every pair of the event is done: its entry goes. */
export async function removeFromOutbox(kv: Deno.Kv, eventId: string): Promise<void> {
  await commit(kv.atomic().delete(keys.outboxEntry(eventId)));
}

/** The outbox's events, oldest first (event ids sort by time). */
export function listOutbox(kv: Deno.Kv): Deno.KvListIterator<EventEnvelope> {
  return kv.list<EventEnvelope>({ prefix: keys.outbox() }, { batchSize: 100 });
}

/** Entries in the outbox, counted up to `cap` (a scrape reads no more than that). */
export async function countOutbox(kv: Deno.Kv, cap = 10_000): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: keys.outbox() }, { limit: cap, batchSize: 1000 })) n++;
  return n;
}
