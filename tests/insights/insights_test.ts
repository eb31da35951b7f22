import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;

const NOW = Date.parse("2025-03-15T12:00:00.000Z");

Deno.test("profitability answers each range from the sums; canceled and future orders left out", async () => {
  await using ctx = await testApp({}, { now: () => NOW });
  const { token } = await signUp(ctx, { timezone: "America/New_York" });
  const post = async (body: Body) =>
    (await call<Body>(ctx, "POST", "/api/orders", { token, body })).body.order;
  // 23:30 on 31 January in New York: January.
  await post({
    itemSummary: "a",
    costCents: 1000,
    salePriceCents: 1500,
    receivedAt: "2025-02-01T04:30:00Z",
  });
  await post({ itemSummary: "b", costCents: 400, receivedAt: "2025-02-10T12:00:00Z" });
  await post({
    itemSummary: "c",
    costCents: 999,
    status: "canceled",
    receivedAt: "2025-03-02T12:00:00Z",
  });
  const d = await post({ itemSummary: "d", costCents: 300, receivedAt: "2025-03-02T12:00:00Z" });
  await post({ itemSummary: "future", costCents: 5, receivedAt: "2025-03-20T12:00:00Z" });
  await post({ itemSummary: "old", costCents: 7, receivedAt: "2024-12-31T12:00:00Z" });
  await call(ctx, "POST", "/api/subscriptions", {
    token,
    body: { name: "tool", costCents: 100, frequency: "monthly", startDate: "2025-01-20" },
  });
  const get = async (query: string) =>
    await call<Body>(ctx, "GET", `/api/profitability${query}`, { token });

  const month = await get("");
  equal(month.status, 200);
  eq(month.body, {
    range: "month",
    from: "2025-03-01",
    to: "2025-03-15",
    orders: 1,
    spentCents: 300,
    revenueCents: 0,
    soldCostCents: 0,
    recurringCents: 0,
    profitCents: 0,
    byMonth: [{ month: "2025-03", spentCents: 300, revenueCents: 0, profitCents: 0 }],
  });
  const quarter = (await get("?range=quarter")).body;
  eq([
    quarter.from,
    quarter.orders,
    quarter.spentCents,
    quarter.recurringCents,
    quarter.profitCents,
  ], [
    "2025-01-01",
    3,
    1700,
    200, // due 01-20 and 02-20; 03-20 is after today
    300,
  ]);
  eq(quarter.byMonth, [
    { month: "2025-01", spentCents: 1000, revenueCents: 1500, profitCents: 400 },
    { month: "2025-02", spentCents: 400, revenueCents: 0, profitCents: -100 },
    { month: "2025-03", spentCents: 300, revenueCents: 0, profitCents: 0 },
  ]);
  const all = (await get("?range=all")).body;
  eq([all.from, all.orders, all.spentCents, all.byMonth.length], ["2024-12-31", 4, 1707, 4]);
  eq((await get("?range=year")).body.from, "2025-01-01");

  // Edits and deletions move the figures at once.
  await call(ctx, "PATCH", `/api/orders/${d.id}`, { token, body: { salePriceCents: 800 } });
  eq((await get("")).body.profitCents, 500);
  await call(ctx, "DELETE", `/api/orders/${d.id}`, { token });
  eq((await get("")).body.orders, 0);

  const bad = await get("?range=decade");
  equal(bad.status, 400);
  equal(bad.body.error.startsWith("range: "), true);
  equal((await call(ctx, "GET", "/api/profitability")).status, 401);
});

Deno.test("calendar counts received, shipped, delivered and expected days", async () => {
  await using ctx = await testApp({}, { now: () => NOW });
  const { token } = await signUp(ctx, { timezone: "America/New_York" });
  const created = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: {
      itemSummary: "a",
      receivedAt: "2025-03-01T04:00:00Z", // 28 February, 23:00 in New York
      estimatedDelivery: "2025-03-05",
    },
  });
  const id = created.body.order.id;
  // A tracking number moves it to shipped now (15 March).
  const shipped = await call<Body>(ctx, "PATCH", `/api/orders/${id}`, {
    token,
    body: { trackingNumber: "1Z999", actualDelivery: "2025-03-06" },
  });
  equal(shipped.body.order.shippedAt, new Date(NOW).toISOString());
  await call(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "b", status: "canceled", receivedAt: "2025-03-10T15:00:00Z" },
  });
  const march = await call<Body>(ctx, "GET", "/api/calendar?month=2025-03", { token });
  equal(march.status, 200);
  equal(march.body.month, "2025-03");
  equal(march.body.days.length, 31);
  const nonZero = march.body.days.filter((d: Body) =>
    d.ordered || d.shipped || d.delivered || d.expected
  );
  eq(nonZero, [
    { date: "2025-03-05", ordered: 0, shipped: 0, delivered: 0, expected: 1 },
    { date: "2025-03-06", ordered: 0, shipped: 0, delivered: 1, expected: 0 },
    { date: "2025-03-10", ordered: 1, shipped: 0, delivered: 0, expected: 0 },
    { date: "2025-03-15", ordered: 0, shipped: 1, delivered: 0, expected: 0 },
  ]);
  const feb = await call<Body>(ctx, "GET", "/api/calendar?month=2025-02", { token });
  eq(feb.body.days.at(-1), {
    date: "2025-02-28",
    ordered: 1,
    shipped: 0,
    delivered: 0,
    expected: 0,
  });
  // Default: this month.
  eq((await call<Body>(ctx, "GET", "/api/calendar", { token })).body, march.body);
  for (const month of ["2025-13", "2025-3", "march", "2025-03-01"]) {
    equal((await call(ctx, "GET", `/api/calendar?month=${month}`, { token })).status, 400, month);
  }
});

