import assert from "node:assert/strict";
import { AccountGoneError } from "../../src/errors.ts";
import { createApiKey } from "../../src/store/account/api_keys.ts";
import { issueSession } from "../../src/store/account/credentials.ts";
import { keys } from "../../src/store/keys.ts";
import { updateUser } from "../../src/store/account/users.ts";
import { requestReset } from "../../src/store/account/password_resets.ts";
import { addToCounter, readCounter } from "../../src/store/kv.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { fakeServer } from "./fakes.ts";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { kvLines } from "./kv_scan.ts";

type Ctx = Awaited<ReturnType<typeof testApp>>;

const remove = (ctx: Ctx, token: string, confirmEmail?: unknown) =>
  call(ctx, "DELETE", "/api/account", {
    token,
    body: confirmEmail === undefined ? {} : { confirmEmail },
  });

Deno.test("delete: confirmEmail must be the account email (trimmed, any case)", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx, { email: "sam@example.com" });
  for (const confirmEmail of [undefined, "", "someone@example.com", "sam@example.co"]) {
    const res = await remove(ctx, token, confirmEmail);
    assert.equal(res.status, 400, String(confirmEmail));
    assert.deepEqual(res.body, {
      error: "To delete the account, type its email address exactly in confirmEmail",
    });
  }
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token })).status, 200);
  const ok = await remove(ctx, token, "  SAM@Example.com ");
  assert.equal(ok.status, 200);
  assert.deepEqual(ok.body, { ok: true });
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token })).status, 401);
});

Deno.test("delete: session token only; an API key gets 401 and deletes nothing", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx, { email: "sam@example.com" });
  const key = (await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).body
    .key as string;
  const res = await remove(ctx, key, "sam@example.com");
  assert.equal(res.status, 401);
  assert.deepEqual(res.body, { error: "Unauthorized" });
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token })).status, 200);
});

/** A linked sign-in identity, through a JWKS served on loopback. */
async function linkAtlasIdentity(email: string) {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...await exportJWK(publicKey), kid: "k", alg: "ES256" };
  const jwks = fakeServer(() => Response.json({ keys: [jwk] }));
  const token = await new SignJWT({ sub: "atlas-subject-1", email, email_verified: true })
    .setProtectedHeader({ alg: "ES256", kid: "k" })
    .setIssuer("https://signin.example.com").setAudience("tracker").setExpirationTime("5m")
    .sign(privateKey);
  const env = {
    ATLAS_ISSUER: "https://signin.example.com",
    ATLAS_AUDIENCE: "tracker",
    ATLAS_JWKS_URL: jwks.url,
  };
  return { jwks, token, env };
}

Deno.test("delete: nothing of the account is left anywhere in KV; others are untouched", async () => {
  const atlas = await linkAtlasIdentity("sam@example.com");
  await using _jwks = atlas.jwks;
  await using ctx = await testApp({
    ...atlas.env,
    BASE_URL: "https://t.example.com",
    ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
  });
  const other = await signUp(ctx, { email: "other@example.com", username: "Other" });
  const otherKey = (await call(ctx, "POST", "/api/account/api-keys", {
    token: other.token,
    body: {},
  })).body.key as string;

  // An account with every kind of record: password, username, sessions, API keys and their
  // use times, reset tokens, a linked identity, profile changes and workspace data.
  const reg = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "Sam@Example.com", password: "password123", username: "Sam_1" },
  });
  const token = reg.body.token as string;
  const user = reg.body.user as { id: string; email: string; webhookHandle: string };
  await call(ctx, "POST", "/api/auth/login", {
    body: { email: "sam_1", password: "password123" },
  });
  // Only an account whose email is verified takes a provider link.
  await updateUser(ctx.kv, user.id, (u) => ({ ...u, emailVerified: true }));
  const linked = await call(ctx, "POST", "/api/auth/atlas-login", { body: { token: atlas.token } });
  assert.equal((linked.body.user as { id: string }).id, user.id);
  for (let i = 0; i < 3; i++) {
    const key = (await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).body
      .key as string;
    await call(ctx, "GET", "/api/state", { token: key });
  }
  await call(ctx, "POST", "/api/auth/forgot-password", { body: { email: "sam@example.com" } });
  await call(ctx, "POST", "/api/account/display-name", { token, body: { displayName: "Sam" } });
  // Email sources own global keys: a forwarding address, a mailbox in the polling index.
  for (
    const body of [{ kind: "forwarding" }, {
      kind: "imap",
      host: "127.0.0.1",
      username: "sam",
      password: "mailbox-password",
    }]
  ) {
    assert.equal((await call(ctx, "POST", "/api/email-sources", { token, body })).status, 201);
  }
  await ctx.deps.background.drain();
  await ctx.deps.apiKeyUse.flush();
  // Workspace data other capabilities keep under the account's prefix, and its counter shares.
  const op = ctx.kv.atomic()
    .set([...keys.workspace(user.id), "order", "ord_1"], { id: "ord_1", userId: user.id })
    .set(keys.orderCount(user.id), new Deno.KvU64(3n))
    .set(keys.valueCents(user.id), new Deno.KvU64(4500n));
  addToCounter(op, keys.stat("orders"), 5);
  addToCounter(op, keys.stat("value_cents"), 10_000);
  await op.commit();

  const before = await kvLines(ctx.kv);
  assert.ok(before.filter((l) => l.includes(user.id)).length > 10, "the account left traces");

  const res = await remove(ctx, token, "sam@example.com");
  assert.equal(res.status, 200);
  await ctx.deps.apiKeyUse.flush();

  const marks = [user.id, user.email, user.webhookHandle, "sam_1", "atlas-subject-1"];
  for (const line of await kvLines(ctx.kv)) {
    for (const mark of marks) assert.ok(!line.toLowerCase().includes(mark), `${mark} in ${line}`);
  }
  assert.equal(await readCounter(ctx.kv, keys.stat("users")), 1);
  assert.equal(await readCounter(ctx.kv, keys.stat("orders")), 2);
  assert.equal(await readCounter(ctx.kv, keys.stat("value_cents")), 5500);

  // The other account still works, and the email and username can be taken again.
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: other.token })).status, 200);
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: otherKey })).status, 200);
  const again = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: "password123", username: "sam_1" },
  });
  assert.equal(again.status, 201);
  assert.notEqual((again.body.user as { id: string }).id, user.id);
});

Deno.test("delete: every session and key of the account stops working", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx, { email: "sam@example.com" });
  const key = (await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).body
    .key as string;
  await remove(ctx, token, "sam@example.com");
  for (const credential of [token, key]) {
    const res = await call(ctx, "GET", "/api/auth/me", { token: credential });
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { error: "Unauthorized" });
  }
  const login = await call(ctx, "POST", "/api/auth/login", {
    body: { email: "sam@example.com", password: "password123" },
  });
  assert.equal(login.status, 401);
});

Deno.test("delete: a sign-in or key creation that lost the race to the deletion writes nothing", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx, { email: "sam@example.com" });
  await remove(ctx, token, "sam@example.com");
  await assert.rejects(() => issueSession(ctx.kv, user.id), AccountGoneError);
  await assert.rejects(() => createApiKey(ctx.kv, user.id, "late"), AccountGoneError);
  assert.deepEqual(await requestReset(ctx.kv, "sam@example.com"), { ok: true });
  const lines = await kvLines(ctx.kv);
  assert.ok(lines.every((line) => !line.includes(user.id)), lines.join("\n"));
});
