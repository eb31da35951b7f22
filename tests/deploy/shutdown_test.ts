/**
 * Deno Deploy sends an instance SIGINT and kills it 5 s later. The real service (main.ts, a child
 * process in Deploy mode: `DENO_DEPLOYMENT_ID` set, `Deno.openKv()` without a path, the outbox)
 * is stopped with SIGINT under load while webhook sends to a slow receiver are under way: it
 * exits 0 well within 5 s, and every event it did not finish sending is still in the outbox,
 * where the drain job (run here as another instance's cron would) delivers it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startService } from "../../scripts/service.ts";
import { testConfig } from "../../src/config.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import type { EventEnvelope } from "../../src/domain/events/envelope.ts";
import { CRON_JOBS, jobContext } from "../../src/jobs/registry.ts";
import { keys } from "../../src/store/keys.ts";
import { sleep, startReceiver } from "../net/receiver.ts";
import {
  attemptMarkers,
  copiesOf,
  listAll,
  orderOf,
  post,
  startOrderLoad,
  unfinishedPairs,
} from "../process_load.ts";

const SECRETS_KEY = new Uint8Array(32).fill(5).toBase64();
/** Longer than the service's shutdown budget: sends begun just before SIGINT are cut short. */
const SLOW_REPLY_MS = 4000;
const LOAD_MS = 1500;
/** What Deno Deploy allows between SIGINT and SIGKILL. */
const DEPLOY_GRACE_MS = 5000;

const lines = (out: string[], msg: string) =>
  out.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)).filter((l) => l.msg === msg);

Deno.test("process: SIGINT on Deploy under load exits within 5 s and leaves unsent events in the outbox", async () => {
  const dir = await Deno.makeTempDir();
  const kvFile = join(dir, "deploy.sqlite3");
  await using receiver = startReceiver({
    reply: (req) =>
      req.path === "/slow"
        ? sleep(SLOW_REPLY_MS, req.signal).then(() => new Response(null, { status: 204 }))
        : new Response(null, { status: 204 }),
  });
  const service = await startService({
    env: {
      DENO_DEPLOYMENT_ID: "shutdown-test",
      SECRETS_KEY,
      DENO_KV_DEFAULT_PATH: kvFile,
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
      LOG_LEVEL: "info",
    },
  });
  try {
    // The port accepts before the log line is read.
    for (let i = 0; i < 100 && !lines(service.stdout, "listening").length; i++) await sleep(20);
    const [listening] = lines(service.stdout, "listening");
    assert.equal(listening.deploy, true);
    assert.equal(listening.persistence, "deploy");
    assert.equal(listening.events, "outbox");
    assert.equal(listening.eventsChosenBy, "store");
    assert.deepEqual(listening.cronJobs, CRON_JOBS.map((job) => job.name));
    const health = await (await fetch(`${service.url}/api/healthz`)).json();
    assert.equal(health.persistence, "deploy");

    const { token, user } = await post<{ token: string; user: { id: string } }>(
      service.url,
      "/api/auth/register",
      null,
      { email: "shutdown@example.com", password: "correct horse battery staple" },
    );
    const pathOf = new Map<string, string>();
    for (const path of ["/fast", "/slow"]) {
      const sub = await post<{ id: string }>(service.url, "/api/webhook-subscriptions", token, {
        url: receiver.url(path),
        eventTypes: ["order.created"],
      });
      pathOf.set(sub.id, path);
    }

    const load = startOrderLoad({
      target: () => service.url,
      token,
      clients: 8,
      stopOnError: true,
    });
    await sleep(LOAD_MS);
    const signalled = performance.now();
    const exit = await service.stop("SIGINT");
    const shutdownMs = performance.now() - signalled;
    await load.stop();
    assert.equal(exit.code, 0, exit.stderr.join("\n"));
    assert.ok(shutdownMs < DEPLOY_GRACE_MS, `shutdown took ${shutdownMs} ms`);
    assert.equal(
      lines(exit.stderr, "shutdown budget spent; unfinished work is left to its transport").length,
      1,
    );
    assert.deepEqual(load.unexpected, []);
    assert.ok(load.created.length > 20, `only ${load.created.length} orders`);

    // Nothing is lost: every event either has both pairs done or is still in the outbox.
    const kv = await Deno.openKv(kvFile);
    const deps = createDeps({
      kv,
      config: testConfig({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1", SECRETS_KEY }),
      persistence: "deploy",
      // Another instance's drain, a minute later: past the grace and the dead claims' deadline.
      now: () => Date.now() + 60_000,
    });
    try {
      const events = await listAll<EventEnvelope>(kv, keys.events(user.id));
      assert.equal(events.length, load.created.length);
      const outbox = new Set(
        (await listAll<EventEnvelope>(kv, keys.outbox())).map((event) => event.id),
      );
      const done = new Map<string, number>();
      for (const m of await attemptMarkers(kv, user.id)) {
        const eventId = m.pair.split(" ")[0];
        if (m.state === "done") done.set(eventId, (done.get(eventId) ?? 0) + 1);
      }
      const lost = events.filter((e) => done.get(e.id) !== 2 && !outbox.has(e.id));
      assert.deepEqual(lost.map((e) => e.id), []);
      const cut = (await unfinishedPairs(kv, user.id)).map((pair) => {
        const [eventId, subId] = pair.split(" ");
        return `${eventId} ${pathOf.get(subId)}`;
      });
      assert.ok(cut.length > 0, "no send was under way at SIGINT: the test proved nothing");

      // The drain job delivers what was left, as the cron of another instance would.
      receiver.reply(() => new Response(null, { status: 204 }));
      const drain = CRON_JOBS.find((job) => job.name === "outbox drain")!;
      const context = jobContext(deps);
      for (let run = 0; run < 5 && (await listAll(kv, keys.outbox())).length; run++) {
        await drain.run(context, new AbortController().signal);
      }
      assert.deepEqual(await listAll(kv, keys.outbox()), []);
      assert.deepEqual(await unfinishedPairs(kv, user.id), []);

      // Every order reached both receivers; twice only where SIGINT cut its send short.
      const got = new Set(receiver.requests.map((r) => `${orderOf(r)} ${r.path}`));
      const missing = load.created.flatMap((id) => ["/fast", "/slow"].map((p) => `${id} ${p}`))
        .filter((pair) => !got.has(pair));
      assert.deepEqual(missing, []);
      for (const [pair, n] of copiesOf(receiver.requests)) {
        assert.ok(n === 1 || (n === 2 && cut.includes(pair)), `${pair} received ${n} times`);
      }
      console.log(
        `SIGINT to exit: ${Math.round(shutdownMs)} ms with ${cut.length} sends under way; ` +
          `${load.created.length} orders, ${outbox.size} events left in the outbox, all delivered`,
      );
    } finally {
      await drainDeps(deps);
      kv.close();
    }
  } finally {
    await service.stop("SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});
