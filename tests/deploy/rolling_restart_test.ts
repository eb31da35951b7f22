/**
 * An upgrade with a rolling restart on one machine: the new process starts on the old one's KV
 * file and serves beside it; the proxy then sends everything to the new one and the old one is
 * stopped with SIGINT, finishing its requests and webhook sends while the new one serves. Two
 * processes on one SQLite file contend for its write lock the whole time. No request fails,
 * every order is stored once with exact totals, and every event reaches every subscription
 * exactly once, with either transport.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type RunningService, startService } from "../../scripts/service.ts";
import { keys } from "../../src/store/keys.ts";
import { readCounter } from "../../src/store/kv.ts";
import { sleep, startReceiver } from "../net/receiver.ts";
import {
  attemptMarkers,
  copiesOf,
  orderOf,
  post,
  startOrderLoad,
  unfinishedPairs,
} from "../process_load.ts";

const PATHS = ["/a", "/b"];
const PHASE_MS = 1500;

for (const transport of ["queue", "outbox"] as const) {
  Deno.test(`process: a rolling restart on one SQLite file loses nothing (${transport})`, async () => {
    const dir = await Deno.makeTempDir();
    const kvPath = join(dir, "kv.sqlite3");
    // Slow enough that the old process has sends under way when it is stopped.
    await using receiver = startReceiver({
      reply: () => sleep(100 + Math.random() * 400).then(() => new Response(null, { status: 204 })),
    });
    const env = {
      KV_PATH: kvPath,
      EVENTS_TRANSPORT: transport,
      LOG_LEVEL: "error",
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
    };
    const old = await startService({ env });
    let next: RunningService | undefined;
    try {
      const { token, user } = await post<{ token: string; user: { id: string } }>(
        old.url,
        "/api/auth/register",
        null,
        { email: "rolling@example.com", password: "correct horse battery staple" },
      );
      for (const path of PATHS) {
        await post(old.url, "/api/webhook-subscriptions", token, {
          url: receiver.url(path),
          eventTypes: ["order.created"],
        });
      }

      // The old process alone, then both (the new one starts under load), then the new alone.
      let targets = [old.url];
      let turn = 0;
      const load = startOrderLoad({ target: () => targets[turn++ % targets.length], token });
      await sleep(PHASE_MS);
      next = await startService({ env });
      targets = [old.url, next.url];
      await sleep(PHASE_MS);
      targets = [next.url];
      await sleep(200); // the proxy's last requests to the old process are answered
      const signalled = performance.now();
      const stopped = await old.stop("SIGINT");
      const drainMs = performance.now() - signalled;
      await sleep(PHASE_MS);
      await load.stop();

      assert.equal(stopped.code, 0, stopped.stderr.join("\n"));
      assert.ok(drainMs < 5000, `the old process took ${drainMs} ms to stop`);
      assert.deepEqual(load.unexpected, []);
      assert.deepEqual(stopped.stderr.filter((l) => l.includes('"level":"error"')), []);
      assert.ok((load.servedBy.get(old.url) ?? 0) > 0 && (load.servedBy.get(next.url) ?? 0) > 0);

      // Every 201 order is stored once, and the totals say so.
      const kv = await Deno.openKv(kvPath);
      try {
        const orders = await Array.fromAsync(kv.list({ prefix: keys.orders(user.id) }));
        assert.equal(orders.length, load.created.length);
        assert.equal(await readCounter(kv, keys.orderCount(user.id)), load.created.length);
        const page = await (await fetch(`${next.url}/api/orders?limit=1`, {
          headers: { authorization: `Bearer ${token}` },
        })).json();
        assert.equal(page.total, load.created.length);

        // Every event reaches every subscription exactly once.
        const expected = load.created.flatMap((id) => PATHS.map((p) => `${id} ${p}`));
        let missing: string[] = [];
        let unfinished: string[] = [];
        const deadline = Date.now() + 20_000;
        do {
          await sleep(200);
          const got = new Set(receiver.requests.map((r) => `${orderOf(r)} ${r.path}`));
          missing = expected.filter((pair) => !got.has(pair));
          unfinished = await unfinishedPairs(kv, user.id);
        } while ((missing.length || unfinished.length) && Date.now() < deadline);
        assert.deepEqual(missing, [], `${missing.length} of ${expected.length} never delivered`);
        assert.deepEqual(unfinished, []);
        const copies = copiesOf(receiver.requests);
        assert.equal(copies.size, expected.length);
        assert.deepEqual([...copies].filter(([, n]) => n > 1), []);
        assert.equal((await attemptMarkers(kv, user.id)).length, expected.length);
        if (transport === "outbox") {
          assert.deepEqual(await Array.fromAsync(kv.list({ prefix: keys.outbox() })), []);
        }
        console.log(
          `${load.created.length} orders (old ${load.servedBy.get(old.url)}, new ` +
            `${load.servedBy.get(next.url)}), ${expected.length} deliveries once each; ` +
            `the old process stopped in ${Math.round(drainMs)} ms`,
        );
      } finally {
        kv.close();
      }
      const exit = await next.stop("SIGTERM");
      assert.equal(exit.code, 0, exit.stderr.join("\n"));
    } finally {
      await old.stop("SIGKILL");
      await next?.stop("SIGKILL");
      await Deno.remove(dir, { recursive: true });
    }
  });
}
