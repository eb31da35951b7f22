/**
 * The upgrade path from the release of 2026-11-21 (0.1.0, ef26fad): a KV file written the way
 * it stored data (scripts/legacy_fixture.ts), the start-up migrations of today's release run
 * on it (the function main.ts calls runs `migrateLayout`), then today's app is used on it as a
 * user would: a carrier answer lands on an old order, a shipping email merges into an old
 * order by its tracking number, the leaderboard lists the account with public stats, the
 * calendar counts old shipments, profitability equals a recount of the orders.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import { localDate } from "../../src/lib/timezone.ts";
import type { Order } from "../../src/domain/orders/order.ts";
import { createLogger } from "../../src/lib/log.ts";
import { keys } from "../../src/store/keys.ts";
import { LAYOUT_VERSION } from "../../src/store/migrations/index.ts";
import { migrateLayout } from "../../src/store/migrations/run.ts";
import {
  LEGACY_ACCOUNTS,
  legacyOrder,
  MAILED_TRACKING,
  ORDERS_PER_ACCOUNT,
  SHIPPED_EVENT_AT,
  writeLegacyStore,
} from "../../scripts/legacy_fixture.ts";
import { journey, upsAnswer } from "../tracking/answers.ts";
import { NO_PACING, startFakes } from "../tracking/fakes.ts";
import { fixture } from "../intake/helpers.ts";
import { call } from "../helpers.ts";

const legacyOrders = (a: number) =>
  Array.from({ length: ORDERS_PER_ACCOUNT }, (_, i) => legacyOrder(a, i));

async function count(kv: Deno.Kv, prefix: Deno.KvKey) {
  let n = 0;
  for await (const _ of kv.list({ prefix })) n++;
  return n;
}

async function allOrders(app: Parameters<typeof call>[0], token: string) {
  const out: Order[] = [];
  for (let offset = 0;; offset += 100) {
    const page = await call<{ items: Order[]; hasMore: boolean }>(
      app,
      "GET",
      `/api/orders?limit=100&offset=${offset}`,
      { token },
    );
    out.push(...page.body.items);
    if (!page.body.hasMore) return out;
  }
}

Deno.test("a 0.1.0 store upgraded at start: every feature sees the old orders", async () => {
  const dir = await Deno.makeTempDir();
  const fakes = startFakes();
  const kv = await Deno.openKv(`${dir}/kv.sqlite`);
  const logs: string[] = [];
  const config = testConfig({ LOG_LEVEL: "debug", ...fakes.env });
  const deps = createDeps({
    kv,
    config,
    persistence: "sqlite",
    log: createLogger("debug", (line) => logs.push(line)),
    carriers: NO_PACING,
  });
  try {
    await writeLegacyStore(kv);
    const [alice, bob] = LEGACY_ACCOUNTS;
    // As 0.1.0 left it: no tracking index, no leaderboard list, no shippedAt.
    equal(await count(kv, keys.trackingIndex(alice.id)), 0);
    equal(await count(kv, keys.leaderboardMembers()), 0);

    const outcome = await migrateLayout(kv, { log: deps.log, now: Date.now, release: "test" });
    ok(outcome.ok);
    eq([outcome.version, outcome.ran.map((m) => m.id)], [LAYOUT_VERSION, [
      "tracking-index",
      "leaderboard-members",
      "shipped-at",
      "search-index",
    ]]);
    const tracked = [...legacyOrders(0), ...legacyOrders(1)].filter((o) => o.trackingNumber);
    const shipped = [...legacyOrders(0), ...legacyOrders(1)]
      .filter((o) => o.status === "shipped" || o.status === "delivered");
    eq(outcome.ran.map((m) => m.counts), [
      { orders: 2 * ORDERS_PER_ACCOUNT, indexed: tracked.length, added: tracked.length },
      { accounts: 2, listed: 1, added: 1 },
      { orders: 2 * ORDERS_PER_ACCOUNT, written: shipped.length },
      { orders: 2 * ORDERS_PER_ACCOUNT, added: 2 * ORDERS_PER_ACCOUNT },
    ]);
    const done = logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "migration done");
    eq(done.map((l) => [l.migration, l.version, typeof l.ms]), [
      ["tracking-index", 1, "number"],
      ["leaderboard-members", 2, "number"],
      ["shipped-at", 3, "number"],
      ["search-index", 4, "number"],
    ]);
    // A second start finds nothing to do.
    const again = await migrateLayout(kv, { log: deps.log, now: Date.now, release: "test" });
    ok(again.ok);
    eq(again.ran, []);

    const app = createApp(deps);
    const token = alice.session;
    const health = await call({ app }, "GET", "/api/healthz");
    eq(health.body.layout, { version: LAYOUT_VERSION, pending: 0 });

    // shippedAt from the order's history (its order.shipped event), else its last change.
    const get = async (id: string) =>
      (await call<{ order: Order }>({ app }, "GET", `/api/orders/${id}`, { token })).body.order;
    equal((await get(legacyOrder(0, 2).id)).shippedAt, SHIPPED_EVENT_AT);
    equal((await get(legacyOrder(0, 5).id)).shippedAt, legacyOrder(0, 5).updatedAt);

    // `q` finds the old orders by their order number (the search index's migration).
    const number = legacyOrder(0, 3).orderNumber!;
    const found = await call({ app }, "GET", `/api/orders?q=${encodeURIComponent(number)}`, {
      token,
    });
    eq((found.body.items as Order[]).map((o) => o.id), [legacyOrder(0, 3).id]);

    // A carrier answer "delivered" lands on the old order with that number.
    const target = legacyOrders(0).find((o) =>
      o.status === "shipped" && o.trackingNumber &&
      o.trackingNumber !== MAILED_TRACKING
    )!;
    const n = target.trackingNumber!;
    fakes.ups.parcels.set(
      n,
      upsAnswer(n, journey("2026-11-20T08:00:00Z", ["label", "transit", "out", "delivered"], 6)),
    );
    const live = await call({ app }, "GET", `/api/carrier-status?trackingNumber=${n}`, { token });
    equal(live.status, 200);
    equal((await get(target.id)).status, "delivered");

    // A shipping email without an order number merges by tracking number into the old order.
    const mailed = legacyOrders(0).find((o) => o.trackingNumber === MAILED_TRACKING)!;
    const mail = await call({ app }, "POST", "/api/email/import", {
      token,
      body: { raw: fixture("supreme/shipped_no_order_number.eml") },
    });
    eq([mail.status, mail.body.merged, mail.body.orderId], [202, true, mailed.id]);
    equal((await call({ app }, "GET", "/api/orders", { token })).body.total, ORDERS_PER_ACCOUNT);

    // The leaderboard lists the account with public stats, not the other.
    const board = await call<{ entries: { username: string; orders: number }[] }>(
      { app },
      "GET",
      "/api/leaderboard?timeframe=all",
      { token: bob.session },
    );
    equal(board.status, 200);
    eq(board.body.entries.map((e) => e.username), [alice.username]);
    const orders = await allOrders({ app }, token);
    equal(board.body.entries[0].orders, orders.filter((o) => o.status !== "canceled").length);

    // Profitability equals a recount, read from a scan and again from the rebuilt sums.
    const live1 = orders.filter((o) => o.status !== "canceled");
    const recount = {
      orders: live1.length,
      spentCents: live1.reduce((s, o) => s + (o.costCents ?? 0), 0),
      revenueCents: live1.reduce((s, o) => s + (o.salePriceCents ?? 0), 0),
      soldCostCents: live1.filter((o) => o.salePriceCents !== undefined)
        .reduce((s, o) => s + (o.costCents ?? 0), 0),
    };
    for (const read of ["scan", "sums"]) {
      const profit = await call({ app }, "GET", "/api/profitability?range=all", { token });
      equal(profit.status, 200, read);
      const b = profit.body;
      eq(
        {
          orders: b.orders,
          spentCents: b.spentCents,
          revenueCents: b.revenueCents,
          soldCostCents: b.soldCostCents,
        },
        recount,
        read,
      );
      await deps.background.drain();
    }
    equal(
      (await kv.get<{ insights?: { upTo?: string } }>(keys.user(alice.id))).value?.insights
        ?.upTo,
      undefined,
    );

    // The calendar counts old shipments on the day they shipped (account timezone).
    const month = "2026-09";
    const calendar = await call<{ days: { shipped: number; ordered: number }[] }>(
      { app },
      "GET",
      `/api/calendar?month=${month}`,
      { token },
    );
    const shippedThere = orders.filter((o) =>
      o.shippedAt && localDate(Date.parse(o.shippedAt), alice.timezone).startsWith(month)
    ).length;
    ok(shippedThere > 30);
    equal(
      calendar.body.days.reduce((s, d) =>
        s + d.shipped, 0),
      shippedThere,
    );
  } finally {
    await drainDeps(deps);
    kv.close();
    await fakes.close();
    await Deno.remove(dir, { recursive: true });
  }
});
