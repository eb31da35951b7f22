import assert from "node:assert/strict";
import { sha256Hex } from "../../src/lib/crypto.ts";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { kvLines } from "./kv_scan.ts";

type Ctx = Awaited<ReturnType<typeof testApp>>;

interface KeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt?: string;
}

async function createKey(ctx: Ctx, token: string, body: unknown = {}) {
  const res = await call<{ key: string; record: KeyRecord }>(ctx, "POST", "/api/account/api-keys", {
    token,
    body,
  });
  assert.equal(res.status, 201);
  return res.body;
}

const list = async (ctx: Ctx, token: string) =>
  (await call<{ items: KeyRecord[] }>(ctx, "GET", "/api/account/api-keys", { token })).body.items;

Deno.test("api keys: create returns the raw key once and a record; only the hash is stored", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const { key, record } = await createKey(ctx, token, { name: "CI deploys" });
  assert.match(key, /^sk_[A-Za-z0-9_-]{43}$/, "sk_ + 32 random bytes");
  assert.equal(Uint8Array.fromBase64(key.slice(3), { alphabet: "base64url" }).length, 32);
  assert.deepEqual(Object.keys(record).sort(), ["createdAt", "id", "name", "prefix"]);
  assert.match(record.id, /^key_/);
  assert.equal(record.name, "CI deploys");
  assert.equal(record.prefix, key.slice(0, 11));
  assert.equal(new Date(record.createdAt).toISOString(), record.createdAt);

  const lines = await kvLines(ctx.kv);
  assert.ok(lines.every((line) => !line.includes(key)), "the raw key is never stored");
  const hash = await sha256Hex(key);
  assert.ok(lines.some((line) => line.includes(hash)), "its SHA-256 is");
  const listed = JSON.stringify(await list(ctx, token));
  assert.ok(!listed.includes(hash) && !listed.includes(key));
});

Deno.test("api keys: names are trimmed, cut to 80, and default to Untitled key", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const cases: [unknown, string][] = [
    [{ name: "  padded  " }, "padded"],
    [{ name: "x".repeat(100) }, "x".repeat(80)],
    [{ name: `  ${"é".repeat(85)}` }, "é".repeat(80)],
    [{ name: "" }, "Untitled key"],
    [{ name: "   " }, "Untitled key"],
    [{ name: null }, "Untitled key"],
    [{}, "Untitled key"],
  ];
  for (const [body, name] of cases) {
    assert.equal((await createKey(ctx, token, body)).record.name, name, JSON.stringify(body));
  }
  const bad = await call(ctx, "POST", "/api/account/api-keys", { token, body: { name: 5 } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.error as string, /^name: /);
  const raw = await call(ctx, "POST", "/api/account/api-keys", { token, rawBody: "not json" });
  assert.equal(raw.status, 400, "an unreadable body is refused, never read as no name");
  const empty = await call(ctx, "POST", "/api/account/api-keys", { token, rawBody: "" });
  assert.equal(empty.status, 201, "no body has no name: Untitled key");
});

Deno.test("api keys: 25 per account, the 26th is 429, even when created at once", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const results = await Promise.all(
    Array.from(
      { length: 30 },
      () => call(ctx, "POST", "/api/account/api-keys", { token, body: {} }),
    ),
  );
  assert.equal(results.filter((r) => r.status === 201).length, 25);
  const refused = results.filter((r) => r.status === 429);
  assert.equal(refused.length, 5);
  assert.deepEqual(refused[0].body, { error: "API key limit reached (25 per account)" });
  assert.equal((await list(ctx, token)).length, 25);

  const first = (await list(ctx, token))[0];
  await call(ctx, "DELETE", `/api/account/api-keys/${first.id}`, { token });
  assert.equal((await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).status, 201);
  assert.equal((await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).status, 429);
});

