/**
 * Webhook fan-out: orders created through `POST /api/orders` on the running service, delivered
 * by its queue listener to a receiver in this process; and the same events committed straight
 * through the store (scripts/bench/event_source.ts), which measures the delivery pipeline
 * without the order route's own ceiling. Latency is from the event's commit (`createdAt`,
 * stamped just before the commit) to the receiver reading the request.
 */
import { SecretBox } from "../../../src/lib/secret_box.ts";
import { issueSession } from "../../../src/store/account/credentials.ts";
import { createUser } from "../../../src/store/account/users.ts";
import { createSubscription } from "../../../src/store/webhooks/subscriptions.ts";
import { type BenchContext, type BenchServer, type Scenario, table } from "../context.ts";
import { cpuSeconds } from "../proc.ts";

/** The issue's targets: p50 commit-to-receipt on loopback, and sustained deliveries/s. */
const TARGET_P50_MS = 50;
const TARGET_RATE = 1000;
/** How long to wait for the last deliveries after the load stops. */
const DRAIN_MS = 30_000;

interface Receiver {
  url: string;
  latencies: number[];
  first: number;
  last: number;
  close(): Promise<void>;
}

function startReceiver(): Receiver {
  const aborter = new AbortController();
  const state: Receiver = { url: "", latencies: [], first: 0, last: 0, close: async () => {} };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: aborter.signal, onListen: () => {} },
    async (req) => {
      const event = JSON.parse(await req.text());
      const now = Date.now();
      state.latencies.push(now - Date.parse(event.createdAt));
      state.first ||= now;
      state.last = now;
      return new Response(null, { status: 204 });
    },
  );
  state.url = `http://127.0.0.1:${server.addr.port}`;
  state.close = async () => {
    aborter.abort();
    await server.finished;
  };
  return state;
}

interface Seeded {
  userIds: string[];
  tokens: string[];
}

/** Accounts with subscriptions to the receiver, written before the service starts. */
function seed(
  box: SecretBox,
  receiver: Receiver,
  accounts: number,
  subsEach: number,
  seeded: Seeded,
) {
  return async (kv: Deno.Kv) => {
    for (let a = 0; a < accounts; a++) {
      const created = await createUser(kv, { email: `bench${a}@example.com` });
      if (!created.ok) throw new Error("seed user not created");
      seeded.userIds.push(created.user.id);
      seeded.tokens.push(await issueSession(kv, created.user.id));
      for (let s = 0; s < subsEach; s++) {
        await createSubscription(kv, box, {
          userId: created.user.id,
          url: `${receiver.url}/${a}/${s}`,
          eventTypes: ["order.created"],
          active: true,
        }, Date.now());
      }
    }
  };
}

