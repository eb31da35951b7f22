/**
 * Events survive a crash: the real service (main.ts, a child process on a KV file) is killed
 * with SIGKILL while orders are created at 16 connections, and restarted on the same file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startService } from "../../scripts/service.ts";
import { keys } from "../../src/store/keys.ts";
import type { WebhookLogEntry } from "../../src/store/webhooks/logs.ts";
import { sleep, startReceiver } from "../net/receiver.ts";
import {
  accountWithSubscriptions,
  attemptMarkers,
  copiesOf,
  listAll,
  orderOf,
  startOrderLoad,
  unfinishedPairs,
} from "../process_load.ts";

const SUBSCRIPTIONS = ["/a", "/b", "/c"];
const KILLS = 2;
/** Load before each kill, and after the last restart. */
const LOAD_MS = 1500;
/**
 * Time from a kill to the restart. The KV queue gives a dead process's running messages back
 * when their 5 s lease has lapsed: at the start-up of the next process after that, otherwise
 * at its cleanup about a minute later. Restarting sooner is as safe, only slower to show.
 */
const RESTART_AFTER_MS = 5500;

/** The pairs claimed without an outcome, read from the dead service's KV file. */
async function unfinishedAfterKill(kvPath: string, userId: string): Promise<string[]> {
  const kv = await Deno.openKv(kvPath);
  try {
    return await unfinishedPairs(kv, userId);
  } finally {
    kv.close();
  }
}

Deno.test("process: killed with SIGKILL mid-load and restarted, every 201 order reaches every subscription", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = join(dir, "kv.sqlite3");
  // A receiver that takes 20 to 80 ms to answer, so sends are under way when a kill lands.
  await using receiver = startReceiver({
    reply: () => sleep(20 + Math.random() * 60).then(() => new Response(null, { status: 204 })),
  });
  const env = { KV_PATH: kvPath, LOG_LEVEL: "error", ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" };
  let service = await startService({ env });
  try {
    const { token, userId, subIds } = await accountWithSubscriptions(
      service.url,
      "crash@example.com",
      SUBSCRIPTIONS.map((path) => receiver.url(path)),
    );
    const pathOf = new Map(subIds.map((id, i) => [id, SUBSCRIPTIONS[i]]));
    const user = { id: userId };

    const created: string[] = [];
    const unexpected: string[] = [];
    /** Starts 16 clients; the function it returns stops them and counts their orders. */
    const load = () => {
      const running = startOrderLoad({ target: () => service.url, token, stopOnError: true });
      return async () => {
        await running.stop();
        created.push(...running.created);
        unexpected.push(...running.unexpected);
      };
    };
    // How many kills found each (event id, path) claimed without an outcome: only those
    // attempts may have reached the receiver once more than the one that counts.
    const cutShort = new Map<string, number>();
    for (let kill = 0; kill < KILLS; kill++) {
      const stopLoad = load();
      await sleep(LOAD_MS);
      await service.stop("SIGKILL");
      await stopLoad();
      for (const pair of await unfinishedAfterKill(kvPath, user.id)) {
        const [eventId, subId] = pair.split(" ");
        const key = `${eventId} ${pathOf.get(subId)}`;
        cutShort.set(key, (cutShort.get(key) ?? 0) + 1);
      }
      await sleep(RESTART_AFTER_MS);
      service = await startService({ env });
    }
    const stopLoad = load();
    await sleep(LOAD_MS);
    await stopLoad();
    assert.deepEqual(unexpected, []);
    assert.ok(cutShort.size > 0, "no kill fell inside an attempt: the test proved nothing");

    // Every order answered 201 reaches every subscription, and every attempt finishes. The
    // KV file is read beside the running service.
    const expected = created.flatMap((id) => SUBSCRIPTIONS.map((p) => `${id} ${p}`));
    const kv = await Deno.openKv(kvPath);
    try {
      let missing: string[];
      let unfinished: number;
      const deadline = Date.now() + 20_000;
      do {
        await sleep(200);
        const got = new Set(receiver.requests.map((r) => `${orderOf(r)} ${r.path}`));
        missing = expected.filter((pair) => !got.has(pair));
        unfinished = (await unfinishedPairs(kv, user.id)).length;
      } while ((missing.length || unfinished) && Date.now() < deadline);
      assert.deepEqual(missing, [], `${missing.length} of ${expected.length} never delivered`);
      assert.equal(unfinished, 0, "attempts left unfinished");

      // A pair reached the receiver more than once only when a kill cut its attempt short.
      const copies = copiesOf(receiver.requests);
      for (const [pair, n] of copies) {
        assert.ok(n <= 1 + (cutShort.get(pair) ?? 0), `${pair} received ${n} times`);
      }
      // Each pair's outcome is recorded once (one log entry, one done marker).
      const logs = await listAll<WebhookLogEntry>(kv, keys.webhookLogs(user.id));
      const logged = logs.map((l) => `${l.eventId} ${pathOf.get(l.subscriptionId)}`);
      assert.equal(logged.length, copies.size);
      assert.deepEqual(new Set(logged), new Set(copies.keys()));
      assert.ok(logs.every((l) => l.ok));
      assert.equal((await attemptMarkers(kv, user.id)).length, copies.size);
      console.log(
        `${created.length} orders (201), ${receiver.requests.length} requests for ` +
          `${copies.size} pairs; cut short by the kills: ${cutShort.size}, received twice: ` +
          `${[...copies.values()].filter((n) => n > 1).length}`,
      );
    } finally {
      kv.close();
    }
    const exit = await service.stop("SIGTERM");
    assert.equal(exit.code, 0, exit.stderr.join("\n"));
  } finally {
    await service.stop("SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});
