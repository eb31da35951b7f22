/**
 * A stopping process hands queue messages back: what the KV queue delivers after `handBack()`
 * is not handled there but put back on the queue, so the next process takes it at once (a
 * message taken and left unacknowledged would wait for a queue cleanup, about a minute).
 */
import { deepStrictEqual as eq } from "node:assert/strict";
import { join } from "node:path";
import { testConfig } from "../../src/config.ts";
import { createDeps } from "../../src/deps.ts";
import { type QueueMessage, startQueueListener } from "../../src/events/queue.ts";
import { createLogger } from "../../src/lib/log.ts";
import { sleep } from "../net/receiver.ts";

async function listener(path: string, seen: QueueMessage[]) {
  const kv = await Deno.openKv(path);
  const deps = createDeps({
    kv,
    config: testConfig({}),
    persistence: "sqlite",
    events: "queue",
    log: createLogger("error", () => {}),
  });
  const queue = startQueueListener(deps, {
    ping: (message) => {
      seen.push(message);
      return Promise.resolve();
    },
  });
  return { kv, queue };
}

Deno.test("a stopping process hands queue messages back; the next process takes them", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "kv.sqlite3");
  try {
    const seenByOld: QueueMessage[] = [];
    const old = await listener(path, seenByOld);
    await old.kv.enqueue({ kind: "ping", n: 1 });
    for (let i = 0; i < 250 && !seenByOld.length; i++) await sleep(20);
    eq(seenByOld, [{ kind: "ping", n: 1 }]);

    old.queue.handBack();
    await old.kv.enqueue({ kind: "ping", n: 2 });
    await sleep(300); // taken and put back, due HAND_BACK_DELAY_MS later
    await old.queue.drain({ quietMs: 100 });
    old.kv.close();
    await old.queue.close();
    eq(seenByOld, [{ kind: "ping", n: 1 }]);

    const seenByNext: QueueMessage[] = [];
    const next = await listener(path, seenByNext);
    for (let i = 0; i < 500 && !seenByNext.length; i++) await sleep(20);
    await sleep(300);
    await next.queue.drain();
    next.kv.close();
    await next.queue.close();
    eq(seenByNext, [{ kind: "ping", n: 2 }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
