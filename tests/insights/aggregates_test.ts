/**
 * The maintained insight sums against a scan of the orders: equal after concurrent creates,
 * merges, PATCH and DELETE, across a timezone change and its rebuild, and for an account that
 * predates the sums.
 */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import type { UserRecord } from "../../src/domain/account/user.ts";
import { InsightReader, type PartSum, rebuildInsights } from "../../src/store/insights/sums.ts";
import { keys } from "../../src/store/keys.ts";
import {
  deleteOrder,
  ingestOrder,
  mergeIntoOrder,
  updateOrder,
} from "../../src/store/orders/orders.ts";
import { getUser, updateUser } from "../../src/store/account/users.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

const EVERYTHING = { from: [""], to: ["\uffff"] };
const sorted = (sums: PartSum[]) => sums.map((s) => `${s.part.join(" ")}=${s.amount}`).sort();

/** The maintained sums and those of a scan of the orders, both as sorted text. */
async function bothWays(kv: Deno.Kv, userId: string) {
  const user = (await getUser(kv, userId))!;
  const scanOnly: UserRecord = { ...user, insights: { generation: "scan", upTo: "" } };
  return {
    maintained: sorted(await new InsightReader(kv, user).read(EVERYTHING)),
    scanned: sorted(await new InsightReader(kv, scanOnly).read(EVERYTHING)),
    user,
  };
}

function options(ctx: TestContext, now: number) {
  return {
    now,
    billing: ctx.config,
    events: ctx.deps.events.bus,
  };
}

const STATUSES = ["ordered", "shipped", "delivered", "canceled", "issue"] as const;

/** A burst of every kind of change at once; returns when all are done. */
async function burst(ctx: TestContext, userId: string, round: number) {
  const base = Date.parse("2025-01-31T00:00:00Z");
  const created = await Promise.all(Array.from({ length: 30 }, (_, i) =>
    ingestOrder(ctx.kv, {
      userId,
      source: "manual",
      fields: {
        itemSummary: `item ${round}-${i}`,
        // Every third shares a number: merges race with creates.
        orderNumber: `N-${round}-${i % 10}`,
        costCents: 100 * (i + 1),
        salePriceCents: i % 4 === 0 ? 150 * (i + 1) : undefined,
        // Hours around a month's end, in every zone.
        receivedAt: new Date(base + (i - 15) * 3_600_000).toISOString(),
        estimatedDelivery: "2025-02-03",
        status: STATUSES[i % 5],
      },
    }, options(ctx, base + i))));
  const ids = [...new Set(created.flatMap((r) => r.ok ? [r.order.id] : []))];
  await Promise.all(ids.flatMap((id, i) => [
    updateOrder(ctx.kv, userId, id, {
      status: STATUSES[(i + round) % 5],
      costCents: 7 * i,
      salePriceCents: i % 2 ? null : 10 * i,
      receivedAt: new Date(base + i * 86_400_000 * 3).toISOString(),
      actualDelivery: "2025-02-10",
    }, options(ctx, base + 1000 + i)),
    mergeIntoOrder(ctx.kv, {
      userId,
      orderId: id,
      source: "email",
      fields: { trackingNumber: `1Z${i}`, estimatedDelivery: "2025-02-04" },
      signals: { delivered: i % 3 === 0 },
    }, options(ctx, base + 2000 + i)),
    ...(i % 4 === 1 ? [deleteOrder(ctx.kv, userId, id)] : []),
  ]));
}

Deno.test("sums stay exact under concurrent creates, merges, PATCH and DELETE", async () => {
  await using ctx = await testApp();
  const { user } = await signUp(ctx, { timezone: "America/New_York" });
  for (let round = 0; round < 3; round++) await burst(ctx, user.id, round);
  const { maintained, scanned } = await bothWays(ctx.kv, user.id);
  equal(maintained.length > 20, true);
  eq(maintained, scanned);
});

Deno.test("a timezone change rebuilds the sums while orders change; the old generation goes", async () => {
  await using ctx = await testApp();
  const { user, token } = await signUp(ctx, { timezone: "America/New_York" });
  await burst(ctx, user.id, 0);
  const before = await bothWays(ctx.kv, user.id);
  eq(before.maintained, before.scanned);

  // The zone changes; orders keep changing before and while the rebuild runs.
  await updateUser(ctx.kv, user.id, (u) => ({ ...u, timezone: "Asia/Kathmandu" }));
  await burst(ctx, user.id, 1);
  // Meanwhile the answers are those of the new zone, exact (from a scan until rebuilt).
  const during = await call(ctx, "GET", "/api/profitability?range=all", { token });
  equal(during.status, 200);
  await Promise.all([rebuildInsights(ctx.kv, user.id), burst(ctx, user.id, 2)]);
  await ctx.deps.background.drain();
  const after = await bothWays(ctx.kv, user.id);
  equal(after.user.insights?.upTo, undefined);
  equal(after.user.insights?.generation !== before.user.insights?.generation, true);
  eq(after.maintained, after.scanned);
  // Kathmandu is UTC+05:45: the scan's days differ from New York's.
  equal(after.maintained.some((s) => !before.scanned.includes(s)), true);
  const generations = new Set<string>();
  for await (const e of ctx.kv.list({ prefix: keys.insightsRoot(user.id) })) {
    generations.add(String(e.key[3]));
  }
  eq([...generations], [after.user.insights!.generation]);

  // Through the API, the change itself starts the rebuild.
  const changed = await call(ctx, "POST", "/api/account/timezone", {
    token,
    body: { timezone: "Europe/Paris" },
  });
  equal(changed.status, 200);
  await ctx.deps.background.drain();
  const paris = await bothWays(ctx.kv, user.id);
  equal(paris.user.insights?.upTo, undefined);
  eq(paris.maintained, paris.scanned);
});

Deno.test("an account from before the sums is rebuilt on its first insight read", async () => {
  await using ctx = await testApp();
  const { user, token } = await signUp(ctx);
  // As stored before this version: no insight state.
  const { insights: _, ...legacy } = (await getUser(ctx.kv, user.id))!;
  await ctx.kv.set(keys.user(user.id), legacy);
  await burst(ctx, user.id, 0);
  const first = await call<Record<string, number>>(ctx, "GET", "/api/profitability?range=all", {
    token,
  });
  await ctx.deps.background.drain();
  const after = await bothWays(ctx.kv, user.id);
  equal(after.user.insights?.upTo, undefined);
  eq(after.maintained, after.scanned);
  eq((await call(ctx, "GET", "/api/profitability?range=all", { token })).body, first.body);
});
