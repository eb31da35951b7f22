import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { getUser, updateUser } from "../../src/store/account/users.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import { event, fakeStripe, SECRET_KEY, signed, subscription } from "./fake_stripe.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;

const WEBHOOK_SECRET = "whsec_test_secret";

function env(base: string) {
  return {
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PRICE_ID: "price_pro",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: base,
    BILLING_ENABLED: "true",
    FREE_PLAN_MONTHLY_ORDERS: "1",
    BASE_URL: "https://track.example",
  };
}

async function verified(ctx: TestContext) {
  const { user, token } = await signUp(ctx);
  await updateUser(ctx.kv, user.id, (u) => ({ ...u, emailVerified: true }));
  return { user, token };
}

async function deliver(ctx: TestContext, body: string, signature?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  headers["stripe-signature"] = signature ?? await signed(body, WEBHOOK_SECRET);
  return await call<Body>(ctx, "POST", "/api/billing/webhook", { rawBody: body, headers });
}

Deno.test("billing endpoints answer 503 before any other check when not configured", async () => {
  for (
    const [vars, open] of [
      [{}, []],
      [{ STRIPE_SECRET_KEY: SECRET_KEY }, ["portal"]],
      [{ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PRICE_ID: "p" }, ["checkout", "portal"]],
      [{ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: "w" }, ["portal", "webhook"]],
    ] as [Record<string, string>, string[]][]
  ) {
    await using ctx = await testApp(vars);
    for (const path of ["checkout", "portal", "webhook"]) {
      // No token, no body, no signature: still 503 first.
      const res = await call<Body>(ctx, "POST", `/api/billing/${path}`);
      const expected = open.includes(path) ? (path === "webhook" ? 400 : 401) : 503;
      equal(res.status, expected, `${path} with ${Object.keys(vars)}`);
      if (expected === 503) eq(res.body, { error: "Billing is not configured on this deployment" });
    }
  }
});

Deno.test("checkout: verified email required, one customer, a subscription session; portal", async () => {
  await using stripe = fakeStripe();
  await using ctx = await testApp(env(stripe.base));
  const { user, token } = await signUp(ctx, { email: "pay@example.com" });

  const unverified = await call<Body>(ctx, "POST", "/api/billing/checkout", { token });
  eq([unverified.status, unverified.body.reason], [403, "email_unverified"]);
  equal(stripe.requests.length, 0);
  const noCustomer = await call<Body>(ctx, "POST", "/api/billing/portal", { token });
  equal(noCustomer.status, 409);

  await updateUser(ctx.kv, user.id, (u) => ({ ...u, emailVerified: true }));
  const first = await call<Body>(ctx, "POST", "/api/billing/checkout", { token });
  equal(first.status, 200);
  eq(first.body, { url: "https://checkout.example/c/cs_2" });
  eq(stripe.requests.map((r) => r.path), ["/v1/customers", "/v1/checkout/sessions"]);
  eq(stripe.requests[0].params, { email: "pay@example.com", "metadata[userId]": user.id });
  const session = stripe.requests[1].params;
  eq([session.mode, session.customer, session.client_reference_id], [
    "subscription",
    "cus_1",
    user.id,
  ]);
  eq([session["line_items[0][price]"], session["line_items[0][quantity]"]], ["price_pro", "1"]);
  eq(session["subscription_data[metadata][userId]"], user.id);
  equal(session.success_url, "https://track.example/billing?checkout=success");
  equal((await getUser(ctx.kv, user.id))!.billingCustomerId, "cus_1");

  // A second checkout reuses the customer.
  await call(ctx, "POST", "/api/billing/checkout", { token });
  eq(stripe.requests.map((r) => r.path).slice(2), ["/v1/checkout/sessions"]);
  equal(stripe.requests[2].params.customer, "cus_1");

  const portal = await call<Body>(ctx, "POST", "/api/billing/portal", { token });
  eq(portal.body, { url: "https://billing.example/p/bps_4" });
  eq(stripe.requests[3].params, { customer: "cus_1", return_url: "https://track.example/billing" });
  // The user record never shows the customer id.
  equal(
    JSON.stringify((await call(ctx, "GET", "/api/auth/me", { token })).body).includes("cus_"),
    false,
  );
});

