import { deepStrictEqual as eq, equal, match } from "node:assert/strict";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import { message, orderMail } from "./helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

const KEY = "inbound-key-0123456789";
const ENV = { INBOUND_MAIL_KEY: KEY, MAIL_DOMAIN: "in.example.com" };

async function forwardingAddress(ctx: TestContext, token: string, body: Body = {}) {
  const res = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding", ...body },
  });
  equal(res.status, 201);
  return res.body.source as Body;
}

const inbound = (ctx: TestContext, body: unknown, key: string | null = KEY, query = "") =>
  call<Body>(ctx, "POST", `/api/inbound/mail${query}`, {
    body,
    headers: key === null ? {} : { "x-service-inbound-key": key },
  });

Deno.test("inbound mail: 503 without INBOUND_MAIL_KEY, before anything else", async () => {
  await using ctx = await testApp();
  const res = await inbound(ctx, {}, "anything");
  eq([res.status, res.body], [503, {
    error: "Inbound mail is not configured on this deployment",
  }]);
});

Deno.test("inbound mail: the operator key in the header or ?key=, else 401 before the body is read", async () => {
  await using ctx = await testApp(ENV);
  const { token } = await signUp(ctx);
  const source = await forwardingAddress(ctx, token);
  for (const key of [null, "", "wrong", `${KEY}x`, KEY.slice(0, -1)]) {
    const res = await inbound(ctx, {}, key);
    eq([res.status, res.body], [401, { error: "Unauthorized" }], String(key));
  }
  const wrongQuery = await inbound(ctx, {}, null, "?key=nope");
  equal(wrongQuery.status, 401);
  // A bearer token is no inbound key.
  const bearer = await call<Body>(ctx, "POST", "/api/inbound/mail", { token, body: {} });
  equal(bearer.status, 401);

  const byQuery = await inbound(
    ctx,
    { to: source.forwardingAddress, raw: orderMail(5101) },
    null,
    `?key=${KEY}`,
  );
  equal(byQuery.status, 202);
  const missing = await inbound(ctx, { raw: orderMail(5102) });
  eq([missing.status, missing.body], [400, { error: "to is required" }]);
  const empty = await inbound(ctx, { to: source.forwardingAddress, raw: "" });
  eq([empty.status, empty.body], [400, { error: "raw: must not be empty" }]);
});

Deno.test("inbound mail: the forwarding address leads to its source; unknown, foreign and inactive addresses are 404", async () => {
  await using ctx = await testApp(ENV);
  const { token } = await signUp(ctx);
  const source = await forwardingAddress(ctx, token);
  const address: string = source.forwardingAddress;
  const slug = address.split("@")[0];

  const created = await inbound(ctx, { to: address, raw: orderMail(5201) });
  equal(created.status, 202);
  eq(Object.keys(created.body).sort(), ["logId", "merged", "ok", "orderId"]);
  equal(created.body.merged, false);
  const again = await inbound(ctx, { to: address, raw: orderMail(5201) });
  eq([again.status, again.body.duplicate], [200, true]);
  // Other spellings of the same address.
  const named = await inbound(ctx, { to: `Orders <${slug}@IN.example.com>`, raw: orderMail(5202) });
  equal(named.status, 202);
  const tagged = await inbound(ctx, { to: `${slug}+shop@in.example.com`, raw: orderMail(5202) });
  eq([tagged.status, tagged.body.duplicate], [200, true]);
  const inbox = await call<Body>(ctx, "GET", `/api/inbox?sourceId=${source.id}`, { token });
  eq(inbox.body.items.map((e: Body) => e.outcome), [
    "duplicate",
    "created",
    "duplicate",
    "created",
  ]);

  const notFound = { error: "Forwarding address not found" };
  for (const to of [`nobody@in.example.com`, `${slug}@other.example.com`, slug, ""]) {
    const res = await inbound(ctx, { to, raw: orderMail(5203) });
    eq([res.status, res.body], [404, notFound], to);
  }
  await call(ctx, "PATCH", `/api/email-sources/${source.id}`, { token, body: { active: false } });
  const inactive = await inbound(ctx, { to: address, raw: orderMail(5204) });
  eq([inactive.status, inactive.body], [404, notFound]);
  await call(ctx, "PATCH", `/api/email-sources/${source.id}`, { token, body: { active: true } });
  await call(ctx, "DELETE", `/api/email-sources/${source.id}`, { token });
  const deleted = await inbound(ctx, { to: address, raw: orderMail(5205) });
  eq([deleted.status, deleted.body], [404, notFound]);
});

Deno.test("inbound mail: the source's allow-list (403), unreadable mail (422) and the plan cap (402)", async () => {
  await using ctx = await testApp({
    ...ENV,
    BILLING_ENABLED: "true",
    FREE_PLAN_MONTHLY_ORDERS: "1",
  });
  const { token } = await signUp(ctx);
  const source = await forwardingAddress(ctx, token, { allowedSenders: ["@shop.example"] });
  const to = source.forwardingAddress;

  const blocked = await inbound(ctx, { to, raw: orderMail(5301, "orders@elsewhere.example") });
  equal(blocked.status, 403);
  eq({ ...blocked.body, logId: 0 }, {
    error: "The sender is not allowed to send orders to this email source",
    blockedSender: "orders@elsewhere.example",
    logId: 0,
  });
  const newsletter = message({
    from: "news@shop.example",
    subject: "Spring sale",
    body: "Everything 50% off this week.",
  });
  const unreadable = await inbound(ctx, { to, raw: newsletter });
  equal(unreadable.status, 422);
  equal(unreadable.body.error, "The message could not be read as an email order");
  match(unreadable.body.logId, /^log_/);

  equal((await inbound(ctx, { to, raw: orderMail(5302) })).status, 202);
  const capped = await inbound(ctx, { to, raw: orderMail(5303) });
  equal(capped.status, 402);
  eq({ ...capped.body, logId: 0, error: 0 }, {
    error: 0,
    reason: "plan_limit_reached",
    cap: 1,
    used: 1,
    logId: 0,
  });
});