Deno.test("api keys: a key has full access, can create keys, and is listed newest first", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  const first = await createKey(ctx, token, { name: "first" });
  const second = await createKey(ctx, first.key, { name: "made by a key" });
  const me = await call(ctx, "GET", "/api/auth/me", { token: second.key });
  assert.equal(me.status, 200);
  assert.equal((me.body.user as { id: string }).id, user.id);
  assert.deepEqual((await list(ctx, token)).map((k) => k.name), ["made by a key", "first"]);
});

Deno.test("api keys: lastUsedAt appears on first use and follows every request", async () => {
  let now = Date.parse("2026-02-01T08:00:00.000Z");
  await using ctx = await testApp({}, { now: () => now });
  const { token, user } = await signUp(ctx);
  const { key, record } = await createKey(ctx, token);
  assert.equal((await list(ctx, token))[0].lastUsedAt, undefined);

  now += 1000;
  await call(ctx, "GET", "/api/auth/me", { token: key });
  assert.equal((await list(ctx, token))[0].lastUsedAt, "2026-02-01T08:00:01.000Z");
  now += 1000;
  await call(ctx, "GET", "/api/state", { token: key });
  // Read at once (the write may still be pending), then after it is stored.
  assert.equal((await list(ctx, token))[0].lastUsedAt, "2026-02-01T08:00:02.000Z");
  await ctx.deps.apiKeyUse.flush();
  assert.equal((await ctx.kv.get(keys.apiKeyLastUsed(user.id, record.id))).value, now);
  now += 1000;
  const listedByKey = await list(ctx, key);
  assert.equal(listedByKey[0].lastUsedAt, "2026-02-01T08:00:03.000Z", "the listing request counts");
});

Deno.test("api keys: revocation takes effect on the next request and leaves nothing behind", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const { key, record } = await createKey(ctx, token);
  const hash = await sha256Hex(key);
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: key })).status, 200);
  const res = await call(ctx, "DELETE", `/api/account/api-keys/${record.id}`, { token });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { ok: true });
  const after = await call(ctx, "GET", "/api/auth/me", { token: key });
  assert.equal(after.status, 401);
  assert.deepEqual(after.body, { error: "Unauthorized" });
  await ctx.deps.apiKeyUse.flush();
  const lines = await kvLines(ctx.kv);
  assert.ok(lines.every((line) => !line.includes(record.id)), lines.join("\n"));
  assert.ok(lines.every((line) => !line.includes(hash)));
  assert.deepEqual(await list(ctx, token), []);
});

Deno.test("api keys: a use racing the revocation does not write lastUsedAt back", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  const { record } = await createKey(ctx, token);
  ctx.deps.apiKeyUse.record(user.id, record.id, Date.now());
  await call(ctx, "DELETE", `/api/account/api-keys/${record.id}`, { token });
  await ctx.deps.apiKeyUse.flush();
  assert.equal((await ctx.kv.get(keys.apiKeyLastUsed(user.id, record.id))).versionstamp, null);
});

Deno.test("api keys: another account's key is 404, and so is an unknown id", async () => {
  await using ctx = await testApp();
  const a = await signUp(ctx);
  const b = await signUp(ctx);
  const { key, record } = await createKey(ctx, a.token);
  for (const id of [record.id, "key_doesnotexist"]) {
    const res = await call(ctx, "DELETE", `/api/account/api-keys/${id}`, { token: b.token });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: "API key not found" });
  }
  assert.deepEqual(await list(ctx, b.token), []);
  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: key })).status, 200);
});

Deno.test("api keys: every endpoint needs a credential", async () => {
  await using ctx = await testApp();
  for (
    const [method, path] of [
      ["POST", "/api/account/api-keys"],
      ["GET", "/api/account/api-keys"],
      ["DELETE", "/api/account/api-keys/key_x"],
    ]
  ) {
    const res = await call(ctx, method, path, { body: method === "GET" ? undefined : {} });
    assert.equal(res.status, 401, path);
  }
});
