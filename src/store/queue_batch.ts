/**
 * Queue messages of one commit travel as one. Each message a KV queue carries costs two durable
 * writes besides its commit: the listener's take and its acknowledgement. A shared commit of
 * nine creates enqueued nine events, so the queue wrote eighteen times for one commit, most of
 * the writing connection's work under load (docs/benchmarks.md). The messages of a commit that
 * need no queue option are enqueued as one batch, unpacked by the listener (events/queue.ts).
 */
import { bytesOf } from "./commit_size.ts";

/** The `kind` of a queue message that carries others. */
export const QUEUE_BATCH_KIND = "batch";

/** Estimated bytes one batch holds at most (KV takes a queue message of up to 64 KiB). */
const MAX_BATCH_BYTES = 56 * 1024;
/** Messages one batch holds at most, so a batch redelivered redoes little. */
const MAX_BATCH_MESSAGES = 64;

type EnqueueOptions = Parameters<Deno.AtomicOperation["enqueue"]>[1];

/** A message to enqueue, with its estimated bytes when known. */
export interface Enqueue {
  value: unknown;
  options?: EnqueueOptions;
  bytes?: number;
}

interface QueueBatch {
  kind: typeof QUEUE_BATCH_KIND;
  messages: unknown[];
}

/** Whether a message may travel in a batch: no delay, no keys or backoff of its own. */
const plain = ({ options }: Enqueue) =>
  !options || Object.values(options).every((v) => v === undefined);

/**
 * The messages to enqueue for `enqueues`: the plain ones grouped into batches (within the size
 * and count bounds), each other one as it is. One plain message stays unwrapped.
 */
export function batchedEnqueues(enqueues: Enqueue[]): Enqueue[] {
  if (enqueues.length < 2) return enqueues;
  const out: Enqueue[] = [];
  let batch: Enqueue[] = [];
  let bytes = 0;
  const flush = () => {
    if (batch.length === 1) out.push(batch[0]);
    if (batch.length > 1) {
      const value: QueueBatch = { kind: QUEUE_BATCH_KIND, messages: batch.map((e) => e.value) };
      out.push({ value, bytes });
    }
    batch = [];
    bytes = 0;
  };
  for (const e of enqueues) {
    if (!plain(e)) {
      out.push(e);
      continue;
    }
    const size = e.bytes ?? bytesOf(e.value);
    if (batch.length >= MAX_BATCH_MESSAGES || bytes + size > MAX_BATCH_BYTES) flush();
    batch.push(e);
    bytes += size;
  }
  flush();
  return out;
}

/** The messages a batch carries, or null when `raw` is not a batch. */
export function messagesOfBatch(raw: unknown): unknown[] | null {
  const batch = raw as Partial<QueueBatch> | null;
  if (batch?.kind !== QUEUE_BATCH_KIND || !Array.isArray(batch.messages)) return null;
  return batch.messages;
}