interface Run {
  label: string;
  offered: number | "max";
  created: number;
  /** Events stored per second, until the last one was stored (a backlog shows as less). */
  createdRate: number;
  deliveries: number;
  expected: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  cpuPct: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : 0;

/** Where the events come from: one event per call to an account, round robin. */
interface Source {
  server: BenchServer;
  /** Creates `n` events; resolves to how many were stored. */
  emit(n: number): Promise<number>;
  /** Flat out: events per `emit` call, and how many calls run at once. */
  maxBatch: number;
  maxClients: number;
}

/** Orders through `POST /api/orders` (session tokens spread over the accounts). */
function orderSource(server: BenchServer, tokens: string[]): Source {
  let sent = 0;
  const post = async () => {
    const token = tokens[sent++ % tokens.length];
    const res = await fetch(`${server.url}/api/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ itemSummary: `Bench item ${sent}` }),
    });
    await res.body?.cancel();
    return res.status === 201;
  };
  return {
    server,
    async emit(n) {
      const created = await Promise.all(Array.from({ length: n }, post));
      return created.filter(Boolean).length;
    },
    maxBatch: 1,
    maxClients: 32,
  };
}

/** Order events committed through the store by scripts/bench/event_source.ts. */
function storeSource(server: BenchServer, userIds: string[]): Source {
  let sent = 0;
  return {
    server,
    async emit(n) {
      const ids = Array.from({ length: n }, () => userIds[sent++ % userIds.length]);
      const res = await fetch(`${server.url}/events`, {
        method: "POST",
        body: JSON.stringify({ userIds: ids }),
      });
      await res.body?.cancel();
      return res.status === 204 ? n : 0;
    },
    maxBatch: 50,
    maxClients: 4,
  };
}

/**
 * Creates events for `seconds`: at a fixed rate (what is due every 5 ms), or flat out. Then
 * waits for every delivery and reads the receiver.
 */
async function drive(
  source: Source,
  receiver: Receiver,
  subsEach: number,
  label: string,
  offered: number | "max",
  seconds: number,
): Promise<Run> {
  receiver.latencies = [];
  receiver.first = receiver.last = 0;
  let created = 0;
  let sent = 0;
  let lastStored = 0;
  const emit = async (n: number) => {
    sent += n;
    const stored = await source.emit(n);
    created += stored;
    lastStored = performance.now();
  };
  const cpuBefore = await cpuSeconds(source.server.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  if (offered === "max") {
    await Promise.all(Array.from({ length: source.maxClients }, async () => {
      while (performance.now() < until) await emit(source.maxBatch);
    }));
  } else {
    const inFlight = new Set<Promise<void>>();
    while (performance.now() < until) {
      const due = Math.floor((performance.now() - started) / 1000 * offered);
      if (due > sent) {
        const p = emit(due - sent).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(inFlight);
  }
  const expected = created * subsEach;
  const drainUntil = performance.now() + DRAIN_MS;
  while (receiver.latencies.length < expected && performance.now() < drainUntil) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpuPct = Math.round((await cpuSeconds(source.server.pid) - cpuBefore) / elapsed * 100);
  const sorted = receiver.latencies.toSorted((a, b) => a - b);
  const spanS = Math.max(receiver.last - receiver.first, 1) / 1000;
  return {
    label,
    offered,
    created,
    createdRate: Math.round(created / Math.max(lastStored - started, 1) * 1000),
    deliveries: sorted.length,
    expected,
    rate: Math.round(sorted.length / spanS),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
    cpuPct,
  };
}

interface Case {
  name: string;
  accounts: number;
  subsEach: number;
  /** `api`: `POST /api/orders` on the service; `store`: events committed through the store. */
  via: "api" | "store";
  rates: readonly (number | "max")[];
}

async function setup(ctx: BenchContext, c: Case) {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const receiver = startReceiver();
  const seeded: Seeded = { userIds: [], tokens: [] };
  const start = {
    env: { ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1", SECRETS_KEY: key.toBase64() },
    seed: seed(new SecretBox(key), receiver, c.accounts, c.subsEach, seeded),
  };
  const source = c.via === "api"
    ? orderSource(await ctx.startService(start), seeded.tokens)
    : storeSource(
      await ctx.startBare({ ...start, script: "scripts/bench/event_source.ts" }),
      seeded.userIds,
    );
  return { receiver, source };
}

/** The ceiling the 1,000-account case runs into: creating orders, with nothing to deliver. */
const ORDER_CEILING: Case = {
  name: "1,000 accounts, no subscriptions",
  accounts: 1000,
  subsEach: 0,
  via: "api",
  rates: [TARGET_RATE, "max"],
};

/** The delivery pipeline itself: the 1,000-account case's events, committed through the store. */
const PIPELINE: Case = {
  name: "1,000 accounts x 1 subscription, events committed through the store",
  accounts: 1000,
  subsEach: 1,
  via: "store",
  rates: [100, TARGET_RATE, 2 * TARGET_RATE, "max"],
};

/** The cases of the issue, each at a light rate, at 1,000 deliveries/s and flat out. */
const CASES: Case[] = [
  {
    name: "1 account x 25 subscriptions",
    accounts: 1,
    subsEach: 25,
    via: "api",
    rates: [4, 40, "max"],
  },
  {
    name: "1,000 accounts x 1 subscription",
    accounts: 1000,
    subsEach: 1,
    via: "api",
    rates: [100, 1000, "max"],
  },
  ORDER_CEILING,
  PIPELINE,
];

/** A fixed rate met: every delivery arrived, at 95% of the rate or more, p50 under target. */
const sustained = (r: Run) =>
  r.offered !== "max" && r.expected > 0 && r.deliveries === r.expected &&
  r.rate >= r.offered * 0.95 && r.p50 < TARGET_P50_MS;

/** Which bound the 1,000-account case meets, from the ceiling and pipeline cases' runs. */
function boundNote(results: Map<Case, Run[]>): string {
  const ceiling = results.get(ORDER_CEILING)?.find((r) => r.offered === TARGET_RATE);
  const best = (results.get(PIPELINE) ?? []).filter(sustained).sort((a, b) => b.rate - a.rate)[0];
  if (!ceiling || !best) return "";
  const routeBound = ceiling.createdRate < TARGET_RATE * 0.95;
  return `Which bound applies to 1,000 accounts x 1 subscription: each delivery needs an order ` +
    `of its own, and offered ${TARGET_RATE} orders/s with nothing to deliver, the service ` +
    `stored ${ceiling.createdRate}/s (${ceiling.cpuPct}% CPU)` +
    (routeBound
      ? ": creating orders through the API, not delivering them, is the ceiling. "
      : ". ") +
    `The delivery pipeline itself (same accounts and subscriptions, events committed through ` +
    `the store) sustained ${best.rate} deliveries/s at p50 ${best.p50} ms with every delivery ` +
    `arriving (${best.cpuPct}% CPU, event commits included).`;
}

export const webhooks: Scenario = {
  name: "webhooks",
  title: "Webhook fan-out: order created to receiver",
  async run(ctx: BenchContext): Promise<string> {
    const rows: (string | number)[][] = [];
    const verdicts: string[] = [];
    const results = new Map<Case, Run[]>();
    for (const c of CASES) {
      const { receiver, source } = await setup(ctx, c);
      const runs: Run[] = [];
      try {
        // One second at the light rate first, unmeasured (JIT warm-up, first connections).
        await drive(source, receiver, c.subsEach, c.name, c.rates[0], 1);
        for (const rate of c.rates) {
          runs.push(await drive(source, receiver, c.subsEach, c.name, rate, ctx.seconds));
        }
      } finally {
        await receiver.close();
      }
      results.set(c, runs);
      for (const r of runs) {
        const delivered = r.expected > 0;
        rows.push([
          r.label,
          r.offered === "max" ? `flat out (${source.maxClients} clients)` : `${r.offered}/s`,
          r.createdRate,
          delivered ? `${r.deliveries} of ${r.expected}` : "-",
          delivered ? r.rate : "-",
          delivered ? r.p50 : "-",
          delivered ? r.p99 : "-",
          delivered ? r.max : "-",
          `${r.cpuPct}%`,
        ]);
      }
      const [light, full] = runs.filter((r) => r.offered !== "max");
      if (!light || !full) continue;
      const latency = light.p50 < TARGET_P50_MS ? "met" : "**not met**";
      const rate = full.deliveries === full.expected && full.rate >= TARGET_RATE * 0.95
        ? "met"
        : "**not met**";
      verdicts.push(
        `- ${c.name}: p50 under ${TARGET_P50_MS} ms at ${light.offered} events/s ` +
          `(${latency}); ${TARGET_RATE} deliveries/s sustained with every delivery arriving ` +
          `(${rate}).`,
      );
    }
    return [
      table([
        "Case",
        "Events offered",
        "Events created/s",
        "Deliveries",
        "Deliveries/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "Server CPU",
      ], rows),
      "",
      "Targets:",
      "",
      ...verdicts,
      "",
      boundNote(results),
      "",
      "Events are order creations through `POST /api/orders` (session tokens, spread over the " +
      "accounts), or, in the last case, `order.created` events committed through the store by " +
      "`scripts/bench/event_source.ts` (50 to a commit, one per account, the service's queue " +
      "listener and delivery code in the same process), for " +
      `${ctx.seconds} s, at a fixed rate or flat out; the receiver runs in the benchmark ` +
      "process and answers 204. Latency is from the event's `createdAt` (stamped just before " +
      "its commit) to the receiver reading the request, in whole milliseconds; deliveries/s is " +
      "counted from the first to the last delivery, events created/s until the last was stored " +
      "(so a backlog of requests shows). The third case creates orders with nothing " +
      "to deliver: the ceiling the second case meets, since each of its deliveries needs an " +
      "order of its own.",
    ].join("\n");
  },
};
