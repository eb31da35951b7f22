import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { listEvents } from "../../src/events/emit.ts";
import { keys } from "../../src/store/keys.ts";
import { readCounter } from "../../src/store/kv.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;
const BILLING = { BILLING_ENABLED: "true", FREE_PLAN_MONTHLY_ORDERS: "3" };
const LIMIT_ERROR =
  "Free plan limit reached: 3 new orders per month. Upgrade or wait for next month.";

const post = (ctx: TestContext, token: string, body: Body) =>
  call<Body>(ctx, "POST", "/api/orders", { token, body });

Deno.test("the free plan caps new orders per month; merges are never blocked", async () => {
  let now = Date.parse("2025-02-28T23:00:00.000Z"); // 18:00 in New York
  await using ctx = await testApp(BILLING, { now: () => now });
  const { token, user } = await signUp(ctx, { timezone: "America/New_York" });
  for (let i = 0; i < 3; i++) {
    equal((await post(ctx, token, { itemSummary: `o${i}`, orderNumber: `P-${i}` })).status, 201);
  }
  const blocked = await post(ctx, token, { itemSummary: "over", orderNumber: "P-9" });
  eq([blocked.status, blocked.body], [429, {
    error: LIMIT_ERROR,
    reason: "plan_limit_reached",
    cap: 3,
    used: 3,
  }]);
  const merged = await post(ctx, token, { itemSummary: "again", orderNumber: "#p-1" });
  eq([merged.status, merged.body.merged], [200, true]);
  // Deleting an order does not give its place back.
  const id = merged.body.order.id;
  equal((await call(ctx, "DELETE", `/api/orders/${id}`, { token })).status, 200);
  equal((await post(ctx, token, { itemSummary: "still over" })).status, 429);
  eq((await call(ctx, "GET", "/api/billing/usage", { token })).body, {
    plan: "free",
    used: 3,
    cap: 3,
    resetsAt: "2025-03-01T05:00:00.000Z",
    billingEnabled: true,
  });
  equal((await listEvents(ctx.kv, user.id)).length, 4);
  equal(await readCounter(ctx.kv, keys.orderCount(user.id)), 2);

  // 2025-03-01T03:00Z is still February in New York; 05:00Z is March.
  now = Date.parse("2025-03-01T03:00:00.000Z");
  equal((await post(ctx, token, { itemSummary: "feb" })).status, 429);
  now = Date.parse("2025-03-01T05:00:00.000Z");
  equal((await post(ctx, token, { itemSummary: "march" })).status, 201);
  eq((await call(ctx, "GET", "/api/billing/usage", { token })).body, {
    plan: "free",
    used: 1,
    cap: 3,
    resetsAt: "2025-04-01T04:00:00.000Z",
    billingEnabled: true,
  });
});

Deno.test("the cap holds under concurrency: 120 parallel creates at a cap of 100", async () => {
  await using ctx = await testApp({ BILLING_ENABLED: "true", FREE_PLAN_MONTHLY_ORDERS: "100" });
  const { token, user } = await signUp(ctx);
  const results = await Promise.all(
    Array.from({ length: 120 }, (_, i) => post(ctx, token, { itemSummary: `item ${i}` })),
  );
  equal(results.filter((r) => r.status === 201).length, 100);
  const rejected = results.filter((r) => r.status === 429);
  equal(rejected.length, 20);
  for (const r of rejected) {
    eq({ ...r.body, error: undefined }, {
      error: undefined,
      reason: "plan_limit_reached",
      cap: 100,
      used: 100,
    });
  }
  equal(await readCounter(ctx.kv, keys.orderCount(user.id)), 100);
  equal((await listEvents(ctx.kv, user.id)).length, 100);
  equal((await call<Body>(ctx, "GET", "/api/orders", { token })).body.total, 100);
});

Deno.test("paid plans and deployments without billing have no cap", async () => {
  await using ctx = await testApp({ BILLING_ENABLED: "true", FREE_PLAN_MONTHLY_ORDERS: "0" });
  const free = await signUp(ctx);
  const paid = await signUp(ctx);
  await ctx.kv.set(keys.user(paid.user.id), { ...paid.user, plan: "pro" });
  equal((await post(ctx, free.token, { itemSummary: "x" })).status, 429);
  equal((await post(ctx, paid.token, { itemSummary: "x" })).status, 201);
  equal((await post(ctx, paid.token, { itemSummary: "y" })).status, 201);
  const usage = await call<Body>(ctx, "GET", "/api/billing/usage", { token: paid.token });
  eq({ ...usage.body, resetsAt: undefined }, {
    plan: "pro",
    used: 2,
    cap: null,
    resetsAt: undefined,
    billingEnabled: true,
  });

  await using off = await testApp({ FREE_PLAN_MONTHLY_ORDERS: "0" });
  const { token } = await signUp(off);
  equal((await post(off, token, { itemSummary: "x" })).status, 201);
  const offUsage = await call<Body>(off, "GET", "/api/billing/usage", { token });
  eq({ ...offUsage.body, resetsAt: undefined }, {
    plan: "free",
    used: 1,
    cap: null,
    resetsAt: undefined,
    billingEnabled: false,
  });
});
