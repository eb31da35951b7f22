/**
 * A password reset ends every standing way in (issue 21, part 3); change password and sign out
 * everywhere end the other sessions.
 */
import assert from "node:assert/strict";
import { AccountGoneError } from "../../src/errors.ts";
import { issueSession } from "../../src/store/account/credentials.ts";
import { keys } from "../../src/store/keys.ts";
import { getUser } from "../../src/store/account/users.ts";
import { call, testApp } from "../helpers.ts";

type Ctx = Awaited<ReturnType<typeof testApp>>;
const EMAIL = "sam@example.com";
let client = 0;
const from = () => ({ "x-forwarded-for": `198.51.100.${++client % 250}` });

async function register(ctx: Ctx, password = "first password") {
  const res = await call(ctx, "POST", "/api/auth/register", {
    body: { email: EMAIL, password },
    headers: from(),
  });
  assert.equal(res.status, 201);
  return res.body.token as string;
}

async function login(ctx: Ctx, password: string) {
  return await call(ctx, "POST", "/api/auth/login", {
    body: { email: EMAIL, password },
    headers: from(),
  });
}

/** Asks for a reset link (logged without SMTP_URL) and spends it with `body`. */
async function reset(ctx: Ctx, body: Record<string, unknown> = {}) {
  await call(ctx, "POST", "/api/auth/forgot-password", { body: { email: EMAIL }, headers: from() });
  await ctx.deps.background.drain();
  const line = ctx.logs.findLast((l) => l.includes("reset-password?token="))!;
  const token = JSON.parse(line).text.match(/token=([\w-]+)/)[1];
  return await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token, password: "reset password", ...body },
    headers: from(),
  });
}

const newKey = async (ctx: Ctx, token: string) =>
  (await call(ctx, "POST", "/api/account/api-keys", { token, body: { name: "k" } })).body
    .key as string;

Deno.test("reset: an attacker's API key no longer lists the orders; the answer says what ended", async () => {
  await using ctx = await testApp();
  const session = await register(ctx);
  const other = (await login(ctx, "first password")).body.token as string;
  const attackerKey = await newKey(ctx, session);
  await newKey(ctx, other);
  await call(ctx, "POST", "/api/orders", {
    token: session,
    body: { orderNumber: "A-1", itemSummary: "Lamp" },
  });
  assert.equal((await call(ctx, "GET", "/api/orders", { token: attackerKey })).status, 200);

  const res = await reset(ctx);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.ended, { sessions: 2, apiKeys: 2, identities: 0 });
  assert.deepEqual(Object.keys(res.body).sort(), ["ended", "token", "user"]);
  const orders = await call(ctx, "GET", "/api/orders", { token: attackerKey });
  assert.deepEqual([orders.status, orders.body], [401, { error: "Unauthorized" }]);
  for (const old of [session, other]) {
    assert.equal((await call(ctx, "GET", "/api/auth/me", { token: old })).status, 401);
  }
  const listed = await call(ctx, "GET", "/api/account/api-keys", {
    token: res.body.token as string,
  });
  assert.deepEqual(listed.body, { items: [] });
});

Deno.test("reset: keepApiKeys keeps the keys (sessions still end); a non-boolean is a 400", async () => {
  await using ctx = await testApp();
  const session = await register(ctx);
  const key = await newKey(ctx, session);
  const bad = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token: "t", password: "reset password", keepApiKeys: "yes" },
  });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error as string, /^keepApiKeys: /);

  const res = await reset(ctx, { keepApiKeys: true });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.ended, { sessions: 1, apiKeys: 0, identities: 0 });
  assert.equal((await call(ctx, "GET", "/api/orders", { token: key })).status, 200);
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: session })).status, 401);
});

Deno.test("change-password: needs the current password; ends every other session", async () => {
  await using ctx = await testApp();
  const caller = await register(ctx, "first password");
  const elsewhere = (await login(ctx, "first password")).body.token as string;
  const key = await newKey(ctx, caller);
  const change = (body: Record<string, unknown>, token = caller) =>
    call(ctx, "POST", "/api/auth/change-password", { token, body, headers: from() });

  const wrong = await change({ currentPassword: "guess", password: "second password" });
  assert.deepEqual([wrong.status, wrong.body], [400, {
    error: "currentPassword: is not the account's password",
  }]);
  const short = await change({ currentPassword: "first password", password: "short" });
  assert.deepEqual(short.body, { error: "password: must be 8 to 256 characters" });
  const byKey = await change(
    { currentPassword: "first password", password: "second password" },
    key,
  );
  assert.equal(byKey.status, 401, "session token only");
  assert.equal((await login(ctx, "first password")).status, 200, "nothing changed so far");

  const ok = await change({ currentPassword: "first password", password: "second password" });
  assert.equal(ok.status, 200);
  assert.deepEqual(Object.keys(ok.body).sort(), ["token", "user"]);
  for (const old of [caller, elsewhere]) {
    assert.equal((await call(ctx, "GET", "/api/auth/me", { token: old })).status, 401);
  }
  assert.equal(
    (await call(ctx, "GET", "/api/auth/me", { token: ok.body.token as string })).status,
    200,
  );
  assert.equal((await call(ctx, "GET", "/api/orders", { token: key })).status, 200, "keys stay");
  assert.equal((await login(ctx, "first password")).status, 401);
  assert.equal((await login(ctx, "second password")).status, 200);
});

Deno.test("sign out everywhere: DELETE /api/auth/sessions ends the others, not the caller's", async () => {
  await using ctx = await testApp();
  const caller = await register(ctx);
  const others = [];
  for (let i = 0; i < 2; i++) others.push((await login(ctx, "first password")).body.token);
  const key = await newKey(ctx, caller);
  assert.equal((await call(ctx, "DELETE", "/api/auth/sessions", { token: key })).status, 401);

  const res = await call(ctx, "DELETE", "/api/auth/sessions", { token: caller });
  assert.deepEqual([res.status, res.body], [200, { ok: true, ended: 2 }]);
  for (const old of others) {
    assert.equal((await call(ctx, "GET", "/api/auth/me", { token: old as string })).status, 401);
  }
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: caller })).status, 200);
  assert.equal((await call(ctx, "GET", "/api/orders", { token: key })).status, 200);
  const again = await call(ctx, "DELETE", "/api/auth/sessions", { token: caller });
  assert.deepEqual(again.body, { ok: true, ended: 0 });
});

Deno.test("reset: a sign-in that read the account before the reset gets no session after it", async () => {
  await using ctx = await testApp();
  await register(ctx);
  const userId = (await ctx.kv.get<string>(keys.userByEmail(EMAIL))).value!;
  // A login checked the old password against this record, then the reset ran.
  const seen = (await getUser(ctx.kv, userId))!;
  assert.equal((await reset(ctx)).status, 200);
  await assert.rejects(() => issueSession(ctx.kv, userId, Date.now(), seen), AccountGoneError);
  const fresh = (await getUser(ctx.kv, userId))!;
  assert.match(await issueSession(ctx.kv, userId, Date.now(), fresh), /^[0-9a-f]{64}$/);
});
