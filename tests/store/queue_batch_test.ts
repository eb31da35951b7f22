/**
 * The queue messages of a shared commit travel as one batch, and the listener's dispatch gives
 * each of them to its handler: fewer queue writes, the same deliveries.
 */
import assert from "node:assert/strict";
import { dispatch } from "../../src/events/queue.ts";
import { sharedAtomic } from "../../src/store/group_commit.ts";
import { commit } from "../../src/store/kv.ts";
import { batchedEnqueues, messagesOfBatch, QUEUE_BATCH_KIND } from "../../src/store/queue_batch.ts";
import { createLogger } from "../../src/lib/log.ts";

const log = createLogger("error");

/** Every raw message the queue of `kv` delivers until `count` have come. */
async function received(kv: Deno.Kv, count: number): Promise<unknown[]> {
  const got: unknown[] = [];
  let done!: () => void;
  const all = new Promise<void>((resolve) => done = resolve);
  const listening = kv.listenQueue((m) => {
    got.push(m);
    if (got.length === count) done();
  });
  const timeout = setTimeout(done, 5000);
  await all;
  clearTimeout(timeout);
  kv.close();
  await listening;
  return got;
}

Deno.test("queue batch: the messages of a shared commit are one queue message", async () => {
  const kv = await Deno.openKv(":memory:");
  const results = await Promise.all(
    [0, 1, 2, 3].map((i) =>
      commit(sharedAtomic(kv).set(["order", i], i).enqueue({ kind: "event", n: i }))
    ),
  );
  assert.ok(results.every((r) => r.ok));
  // The first change commits alone at once; the three handed over meanwhile share the next.
  // (The queue does not promise an order: the batch, by its kind, sorts first.)
  const messages = (await received(kv, 2)).sort((a, b) =>
    String((a as { kind: string }).kind).localeCompare((b as { kind: string }).kind)
  );
  assert.deepEqual(messages, [
    {
      kind: QUEUE_BATCH_KIND,
      messages: [{ kind: "event", n: 1 }, { kind: "event", n: 2 }, { kind: "event", n: 3 }],
    },
    { kind: "event", n: 0 },
  ]);
});

Deno.test("queue batch: delayed messages and large ones are not batched", () => {
  const plain = (n: number) => ({ value: { kind: "event", n } });
  const delayed = { value: { kind: "delivery" }, options: { delay: 1000 } };
  const large = (n: number) => ({ value: { kind: "event", n }, bytes: 40 * 1024 });
  const out = batchedEnqueues([plain(1), delayed, plain(2), large(3), large(4), plain(5)]);
  assert.deepEqual(out.map((e) => e.value), [
    delayed.value,
    {
      kind: QUEUE_BATCH_KIND,
      messages: [{ kind: "event", n: 1 }, { kind: "event", n: 2 }, { kind: "event", n: 3 }],
    },
    // Two of 40 KiB exceed one batch (56 KiB): the fourth starts another, with the fifth.
    { kind: QUEUE_BATCH_KIND, messages: [{ kind: "event", n: 4 }, { kind: "event", n: 5 }] },
  ]);
  assert.deepEqual(batchedEnqueues([plain(7)]), [plain(7)], "one message stays as it is");
  const many = batchedEnqueues(Array.from({ length: 130 }, (_, i) => plain(i)));
  assert.deepEqual(many.map((e) => messagesOfBatch(e.value)?.length), [64, 64, 2]);
});

Deno.test("queue batch: dispatch routes each message, and fails whole when one fails", async () => {
  const seen: unknown[] = [];
  const handlers = {
    event: (m: { kind: string; n?: unknown }) => {
      seen.push(m.n);
      return m.n === "bad" ? Promise.reject(new Error("handler failed")) : Promise.resolve();
    },
  };
  await dispatch({ log }, handlers, {
    kind: QUEUE_BATCH_KIND,
    messages: [{ kind: "event", n: 1 }, { kind: "event", n: 2 }, { kind: "unknown" }],
  });
  assert.deepEqual(seen, [1, 2]);
  await assert.rejects(
    dispatch({ log }, handlers, {
      kind: QUEUE_BATCH_KIND,
      messages: [{ kind: "event", n: "bad" }, { kind: "event", n: 3 }],
    }),
    /handler failed/,
  );
  assert.deepEqual(seen, [1, 2, "bad", 3], "the others still ran");
  assert.equal(messagesOfBatch({ kind: QUEUE_BATCH_KIND }), null);
  assert.equal(messagesOfBatch({ kind: "event" }), null);
});
