/**
 * A crash run: the real service (main.ts, a child process on a KV file) creates orders at 16
 * connections for subscriptions whose receivers answer slowly, and is killed with SIGKILL and
 * restarted on the same file several times mid-run. It counts what the receivers got twice
 * and what was on the wire at each kill. Shared by tests/webhooks/resend_test.ts and the
 * benchmark's `crash` scenario (the setup: 1,500 orders, 5 kills, 400 ms receivers).
 */
import { join } from "node:path";
import { startService } from "../../scripts/service.ts";
import { sleep, startReceiver } from "../net/receiver.ts";
import { accountWithSubscriptions, startOrderLoad, unfinishedPairs } from "../process_load.ts";

export interface CrashRunOptions {
  /** Orders answered 201 in the whole run (it may end a few past this). */
  orders: number;
  /** SIGKILLs, spread evenly over the orders. */
  kills: number;
  /** How long each receiver takes to answer. */
  replyMs: number;
  /** Subscriptions to `order.created`, one receiver path each. */
  subscriptions?: number;
  clients?: number;
  /**
   * Time from a kill to the restart. The KV queue gives a dead process's running messages back
   * when their 5 s lease has lapsed: at the start-up of the next process after that, otherwise
   * at its cleanup about a minute later.
   */
  restartAfterMs?: number;
  /** How long to wait for the last deliveries after the load stops. */
  settleMs?: number;
  /**
   * An answer sent this long before a kill still counts as on the wire: its way back to the
   * service, which may be busy (default 0).
   */
  answerMarginMs?: number;
}

export interface CrashRunResult {
  created: number;
  /** (event, subscription) pairs that reached a receiver. */
  pairs: number;
  /** Pairs of orders answered 201 that never reached their receiver. */
  missing: number;
  requests: number;
  /** Requests beyond the first of their pair. */
  duplicates: number;
  /** Per kill: requests on the wire (received before the restart, not answered at the kill). */
  onWire: number[];
  /** Repeats of pairs that were not on the wire at any kill (must be 0). */
  unexplained: number;
  /** Attempt markers left claimed without an outcome at the end. */
  unfinished: number;
  seconds: number;
}

interface Copy {
  pair: string;
  order: string;
  at: number;
  answeredAt?: number;
}

export async function crashRun(options: CrashRunOptions): Promise<CrashRunResult> {
  const started = performance.now();
  const paths = Array.from({ length: options.subscriptions ?? 3 }, (_, i) => `/s${i}`);
  const copies: Copy[] = [];
  await using receiver = startReceiver({
    reply: async (req) => {
      const event = JSON.parse(req.body) as { id: string; data: { order: { id: string } } };
      const copy: Copy = {
        pair: `${event.id} ${req.path}`,
        order: `${event.data.order.id} ${req.path}`,
        at: performance.now(),
      };
      copies.push(copy);
      await sleep(options.replyMs, req.signal);
      copy.answeredAt = performance.now();
      return new Response(null, { status: 204 });
    },
  });
  const dir = await Deno.makeTempDir();
  const kvPath = join(dir, "kv.sqlite3");
  const env = { KV_PATH: kvPath, LOG_LEVEL: "error", ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" };
  let service = await startService({ env });
  try {
    const { token, userId } = await accountWithSubscriptions(
      service.url,
      "crash@example.com",
      paths.map((path) => receiver.url(path)),
    );
    const created: string[] = [];
    /** Creates orders until `total` were answered 201 (or the service dies). */
    const loadUntil = async (total: number, kill: boolean) => {
      const running = startOrderLoad({
        target: () => service.url,
        token,
        clients: options.clients,
        stopOnError: true,
      });
      while (created.length + running.created.length < total) await sleep(5);
      const killedAt = performance.now();
      if (kill) await service.stop("SIGKILL");
      await running.stop();
      if (running.unexpected.length) throw new Error(running.unexpected.join("\n"));
      created.push(...running.created);
      return killedAt;
    };
    const kills: number[] = [];
    const restarts: number[] = [];
    const step = options.orders / (options.kills + 1);
    for (let k = 1; k <= options.kills; k++) {
      kills.push(await loadUntil(Math.round(step * k), true));
      await sleep(options.restartAfterMs ?? 5500);
      restarts.push(performance.now());
      service = await startService({ env });
    }
    await loadUntil(options.orders, false);

    const kv = await Deno.openKv(kvPath);
    let missing: number;
    let unfinished: number;
    try {
      const expected = created.flatMap((id) => paths.map((path) => `${id} ${path}`));
      const deadline = Date.now() + (options.settleMs ?? 30_000);
      do {
        await sleep(250);
        const got = new Set(copies.map((c) => c.order));
        missing = expected.filter((pair) => !got.has(pair)).length;
        unfinished = (await unfinishedPairs(kv, userId)).length;
      } while ((missing > 0 || unfinished > 0) && Date.now() < deadline);
    } finally {
      kv.close();
    }
    const stopped = await service.stop("SIGTERM");
    if (stopped.code !== 0) throw new Error(`exit ${stopped.code}: ${stopped.stderr.join("\n")}`);

    // What each kill found on the wire: received before the restart (a dead process's request
    // already written is still read), not answered when the kill landed.
    const margin = options.answerMarginMs ?? 0;
    const wire = kills.map((killedAt, k) =>
      copies.filter((c) => c.at < restarts[k] && (c.answeredAt ?? Infinity) >= killedAt - margin)
    );
    const allowance = new Map<string, number>();
    for (const c of wire.flat()) allowance.set(c.pair, (allowance.get(c.pair) ?? 0) + 1);
    const count = new Map<string, number>();
    for (const c of copies) count.set(c.pair, (count.get(c.pair) ?? 0) + 1);
    let duplicates = 0;
    let unexplained = 0;
    for (const [pair, n] of count) {
      duplicates += n - 1;
      unexplained += Math.max(0, n - 1 - (allowance.get(pair) ?? 0));
    }
    return {
      created: created.length,
      pairs: count.size,
      missing,
      requests: copies.length,
      duplicates,
      onWire: wire.map((w) => w.length),
      unexplained,
      unfinished,
      seconds: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    await service.stop("SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
}
