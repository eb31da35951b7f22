/**
 * Events survive a crash: the real service (main.ts, a child process on a KV file) is killed
 * with SIGKILL while orders are created at 16 connections, and restarted on the same file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type RunningService, startService } from "../../scripts/service.ts";
import type { AttemptMarker } from "../../src/domain/webhook_attempt.ts";
import { keys } from "../../src/store/keys.ts";
import type { WebhookLogEntry } from "../../src/store/webhook_logs.ts";
import { type Received, sleep, startReceiver } from "../net/receiver.ts";

const CONNECTIONS = 16;
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

interface Load {
  /** Ids of the orders answered 201. */
  created: string[];
  /** Answers other than 201 (there must be none). */
  unexpected: string[];
  /** Stops the clients; those cut off by a kill have stopped already. */
  stop(): Promise<void>;
}

/** 16 clients creating orders until stopped or until their server dies. */
function startLoad(url: string, token: string, into: Omit<Load, "stop">): Load {
  let stopped = false;
  const client = async () => {
    while (!stopped) {
      let res: Response;
      let body: { order?: { id: string } };
      try {
        res = await fetch(`${url}/api/orders`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ itemSummary: "Desk lamp" }),
        });
        body = await res.json();
      } catch {
        return; // killed: whether this order was stored is unknown, and it is not counted
      }
      if (res.status === 201 && body.order) into.created.push(body.order.id);
      else into.unexpected.push(`${res.status} ${JSON.stringify(body)}`);
    }
  };
  const clients = Array.from({ length: CONNECTIONS }, client);
  return {
    ...into,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

async function api<T>(service: RunningService, path: string, token: string | null, body: unknown) {
  const res = await fetch(`${service.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

/** Every attempt marker of the account: `"<event id> <subscription id>"` and its state. */
async function markers(kv: Deno.Kv, userId: string) {
  const out: { pair: string; state: AttemptMarker["state"] }[] = [];
  const prefix = keys.webhookAttempt(userId, "", "").slice(0, 3);
  for await (const e of kv.list<AttemptMarker>({ prefix })) {
    out.push({ pair: `${String(e.key[3])} ${String(e.key[4])}`, state: e.value.state });
  }
  return out;
}

/** The pairs claimed without an outcome, read from the dead service's KV file. */
async function unfinishedPairs(kvPath: string, userId: string): Promise<string[]> {
  const kv = await Deno.openKv(kvPath);
  try {
    return (await markers(kv, userId)).filter((m) => m.state !== "done").map((m) => m.pair);
  } finally {
    kv.close();
  }
}

async function listAll<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  const out: T[] = [];
  for await (const e of kv.list<T>({ prefix })) out.push(e.value);
  return out;
}

const orderOf = (req: Received) =>
  (JSON.parse(req.body) as { data: { order: { id: string } } })
    .data.order.id;

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
    const { token, user } = await api<{ token: string; user: { id: string } }>(
      service,
      "/api/auth/register",
      null,
      { email: "crash@example.com", password: "correct horse battery staple" },
    );
    const pathOf = new Map<string, string>();
    for (const path of SUBSCRIPTIONS) {
      const sub = await api<{ id: string }>(service, "/api/webhook-subscriptions", token, {
        url: receiver.url(path),
        eventTypes: ["order.created"],
      });
      pathOf.set(sub.id, path);
    }

    const results: Omit<Load, "stop"> = { created: [], unexpected: [] };
    // How many kills found each (event id, path) claimed without an outcome: only those
    // attempts may have reached the receiver once more than the one that counts.
    const cutShort = new Map<string, number>();
    for (let kill = 0; kill < KILLS; kill++) {
      const load = startLoad(service.url, token, results);
      await sleep(LOAD_MS);
      await service.stop("SIGKILL");
      await load.stop();
      for (const pair of await unfinishedPairs(kvPath, user.id)) {
        const [eventId, subId] = pair.split(" ");
        const key = `${eventId} ${pathOf.get(subId)}`;
        cutShort.set(key, (cutShort.get(key) ?? 0) + 1);
      }
      await sleep(RESTART_AFTER_MS);
      service = await startService({ env });
    }
    const load = startLoad(service.url, token, results);
    await sleep(LOAD_MS);
    await load.stop();
    assert.deepEqual(results.unexpected, []);
    assert.ok(cutShort.size > 0, "no kill fell inside an attempt: the test proved nothing");

    // Every order answered 201 reaches every subscription, and every attempt finishes. The
    // KV file is read beside the running service.
    const expected = results.created.flatMap((id) => SUBSCRIPTIONS.map((p) => `${id} ${p}`));
    const kv = await Deno.openKv(kvPath);
    try {
      let missing: string[];
      let unfinished: number;
      const deadline = Date.now() + 20_000;
      do {
        await sleep(200);
        const got = new Set(receiver.requests.map((r) => `${orderOf(r)} ${r.path}`));
        missing = expected.filter((pair) => !got.has(pair));
        unfinished = (await markers(kv, user.id)).filter((m) => m.state !== "done").length;
      } while ((missing.length || unfinished) && Date.now() < deadline);
      assert.deepEqual(missing, [], `${missing.length} of ${expected.length} never delivered`);
      assert.equal(unfinished, 0, "attempts left unfinished");

      // A pair reached the receiver more than once only when a kill cut its attempt short.
      const copies = new Map<string, number>();
      for (const r of receiver.requests) {
        const key = `${r.headers.get("x-service-event-id")} ${r.path}`;
        copies.set(key, (copies.get(key) ?? 0) + 1);
      }
      for (const [pair, n] of copies) {
        assert.ok(n <= 1 + (cutShort.get(pair) ?? 0), `${pair} received ${n} times`);
      }
      // Each pair's outcome is recorded once (one log entry, one done marker).
      const logs = await listAll<WebhookLogEntry>(kv, keys.webhookLogs(user.id));
      const logged = logs.map((l) => `${l.eventId} ${pathOf.get(l.subscriptionId)}`);
      assert.equal(logged.length, copies.size);
      assert.deepEqual(new Set(logged), new Set(copies.keys()));
      assert.ok(logs.every((l) => l.ok));
      assert.equal((await markers(kv, user.id)).length, copies.size);
      console.log(
        `${results.created.length} orders (201), ${receiver.requests.length} requests for ` +
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