Deno.test("webhook: signed events set the plan once, in event order; usage and cap follow", async () => {
  await using stripe = fakeStripe();
  await using ctx = await testApp(env(stripe.base));
  const { user, token } = await verified(ctx);
  await call(ctx, "POST", "/api/billing/checkout", { token });
  const order = (n: number) =>
    call(ctx, "POST", "/api/orders", { token, body: { itemSummary: `o${n}` } });
  equal((await order(1)).status, 201);
  equal((await order(2)).status, 429);

  // A bad or missing signature changes nothing.
  const created = event(
    "evt_1",
    "customer.subscription.created",
    1000,
    subscription("cus_1", "active", 1_800_000_000),
  );
  for (
    const sig of [
      "t=1,v1=00",
      await signed(created, "whsec_other"),
      await signed(`${created} `, WEBHOOK_SECRET),
    ]
  ) {
    const bad = await deliver(ctx, created, sig);
    eq([bad.status, bad.body], [400, { error: "Stripe-Signature does not match the body" }]);
  }
  const stale = await deliver(
    ctx,
    created,
    await signed(created, WEBHOOK_SECRET, Date.now() - 3_600_000),
  );
  equal(stale.status, 400);
  equal((await getUser(ctx.kv, user.id))!.plan, "free");

  eq((await deliver(ctx, created)).body, { received: true, outcome: "applied" });
  const me = (await call<Body>(ctx, "GET", "/api/auth/me", { token })).body.user;
  eq([me.plan, me.subscriptionStatus, me.subscriptionPeriodEnd, me.subscriptionPriceId], [
    "pro",
    "active",
    "2027-01-15T08:00:00.000Z",
    "price_pro",
  ]);
  const usage = (await call<Body>(ctx, "GET", "/api/billing/usage", { token })).body;
  eq([usage.plan, usage.cap], ["pro", null]);
  equal((await order(3)).status, 201);
  equal((await call(ctx, "POST", "/api/billing/checkout", { token })).status, 409);

  // The same event again: applied once.
  eq((await deliver(ctx, created)).body, { received: true, outcome: "duplicate" });
  // A later update, then an older one arriving late: the older changes nothing.
  const pastDue = event(
    "evt_3",
    "customer.subscription.updated",
    1200,
    subscription("cus_1", "past_due", 1_800_000_000),
  );
  const late = event(
    "evt_2",
    "customer.subscription.updated",
    1100,
    subscription("cus_1", "trialing", 1_700_000_000),
  );
  eq((await deliver(ctx, pastDue)).body.outcome, "applied");
  eq((await deliver(ctx, late)).body.outcome, "stale");
  const after = (await getUser(ctx.kv, user.id))!;
  eq([after.plan, after.subscriptionStatus], ["free", "past_due"]);
  equal((await order(4)).status, 429);
  // Deleted wins over an update of the same second.
  const deleted = event(
    "evt_5",
    "customer.subscription.deleted",
    1300,
    subscription("cus_1", "canceled", 1_800_000_000),
  );
  const sameSecond = event(
    "evt_4",
    "customer.subscription.updated",
    1300,
    subscription("cus_1", "active", 1_800_000_000),
  );
  eq((await deliver(ctx, deleted)).body.outcome, "applied");
  eq((await deliver(ctx, sameSecond)).body.outcome, "stale");
  eq((await call<Body>(ctx, "GET", "/api/billing/usage", { token })).body.cap, 1);
});

