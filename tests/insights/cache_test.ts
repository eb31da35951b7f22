/**
 * The insight sums cache: a repeated profitability or calendar read is answered from memory
 * while the workspace's order revision stands, and any order change, made by this process or
 * another one on the same KV, is in the next answer.
 */
import { deepStrictEqual as eq, equal, notDeepStrictEqual as ne } from "node:assert/strict";
import { createApp } from "../../src/app.ts";
import { testConfig } from "../../src/config.ts";
import { createDeps } from "../../src/deps.ts";
import { createLogger } from "../../src/lib/log.ts";
import { InsightSumCache } from "../../src/store/insights/cache.ts";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;

const NOW = Date.parse("2025-03-15T12:00:00.000Z");

Deno.test("insight answers come from memory until an order changes, in any process", async () => {
  await using ctx = await testApp({}, { now: () => NOW });
  // A second process on the same KV: its own dependencies, so its own caches.
  const other = createDeps({
    kv: ctx.kv,
    config: testConfig({}),
    persistence: "memory",
    log: createLogger("error", () => {}),
    now: () => NOW,
  });
  const otherApp = { app: createApp(other) };
  const { user, token } = await signUp(ctx, { timezone: "America/New_York" });
  const create = async (via: { app: typeof ctx.app }, body: Body) =>
    (await call<Body>(via, "POST", "/api/orders", { token, body })).body.order;
  const profit = async () =>
    (await call<Body>(ctx, "GET", "/api/profitability?range=all", { token })).body;
  const calendar = async () =>
    (await call<Body>(ctx, "GET", "/api/calendar?month=2025-03", { token })).body;

  const first = await create(ctx, {
    itemSummary: "a",
    costCents: 1000,
    salePriceCents: 1500,
    receivedAt: "2025-03-02T12:00:00Z",
  });
  const before = await profit();
  equal(before.orders, 1);
  equal(before.profitCents, 500);
  const calendarBefore = await calendar();
  equal(ctx.deps.insightSums.size > 0, true);

  // A counter moved behind the cache's back (no order revision): the cached sums still answer,
  // which shows the second read did not go to the counters.
  const generation = (await ctx.kv.get<Body>(keys.user(user.id))).value!.insights.generation;
  const spent = keys.insight(user.id, generation, ["m", "2025-03", "spentCents"]);
  await ctx.kv.atomic().sum(spent, 1n).commit();
  eq(await profit(), before);
  await ctx.kv.atomic().sum(spent, 0xffffffffffffffffn).commit(); // back (wraps to -1)

  // The other process creates an order: this one's next answers include it.
  await create(otherApp, { itemSummary: "b", costCents: 200, receivedAt: "2025-03-03T12:00:00Z" });
  const afterCreate = await profit();
  equal(afterCreate.orders, 2);
  equal(afterCreate.spentCents, 1200);
  const calendarAfter = await calendar();
  ne(calendarAfter, calendarBefore);
  eq(
    afterCreate,
    (await call<Body>(otherApp, "GET", "/api/profitability?range=all", { token }))
      .body,
  );

  // This process changes a sale price, the other deletes: both show at once, here and there.
  await call(ctx, "PATCH", `/api/orders/${first.id}`, { token, body: { salePriceCents: 2500 } });
  equal((await profit()).profitCents, 1500); // revenue less the cost of what sold
  await call(otherApp, "DELETE", `/api/orders/${first.id}`, { token });
  const afterDelete = await profit();
  eq([afterDelete.orders, afterDelete.spentCents, afterDelete.revenueCents], [1, 200, 0]);

  // Recurring costs are read each time, not from the sums.
  await call(otherApp, "POST", "/api/subscriptions", {
    token,
    body: { name: "tool", costCents: 100, frequency: "monthly", startDate: "2025-03-10" },
  });
  equal((await profit()).recurringCents, 100);

  // Deleting the account forgets its sums here.
  await call(ctx, "DELETE", "/api/account", { token, body: { confirmEmail: user.email } });
  equal(ctx.deps.insightSums.size, 0);
});

Deno.test("the cache keeps at most its bound, least recently used leaving first", async () => {
  await using ctx = await testApp();
  const cache = new InsightSumCache(ctx.kv, 2);
  const sums = (n: number) => () => Promise.resolve([{ part: ["m", String(n)], amount: n }]);
  eq(await cache.sums("u1", "a", null, sums(1)), [{ part: ["m", "1"], amount: 1 }]);
  await cache.sums("u1", "b", null, sums(2));
  // "a" used again: "b" is now the least recently used.
  eq(await cache.sums("u1", "a", null, sums(9)), [{ part: ["m", "1"], amount: 1 }]);
  await cache.sums("u2", "a", null, sums(3));
  equal(cache.size, 2);
  eq(await cache.sums("u1", "b", null, sums(4)), [{ part: ["m", "4"], amount: 4 }]);
  // Another revision reads again.
  eq(await cache.sums("u1", "b", "00000000000000010000", sums(5)), [{
    part: ["m", "5"],
    amount: 5,
  }]);
  cache.drop("u1");
  equal(cache.size, 1);
});
