import assert from "node:assert/strict";
import { sha256Hex } from "../../src/lib/crypto.ts";
import { SESSION_TTL_MS } from "../../src/store/account/credentials.ts";
import { keys } from "../../src/store/keys.ts";
import { kvLines } from "./kv_scan.ts";
import { call, signUp, testApp } from "../helpers.ts";

const UNAUTHORIZED = { error: "Unauthorized" };

Deno.test("sessions: 64 hex characters, stored only as their SHA-256", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  assert.match(token, /^[0-9a-f]{64}$/);
  const stored = await ctx.kv.get(keys.session(await sha256Hex(token)));
  assert.equal((stored.value as { userId: string }).userId, user.id);
  assert.ok((await kvLines(ctx.kv)).every((line) => !line.includes(token)));
});

Deno.test("sessions: valid 14 days from issue, not extended by use", async () => {
  let now = Date.parse("2026-01-01T00:00:00.000Z");
  await using ctx = await testApp({}, { now: () => now });
  const reg = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: "password123" },
  });
  const token = reg.body.token as string;
  now += SESSION_TTL_MS - 1000;
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token })).status, 200);
  now += 1000;
  const expired = await call(ctx, "GET", "/api/auth/me", { token });
  assert.equal(expired.status, 401);
  assert.deepEqual(expired.body, UNAUTHORIZED);
});

Deno.test("bearer rules: unknown, malformed, revoked and expired credentials share one 401", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const key = await call(ctx, "POST", "/api/account/api-keys", { token, body: {} });
  const revoked = key.body.key as string;
  await call(ctx, "DELETE", `/api/account/api-keys/${(key.body.record as { id: string }).id}`, {
    token,
  });
  const attempts: Record<string, string>[] = [
    {},
    { authorization: "" },
    { authorization: "Bearer" },
    { authorization: `Basic ${token}` },
    { authorization: `Bearer ${"0".repeat(64)}` },
    { authorization: `Bearer ${token.toUpperCase()}` },
    { authorization: "Bearer sk_unknownkeyvalue" },
    { authorization: `Bearer ${revoked}` },
    { authorization: `Bearer ${token} extra` },
  ];
  for (const headers of attempts) {
    const res = await call(ctx, "GET", "/api/auth/me", { headers });
    assert.equal(res.status, 401, JSON.stringify(headers));
    assert.deepEqual(res.body, UNAUTHORIZED);
  }
  const lowerCase = await call(ctx, "GET", "/api/auth/me", {
    headers: { authorization: `bearer ${token}` },
  });
  assert.equal(lowerCase.status, 200, "the scheme name is case-insensitive");
});

Deno.test("bearer rules: cookies and query-string tokens are never read", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  for (
    const [path, headers] of [
      [`/api/auth/me?token=${token}`, {}],
      [`/api/auth/me?access_token=${token}`, {}],
      ["/api/auth/me", { cookie: `token=${token}; session=${token}` }],
    ] as const
  ) {
    const res = await call(ctx, "GET", path, { headers });
    assert.equal(res.status, 401, path);
  }
});

Deno.test("sign-out: ends the session in the header and always answers {ok: true}", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const key = await call(ctx, "POST", "/api/account/api-keys", { token, body: {} });
  const apiKey = key.body.key as string;

  for (const headers of [{}, { authorization: "Bearer nonsense" }] as Record<string, string>[]) {
    const res = await call(ctx, "DELETE", "/api/auth/session", { headers });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
  }
  const withKey = await call(ctx, "DELETE", "/api/auth/session", { token: apiKey });
  assert.deepEqual(withKey.body, { ok: true });
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: apiKey })).status, 200);

  const out = await call(ctx, "DELETE", "/api/auth/session", { token });
  assert.deepEqual(out.body, { ok: true });
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token })).status, 401);
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: apiKey })).status, 200);
  const again = await call(ctx, "DELETE", "/api/auth/session", { token });
  assert.deepEqual(again.body, { ok: true });
});

Deno.test("sign-out ends only its own session", async () => {
  await using ctx = await testApp();
  await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: "password123" },
  });
  const login = () =>
    call(ctx, "POST", "/api/auth/login", {
      body: { email: "sam@example.com", password: "password123" },
    });
  const a = (await login()).body.token as string;
  const b = (await login()).body.token as string;
  await call(ctx, "DELETE", "/api/auth/session", { token: a });
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: a })).status, 401);
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: b })).status, 200);
});
