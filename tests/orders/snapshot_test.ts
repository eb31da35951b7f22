import { deepStrictEqual as eq } from "node:assert/strict";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;

Deno.test("the snapshot and the export carry the workspace's orders; analytics counts them", async () => {
  await using ctx = await testApp({}, { now: () => Date.parse("2025-01-20T00:00:00Z") });
  const { token } = await signUp(ctx);
  const other = await signUp(ctx);
  const post = async (body: Body) =>
    (await call<Body>(ctx, "POST", "/api/orders", { token, body })).body.order;
  const a = await post({ itemSummary: "a", costCents: 250, receivedAt: "2025-01-01T00:00:00Z" });
  const b = await post({
    itemSummary: "b",
    trackingNumber: "1Z",
    receivedAt: "2025-01-02T00:00:00Z",
  });
  const c = await post({
    itemSummary: "c",
    status: "issue",
    costCents: 50,
    receivedAt: "2025-01-03T00:00:00Z",
  });
  await call(ctx, "POST", "/api/orders", { token: other.token, body: { itemSummary: "theirs" } });

  const state = await call<Body>(ctx, "GET", "/api/state", { token });
  eq(state.status, 200);
  eq(state.body.orders, [c, b, a]);
  eq(state.body.analytics, {
    totalOrders: 3,
    byStatus: { ordered: 1, shipped: 1, delivered: 0, canceled: 0, issue: 1 },
    totalCostCents: 300,
    profitability: {
      range: "month",
      from: "2025-01-01",
      to: "2025-01-20",
      orders: 3,
      spentCents: 300,
      revenueCents: 0,
      soldCostCents: 0,
      recurringCents: 0,
      profitCents: 0,
      byMonth: [{ month: "2025-01", spentCents: 300, revenueCents: 0, profitCents: 0 }],
    },
  });
  const me = await call<Body>(ctx, "GET", "/api/auth/me", { token });
  eq(me.body.state.orders, [c, b, a]);

  const exported = await call<Body>(ctx, "GET", "/api/account/export", { token });
  eq(exported.status, 200);
  eq(exported.body.orders, [c, b, a]);
});
