import assert from "node:assert/strict";
import { sha256Hex } from "../../src/lib/crypto.ts";
import { call, signUp, testApp } from "../helpers.ts";

const SNAPSHOT_KEYS = [
  "analytics",
  "bots",
  "emailSources",
  "orders",
  "settings",
  "subscriptions",
  "templates",
  "user",
];

const EXPORT_KEYS = [
  "account",
  "apiKeys",
  "bots",
  "customTemplates",
  "emailSources",
  "exportedAt",
  "intakeMessages",
  "orders",
  "settings",
  "shares",
  "subscriptions",
];

/** Every key the spec lists is there (capabilities may add their own). */
function assertHasKeys(body: Record<string, unknown>, expected: string[]) {
  const missing = expected.filter((key) => !(key in body));
  assert.deepEqual(missing, [], `missing: ${missing.join(", ")}`);
}

Deno.test("me: {user, state, identities, operator} with either token type; state is the snapshot", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx, { username: "Sam_1" });
  const key = (await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).body
    .key as string;
  for (const credential of [token, key]) {
    const res = await call(ctx, "GET", "/api/auth/me", { token: credential });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ["identities", "operator", "state", "user"]);
    assert.deepEqual(res.body.identities, []);
    // The deployment's only (so oldest) account is its operator.
    assert.equal(res.body.operator, true);
    const me = res.body.user as Record<string, unknown>;
    assert.equal(me.id, user.id);
    assert.ok(!("passwordHash" in me) && !("identities" in me));
    const state = res.body.state as Record<string, unknown>;
    assertHasKeys(state, SNAPSHOT_KEYS);
    assert.deepEqual(state.user, me);
    for (const list of ["bots", "emailSources", "orders", "templates", "subscriptions"]) {
      assert.ok(Array.isArray(state[list]), list);
    }
  }
});

Deno.test("state: the snapshot of the caller's workspace only", async () => {
  await using ctx = await testApp();
  const a = await signUp(ctx);
  const b = await signUp(ctx);
  const res = await call(ctx, "GET", "/api/state", { token: b.token });
  assert.equal(res.status, 200);
  assertHasKeys(res.body, SNAPSHOT_KEYS);
  assert.equal((res.body.user as { id: string }).id, b.user.id);
  assert.ok(!JSON.stringify(res.body).includes(a.user.id));
  assert.equal((await call(ctx, "GET", "/api/state")).status, 401);
});

Deno.test("export: an attachment with every key of the spec and no secrets", async () => {
  await using ctx = await testApp();
  const reg = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: "password123" },
  });
  const token = reg.body.token as string;
  const created = await call(ctx, "POST", "/api/account/api-keys", {
    token,
    body: { name: "deploy" },
  });
  const key = created.body.key as string;
  await call(ctx, "GET", "/api/auth/me", { token: key });
  await call(ctx, "POST", "/api/auth/forgot-password", { body: { email: "sam@example.com" } });

  const res = await call(ctx, "GET", "/api/account/export", { token });
  assert.equal(res.status, 200);
  assert.match(
    res.headers.get("content-disposition")!,
    /^attachment; filename="order-tracker-export-\d{4}-\d{2}-\d{2}\.json"$/,
  );
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assertHasKeys(res.body, EXPORT_KEYS);
  assert.equal(new Date(res.body.exportedAt as string).toISOString(), res.body.exportedAt);
  assert.deepEqual(res.body.account, reg.body.user);
  const keysListed = await call(ctx, "GET", "/api/account/api-keys", { token });
  assert.deepEqual(res.body.apiKeys, keysListed.body.items, "keys appear as in the key list");
  assert.ok((res.body.apiKeys as { lastUsedAt?: string }[])[0].lastUsedAt);

  const text = JSON.stringify(res.body);
  for (
    const secret of [
      key,
      await sha256Hex(key),
      token,
      await sha256Hex(token),
      "scrypt$",
      "passwordHash",
      "password123",
    ]
  ) {
    assert.ok(!text.includes(secret), secret);
  }
  assert.ok(!/reset/i.test(text), "no one-time tokens");
});

Deno.test("export: session token only; an API key gets 401", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const key = (await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).body
    .key as string;
  const res = await call(ctx, "GET", "/api/account/export", { token: key });
  assert.equal(res.status, 401);
  assert.deepEqual(res.body, { error: "Unauthorized" });
  assert.equal((await call(ctx, "GET", "/api/account/export")).status, 401);
});
