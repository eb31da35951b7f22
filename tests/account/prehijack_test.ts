/**
 * Pre-hijacking through provider sign-in (issue 21, part 1): an attacker who opens or enters an
 * account with someone else's address before its owner arrives must not keep a way in.
 */
import assert from "node:assert/strict";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { keys } from "../../src/store/keys.ts";
import { issueSession } from "../../src/store/account/credentials.ts";
import { createUser } from "../../src/store/account/users.ts";
import { call, testApp } from "../helpers.ts";
import { fakeServer } from "./fakes.ts";

const ISSUER = "https://signin.example.com";
const AUDIENCE = "order-tracker";
const VICTIM = "victim@example.com";

/** The sign-in service: its JWKS on loopback and a signer of its tokens. */
async function signInService() {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...await exportJWK(publicKey), kid: "k1", alg: "ES256" };
  const jwks = fakeServer(() => Response.json({ keys: [jwk] }));
  const sign = (claims: JWTPayload) =>
    new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: "k1" }).setIssuer(ISSUER)
      .setAudience(AUDIENCE).setIssuedAt().setExpirationTime("5m").sign(privateKey);
  const env = { ATLAS_ISSUER: ISSUER, ATLAS_AUDIENCE: AUDIENCE, ATLAS_JWKS_URL: jwks.url };
  return { jwks, sign, env };
}

type Ctx = Awaited<ReturnType<typeof testApp>>;
let client = 0;
/** Each request from its own address: the shared per-IP limit stays out of the way. */
const from = () => ({ "x-forwarded-for": `203.0.113.${++client % 250}` });
const atlasLogin = (ctx: Ctx, token: string) =>
  call(ctx, "POST", "/api/auth/atlas-login", { body: { token }, headers: from() });

/** The owner takes the address back through the mailed link (the log, without SMTP_URL). */
async function resetByMail(ctx: Ctx, body: Record<string, unknown> = {}) {
  const asked = await call(ctx, "POST", "/api/auth/forgot-password", {
    body: { email: VICTIM },
    headers: from(),
  });
  assert.equal(asked.status, 200);
  await ctx.deps.background.drain();
  const line = ctx.logs.findLast((l) => l.includes("reset-password?token="))!;
  const token = JSON.parse(line).text.match(/token=([\w-]+)/)[1];
  const reset = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token, password: "owner's new password", ...body },
    headers: from(),
  });
  assert.equal(reset.status, 200);
  return reset.body as { token: string; ended: Record<string, number> };
}

Deno.test("pre-hijack (a): an unverified provider email opens no account and links nothing", async () => {
  const atlas = await signInService();
  await using _jwks = atlas.jwks;
  await using ctx = await testApp(atlas.env);
  // The attacker's provider account claims the victim's address without verifying it.
  const claim = await atlas.sign({ sub: "attacker", email: VICTIM, email_verified: false });
  const res = await atlasLogin(ctx, claim);
  assert.equal(res.status, 403);
  assert.equal(res.body.code, "email_unverified");
  assert.equal((await ctx.kv.get(keys.userByEmail(VICTIM))).value, null, "no account");
  assert.equal((await ctx.kv.get(keys.userByIdentity("atlas", "attacker"))).value, null);

  // The owner registers later: the attacker's identity reaches nothing, before or after.
  const reg = await call(ctx, "POST", "/api/auth/register", {
    body: { email: VICTIM, password: "owner password" },
    headers: from(),
  });
  assert.equal(reg.status, 201);
  const again = await atlasLogin(ctx, claim);
  assert.equal(again.status, 403);
  assert.equal(again.body.code, "email_unverified", "same answer with an account");
});

Deno.test("pre-hijack (a), older data: a reset removes a link made from an unverified email", async () => {
  const atlas = await signInService();
  await using _jwks = atlas.jwks;
  await using ctx = await testApp(atlas.env);
  // What the service did before: the account created from the unverified claim, linked to the
  // attacker's subject (records of then keep the subject alone).
  const made = await createUser(ctx.kv, {
    email: VICTIM,
    identities: { atlas: "attacker" },
  });
  assert.ok(made.ok);
  const attackerToken = await atlas.sign({ sub: "attacker" });
  assert.equal((await atlasLogin(ctx, attackerToken)).status, 200, "the hijack as it was");
  const me = await call(ctx, "GET", "/api/auth/me", {
    token: (await atlasLogin(ctx, attackerToken)).body.token as string,
  });
  assert.deepEqual(me.body.identities, [{
    provider: "atlas",
    email: VICTIM,
    linkedAt: made.user.createdAt,
  }]);

  const reset = await resetByMail(ctx);
  assert.deepEqual(reset.ended, { sessions: 2, apiKeys: 0, identities: 1 });
  const after = await atlasLogin(ctx, attackerToken);
  assert.equal(after.status, 400, "no link, and the token has no email to open one with");
  assert.equal(after.body.code, "email_missing");
  assert.equal((await ctx.kv.get(keys.userByIdentity("atlas", "attacker"))).value, null);
  const owner = await call(ctx, "GET", "/api/auth/me", { token: reset.token });
  assert.deepEqual(owner.body.identities, []);
});