Deno.test("webhook: only a subscription to STRIPE_PRICE_ID grants the plan; any other is recorded, grants nothing", async () => {
  await using stripe = fakeStripe();
  await using ctx = await testApp(env(stripe.base));
  const { user, token } = await verified(ctx);
  await call(ctx, "POST", "/api/billing/checkout", { token });
  const cus = (await getUser(ctx.kv, user.id))!.billingCustomerId!;
  const state = async () => {
    const u = (await getUser(ctx.kv, user.id))!;
    const usage = (await call<Body>(ctx, "GET", "/api/billing/usage", { token })).body;
    return [u.plan, u.subscriptionStatus, u.subscriptionPriceId, usage.cap];
  };
  // The attack: a cheap price of the same provider account (or another product) bought by
  // the account, whose active subscription used to grant Pro.
  const cheap = subscription(cus, "active", 1_800_000_000, "price_cheap_test");
  eq((await deliver(ctx, event("evt_c1", "customer.subscription.created", 1000, cheap))).body, {
    received: true,
    outcome: "applied",
  });
  eq(await state(), ["free", "active", "price_cheap_test", 1]);
  // The plan's price among the items grants it; its removal takes it away.
  const both = subscription(cus, "active", 1_800_000_000, ["price_addon", "price_pro"]);
  await deliver(ctx, event("evt_c2", "customer.subscription.updated", 1100, both));
  eq(await state(), ["pro", "active", "price_addon", null]);
  const swapped = subscription(cus, "active", 1_800_000_000, "price_cheap_test");
  await deliver(ctx, event("evt_c3", "customer.subscription.updated", 1200, swapped));
  eq(await state(), ["free", "active", "price_cheap_test", 1]);
});

Deno.test("webhook: without STRIPE_PRICE_ID no subscription grants the plan", async () => {
  await using stripe = fakeStripe();
  const { STRIPE_PRICE_ID: _, ...noPrice } = env(stripe.base);
  await using ctx = await testApp(noPrice);
  const { user } = await verified(ctx);
  const sub = subscription("cus_9", "active", 1_800_000_000, "price_pro", { userId: user.id });
  eq((await deliver(ctx, event("evt_n1", "customer.subscription.created", 1000, sub))).body, {
    received: true,
    outcome: "applied",
  });
  const u = (await getUser(ctx.kv, user.id))!;
  eq([u.plan, u.subscriptionStatus], ["free", "active"]);
});

Deno.test("webhook: checkout completion links a customer; unknown accounts and other events are acknowledged", async () => {
  await using stripe = fakeStripe();
  await using ctx = await testApp(env(stripe.base));
  const { user } = await verified(ctx);
  const completed = event("evt_c", "checkout.session.completed", 50, {
    id: "cs_x",
    object: "checkout.session",
    client_reference_id: user.id,
    customer: "cus_elsewhere",
    mode: "subscription",
  });
  eq((await deliver(ctx, completed)).body, { received: true, outcome: "applied" });
  equal((await getUser(ctx.kv, user.id))!.billingCustomerId, "cus_elsewhere");
  // Later subscription events find the account by that customer.
  const sub = event(
    "evt_s",
    "customer.subscription.created",
    60,
    subscription("cus_elsewhere", "trialing", 1_900_000_000),
  );
  eq((await deliver(ctx, sub)).body.outcome, "applied");
  equal((await getUser(ctx.kv, user.id))!.plan, "pro");
  const stranger = event(
    "evt_u",
    "customer.subscription.created",
    70,
    subscription("cus_nobody", "active", 1),
  );
  eq((await deliver(ctx, stranger)).body.outcome, "unknown_account");
  const other = event("evt_i", "invoice.paid", 80, { id: "in_1", object: "invoice" });
  eq((await deliver(ctx, other)).body.outcome, "ignored");
});

Deno.test("checkout: a provider that does not answer is a 502", async () => {
  const stripe = fakeStripe();
  const base = stripe.base;
  await stripe.close();
  await using ctx = await testApp(env(base));
  const { token } = await verified(ctx);
  const res = await call<Body>(ctx, "POST", "/api/billing/checkout", { token });
  eq([res.status, res.body.error], [502, "The billing provider did not answer; try again"]);
});