Deno.test("leaderboard: public profiles with public stats and a username only, ranked, no ids or emails", async () => {
  await using ctx = await testApp({}, { now: () => NOW });
  const make = async (
    username: string | undefined,
    publicStats: boolean,
    orders: Body[],
    publicProfile = true,
  ) => {
    const { token } = await signUp(ctx, { username });
    if (publicProfile) {
      await call(ctx, "POST", "/api/account/visibility", { token, body: { publicProfile } });
    }
    if (publicStats) {
      await call(ctx, "POST", "/api/account/public-stats", { token, body: { publicStats } });
    }
    for (const o of orders) {
      await call(ctx, "POST", "/api/orders", { token, body: { itemSummary: "x", ...o } });
    }
    return token;
  };
  const day = (d: string) => `2025-03-${d}T10:00:00Z`;
  const alice = await make("alice", true, [
    { costCents: 100, receivedAt: day("15") },
    { costCents: 100, receivedAt: day("09") }, // inside the week (from 03-09)
    { costCents: 100, receivedAt: day("16") }, // tomorrow: in no window yet
    { costCents: 5000, receivedAt: "2025-01-01T00:00:00Z" },
  ]);
  await make("bob", true, [
    { costCents: 50, receivedAt: day("14") },
    { costCents: 50, receivedAt: day("13") },
    { costCents: 1, receivedAt: day("08") }, // a day outside the week
    { costCents: 999, receivedAt: day("12"), status: "canceled" },
  ]);
  await make("carol", false, [{ receivedAt: day("15") }, { receivedAt: day("15") }, {
    receivedAt: day("15"),
  }]);
  await make(undefined, true, [{ receivedAt: day("15") }, { receivedAt: day("15") }, {
    receivedAt: day("15"),
  }]);
  // Public stats on a private profile: its spend is shown nowhere.
  const dave = await make("dave", true, [{ costCents: 99_999, receivedAt: day("15") }], false);
  await call(ctx, "POST", "/api/account/display-name", {
    token: alice,
    body: { displayName: "Alice A" },
  });

  const get = async (q = "") =>
    await call<Body>(ctx, "GET", `/api/leaderboard${q}`, { token: alice });
  eq((await get()).body, {
    timeframe: "week",
    entries: [
      { rank: 1, username: "alice", displayName: "Alice A", orders: 2, valueCents: 200 },
      { rank: 2, username: "bob", orders: 2, valueCents: 100 },
    ],
  });
  eq((await get("?timeframe=month")).body.entries.map((e: Body) => [e.username, e.orders]), [
    ["bob", 3],
    ["alice", 2],
  ]);
  eq(
    (await get("?timeframe=all")).body.entries.map((
      e: Body,
    ) => [e.username, e.orders, e.valueCents]),
    [
      ["alice", 4, 5300],
      ["bob", 3, 101],
    ],
  );
  // Turning public stats off takes the account off at once.
  await call(ctx, "POST", "/api/account/public-stats", {
    token: alice,
    body: { publicStats: false },
  });
  eq((await get()).body.entries.map((e: Body) => e.username), ["bob"]);
  // Making the profile public lists dave; private again, off at once.
  const visibility = (publicProfile: boolean) =>
    call(ctx, "POST", "/api/account/visibility", { token: dave, body: { publicProfile } });
  await visibility(true);
  eq((await get()).body.entries.map((e: Body) => e.username), ["bob", "dave"]);
  await visibility(false);
  eq((await get()).body.entries.map((e: Body) => e.username), ["bob"]);
  // An index entry written under the older rule (public stats alone) is not shown either.
  const daveId = (await call<Body>(ctx, "GET", "/api/auth/me", { token: dave })).body.user.id;
  await ctx.kv.set(keys.leaderboardMember(daveId), true);
  eq((await get()).body.entries.map((e: Body) => e.username), ["bob"]);
  equal((await get("?timeframe=year")).status, 400);
  equal(JSON.stringify((await get("?timeframe=all")).body).includes("@"), false);
});
