/**
 * Webhook fan-out: orders created through `POST /api/orders` on the running service, delivered
 * by its queue listener to a receiver in this process. Latency is from the event's commit
 * (`createdAt`, stamped just before the commit) to the receiver reading the request.
 */
import { SecretBox } from "../../../src/lib/secret_box.ts";
import { issueSession } from "../../../src/store/credentials.ts";
import { createUser } from "../../../src/store/users.ts";
import { createSubscription } from "../../../src/store/webhook_subscriptions.ts";
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

/** Accounts with subscriptions to the receiver, written before the service starts. */
function seed(
  box: SecretBox,
  receiver: Receiver,
  accounts: number,
  subsEach: number,
  tokens: string[],
) {
  return async (kv: Deno.Kv) => {
    for (let a = 0; a < accounts; a++) {
      const created = await createUser(kv, { email: `bench${a}@example.com` });
      if (!created.ok) throw new Error("seed user not created");
      tokens.push(await issueSession(kv, created.user.id));
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
  ordersPerSecond: number | "max";
  orders: number;
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

/**
 * Creates orders for `seconds`: at a fixed rate spread over the accounts, or as fast as 32
 * concurrent clients can ("max"). Then waits for every delivery and reads the receiver.
 */
async function drive(
  ctx: BenchContext,
  service: BenchServer,
  receiver: Receiver,
  tokens: string[],
  subsEach: number,
  label: string,
  ordersPerSecond: number | "max",
  seconds = ctx.seconds,
): Promise<Run> {
  receiver.latencies = [];
  receiver.first = receiver.last = 0;
  let accepted = 0;
  let sent = 0;
  const post = async () => {
    const token = tokens[sent++ % tokens.length];
    const res = await fetch(`${service.url}/api/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ itemSummary: `Bench item ${sent}` }),
    });
    await res.body?.cancel();
    if (res.status === 201) accepted++;
  };
  const cpuBefore = await cpuSeconds(service.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  if (ordersPerSecond === "max") {
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (performance.now() < until) await post();
    }));
  } else {
    const inFlight = new Set<Promise<void>>();
    while (performance.now() < until) {
      const due = Math.floor((performance.now() - started) / 1000 * ordersPerSecond);
      while (sent < due) {
        const p = post().finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(inFlight);
  }
  const expected = accepted * subsEach;
  const drainUntil = performance.now() + DRAIN_MS;
  while (receiver.latencies.length < expected && performance.now() < drainUntil) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpuPct = Math.round((await cpuSeconds(service.pid) - cpuBefore) / elapsed * 100);
  const sorted = receiver.latencies.toSorted((a, b) => a - b);
  const spanS = Math.max(receiver.last - receiver.first, 1) / 1000;
  return {
    label,
    ordersPerSecond,
    orders: accepted,
    deliveries: sorted.length,
    expected,
    rate: Math.round(sorted.length / spanS),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
    cpuPct,
  };
}

async function setup(ctx: BenchContext, accounts: number, subsEach: number) {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const receiver = startReceiver();
  const tokens: string[] = [];
  const service = await ctx.startService({
    env: { ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1", SECRETS_KEY: key.toBase64() },
    seed: seed(new SecretBox(key), receiver, accounts, subsEach, tokens),
  });
  return { receiver, tokens, service };
}

/** The cases of the issue, each at a light rate, at 1,000 deliveries/s and flat out. */
const CASES = [
  { accounts: 1, subsEach: 25, name: "1 account x 25 subscriptions", rates: [4, 40, "max"] },
  {
    accounts: 1000,
    subsEach: 1,
    name: "1,000 accounts x 1 subscription",
    rates: [100, 1000, "max"],
  },
  // The ceiling the second case runs into: creating orders, with nothing to deliver.
  { accounts: 1000, subsEach: 0, name: "1,000 accounts, no subscriptions", rates: ["max"] },
] as const;

export const webhooks: Scenario = {
  name: "webhooks",
  title: "Webhook fan-out: order created to receiver",
  async run(ctx: BenchContext): Promise<string> {
    const rows: (string | number)[][] = [];
    const verdicts: string[] = [];
    for (const c of CASES) {
      const { receiver, tokens, service } = await setup(ctx, c.accounts, c.subsEach);
      const runs: Run[] = [];
      try {
        // One second at the light rate first, unmeasured (JIT warm-up, first connections).
        await drive(ctx, service, receiver, tokens, c.subsEach, c.name, c.rates[0], 1);
        for (const rate of c.rates) {
          runs.push(await drive(ctx, service, receiver, tokens, c.subsEach, c.name, rate));
        }
      } finally {
        await receiver.close();
      }
      for (const r of runs) {
        const delivered = r.expected > 0;
        rows.push([
          r.label,
          r.ordersPerSecond === "max" ? "as fast as 32 clients go" : `${r.ordersPerSecond}/s`,
          Math.round(r.orders / ctx.seconds),
          delivered ? `${r.deliveries} of ${r.expected}` : "-",
          delivered ? r.rate : "-",
          delivered ? r.p50 : "-",
          delivered ? r.p99 : "-",
          delivered ? r.max : "-",
          `${r.cpuPct}%`,
        ]);
      }
      const [light, full] = runs.filter((r) => r.ordersPerSecond !== "max");
      if (!light || !full) continue;
      const latency = light.p50 < TARGET_P50_MS ? "met" : "**not met**";
      const rate = full.deliveries === full.expected && full.rate >= TARGET_RATE * 0.95
        ? "met"
        : "**not met**";
      verdicts.push(
        `- ${c.name}: p50 under ${TARGET_P50_MS} ms at ${light.ordersPerSecond} orders/s ` +
          `(${latency}); ${TARGET_RATE} deliveries/s sustained with every delivery arriving ` +
          `(${rate}).`,
      );
    }
    return [
      table([
        "Case",
        "Orders offered",
        "Orders created/s",
        "Deliveries",
        "Deliveries/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "Service CPU",
      ], rows),
      "",
      "Targets:",
      "",
      ...verdicts,
      "",
      "Orders are created through `POST /api/orders` (session tokens, spread over the accounts) " +
      `for ${ctx.seconds} s, at a fixed rate or by 32 clients in a loop; the receiver runs in the ` +
      "benchmark process and answers 204. Latency is from the event's `createdAt` (stamped just " +
      "before the order's commit) to the receiver reading the request, in whole milliseconds; " +
      "deliveries/s is counted from the first to the last delivery. The last row creates orders " +
      "with nothing to deliver: the ceiling the second case meets, since each of its deliveries " +
      "needs an order of its own.",
    ].join("\n");
  },
};
