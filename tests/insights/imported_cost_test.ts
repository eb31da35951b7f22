/**
 * Imported orders count: the total an email or chat post printed in the workspace currency
 * becomes the order's cost (and profit sees it); another currency leaves the cost unset; a
 * cost the user set is never overwritten; email orders are dated by the message's own date.
 */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { call, signUp, testApp } from "../helpers.ts";
import { fixture } from "../intake/helpers.ts";
import { checkout, makeBot, postTo } from "../chat/helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

Deno.test("settings: the currency defaults from the account's time zone and can be changed", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx, { timezone: "Europe/Berlin" });
  const read = await call<Body>(ctx, "POST", "/api/settings", { token, body: {} });
  eq([read.status, read.body.settings.currency], [200, "EUR"]);
  const set = await call<Body>(ctx, "POST", "/api/settings", { token, body: { currency: "GBP" } });
  eq([set.status, set.body.settings.currency], [200, "GBP"]);
  const bad = await call<Body>(ctx, "POST", "/api/settings", { token, body: { currency: "XYZ" } });
  equal(bad.status, 400);
  equal(String(bad.body.error).startsWith("currency: "), true, bad.body.error);
});

Deno.test("an email order's total in the workspace currency is its cost, dated by the message", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const first = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("nike/order_confirmation.eml") },
  });
  equal(first.status, 202);
  const order = (await call<Body>(ctx, "GET", `/api/orders/${first.body.orderId}`, { token }))
    .body.order;
  eq([order.total, order.costCents], ["$125.21", 12521]);
  equal(order.receivedAt, "2026-03-02T18:22:31.000Z", "the message's Date, not the reading's");
  const profit = await call<Body>(ctx, "GET", "/api/profitability?range=all", { token });
  equal(profit.status, 200);
  equal(profit.body.spentCents, 12521);
});

Deno.test("a total in another currency leaves the cost unset; a user's cost is kept", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  await call(ctx, "POST", "/api/settings", { token, body: { currency: "EUR" } });
  const first = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("nike/order_confirmation.eml") },
  });
  const path = `/api/orders/${first.body.orderId}`;
  const order = (await call<Body>(ctx, "GET", path, { token })).body.order;
  eq([order.total, order.costCents], ["$125.21", undefined]);

  // Back to USD: a later message fills the cost in, unless the user set one.
  await call(ctx, "POST", "/api/settings", { token, body: { currency: "USD" } });
  await call(ctx, "PATCH", path, { token, body: { costCents: 9900 } });
  await call(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("nike/shipped.eml") },
  });
  equal((await call<Body>(ctx, "GET", path, { token })).body.order.costCents, 9900);
});

Deno.test("a chat checkout's price in the workspace currency is its cost", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const res = await postTo(ctx, bot, checkout());
  equal(res.status, 202);
  const list = await call<Body>(ctx, "GET", "/api/orders", { token });
  eq([list.body.items[0].price, list.body.items[0].costCents], ["$115.00", 11500]);
});