Deno.test("pre-hijack (b): no link into an account whose email was never verified", async () => {
  const atlas = await signInService();
  await using _jwks = atlas.jwks;
  await using ctx = await testApp(atlas.env);
  // The attacker registers the victim's address with a password and makes an API key.
  const reg = await call(ctx, "POST", "/api/auth/register", {
    body: { email: VICTIM, password: "attacker password" },
    headers: from(),
  });
  const attacker = reg.body.token as string;
  const key = (await call(ctx, "POST", "/api/account/api-keys", { token: attacker, body: {} }))
    .body.key as string;

  // The owner signs in through the provider, which verified the address.
  const owner = await atlas.sign({ sub: "owner", email: VICTIM, email_verified: true });
  const refused = await atlasLogin(ctx, owner);
  assert.equal(refused.status, 409);
  assert.equal(refused.body.code, "account_unverified");
  assert.equal((await ctx.kv.get(keys.userByIdentity("atlas", "owner"))).value, null);

  // The owner proves the mailbox: every way the attacker had ends, then the link is made.
  const reset = await resetByMail(ctx);
  assert.deepEqual(reset.ended, { sessions: 1, apiKeys: 1, identities: 0 });
  for (const credential of [attacker, key]) {
    assert.equal((await call(ctx, "GET", "/api/orders", { token: credential })).status, 401);
  }
  const login = await call(ctx, "POST", "/api/auth/login", {
    body: { email: VICTIM, password: "attacker password" },
    headers: from(),
  });
  assert.equal(login.status, 401);
  const linked = await atlasLogin(ctx, owner);
  assert.equal(linked.status, 200);
  const me = await call(ctx, "GET", "/api/auth/me", { token: linked.body.token as string });
  const identities = me.body.identities as { provider: string; email: string }[];
  assert.deepEqual(identities.map(({ provider, email }) => ({ provider, email })), [
    { provider: "atlas", email: VICTIM },
  ]);
});

Deno.test("linked sign-ins: removed with DELETE /api/auth/identities/{provider}, never the last way in", async () => {
  const atlas = await signInService();
  await using _jwks = atlas.jwks;
  await using ctx = await testApp(atlas.env);
  // Opened through the provider: no password, the link is the only way in.
  const first = await atlasLogin(
    ctx,
    await atlas.sign({ sub: "sam", email: "sam@example.com", email_verified: true }),
  );
  const token = first.body.token as string;
  const userId = (first.body.user as { id: string }).id;
  const remove = (provider: string, credential = token) =>
    call(ctx, "DELETE", `/api/auth/identities/${provider}`, { token: credential });

  const last = await remove("atlas");
  assert.equal(last.status, 409);
  assert.deepEqual(last.body, {
    error: "This is the only way to sign in to the account; set a password first",
  });
  assert.deepEqual(await remove("discord").then((r) => [r.status, r.body]), [
    404,
    { error: "Linked sign-in not found" },
  ]);
  assert.equal((await remove("nope")).status, 404);
  const key = (await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).body
    .key as string;
  assert.equal((await remove("atlas", key)).status, 401, "session token only");

  // With a password (written into the record here), links can go.
  const record = (await ctx.kv.get<{ passwordHash?: string }>(keys.user(userId))).value!;
  await ctx.kv.set(keys.user(userId), { ...record, passwordHash: "scrypt$set" });
  const removed = await remove("atlas");
  assert.deepEqual([removed.status, removed.body], [200, { ok: true }]);
  assert.equal((await ctx.kv.get(keys.userByIdentity("atlas", "sam"))).value, null);
  const me = await call(ctx, "GET", "/api/auth/me", { token });
  assert.deepEqual(me.body.identities, []);
  assert.equal((await remove("atlas")).status, 404);
});

Deno.test("linked sign-ins: two removals at once never leave an account without a way in", async () => {
  await using ctx = await testApp();
  const linkedAt = "2026-01-01T00:00:00.000Z";
  const made = await createUser(ctx.kv, {
    email: "two@example.com",
    emailVerified: true,
    identities: {
      atlas: { subject: "a", email: "two@example.com", linkedAt },
      discord: { subject: "d", email: "two@example.com", linkedAt },
    },
  });
  assert.ok(made.ok);
  const token = await issueSession(ctx.kv, made.user.id);
  const results = await Promise.all(
    ["atlas", "discord"].map((p) =>
      call(ctx, "DELETE", `/api/auth/identities/${p}`, { token }).then((r) => r.status)
    ),
  );
  assert.deepEqual(results.sort(), [200, 409]);
  const me = await call(ctx, "GET", "/api/auth/me", { token });
  assert.equal((me.body.identities as unknown[]).length, 1);
});
