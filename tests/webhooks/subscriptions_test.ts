import assert from "node:assert/strict";
import type { StoredSubscription } from "../../src/domain/webhooks/subscription.ts";
import { keys } from "../../src/store/keys.ts";
import { call, signUp } from "../helpers.ts";
import { subscribe, testResolver, webhookApp } from "./helpers.ts";

const BASE = "/api/webhook-subscriptions";
const PRIVATE = "URL cannot point at private or loopback addresses";
const NOT_FOUND = { error: "Webhook subscription not found" };

const resolver = testResolver({
  "hooks.example.com": ["93.184.216.34"],
  "internal.example.com": ["93.184.216.34", "10.0.0.7"],
});

async function setup() {
  const ctx = await webhookApp({ listen: false, resolver });
  const { user, token } = await signUp(ctx);
  return { ctx, user, token };
}

async function stored(ctx: { kv: Deno.Kv }, userId: string, id: string) {
  return (await ctx.kv.get<StoredSubscription>(keys.webhookSub(userId, id))).value!;
}

function withoutSecret(body: Record<string, unknown>) {
  const { secret: _, ...rest } = body;
  return rest;
}

async function patchStored(
  ctx: { kv: Deno.Kv },
  userId: string,
  id: string,
  change: Partial<StoredSubscription>,
) {
  const sub = await stored(ctx, userId, id);
  const next: Record<string, unknown> = { ...sub, ...change };
  for (const [k, v] of Object.entries(change)) if (v === undefined) delete next[k];
  await ctx.kv.set(keys.webhookSub(userId, id), next);
}

Deno.test("create: 201 with the secret once, defaults, normalised URL, duplicates removed", async () => {
  const { ctx, user, token } = await setup();
  await using _ = ctx;
  const res = await call(ctx, "POST", BASE, {
    token,
    body: {
      url: "HTTPS://Hooks.Example.com:443/orders?x=1",
      eventTypes: ["order.shipped", "order.created", "order.shipped"],
    },
  });
  assert.equal(res.status, 201);
  const { id, secret, createdAt, ...rest } = res.body as Record<string, string>;
  assert.match(id, /^whsub_/);
  assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.ok(new Date(createdAt).toISOString() === createdAt);
  assert.deepEqual(rest, {
    userId: user.id,
    url: "https://hooks.example.com/orders?x=1",
    prefix: secret.slice(0, 14),
    eventTypes: ["order.shipped", "order.created"],
    active: true,
    failureCount: 0,
    needsSecretRotation: false,
  });
  const got = await call(ctx, "GET", `${BASE}/${id}`, { token });
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, withoutSecret(res.body));
  // Encrypted at rest: the secret's text appears nowhere in storage.
  for await (const entry of ctx.kv.list({ prefix: [] })) {
    const text = JSON.stringify(entry.value, (_, v) => typeof v === "bigint" ? String(v) : v);
    assert.ok(!text?.includes(secret.slice(6)), "plain secret in storage");
  }
});

Deno.test("create: active false is kept; the 201 never carries null fields", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const sub = await subscribe(ctx, token, { url: "https://hooks.example.com/", active: false });
  assert.equal(sub.active, false);
  assert.ok(!Object.values(sub).includes(null));
});

Deno.test("create: every invalid input is a 400 naming the field, and nothing is written", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const cases: [unknown, string][] = [
    [{ eventTypes: ["order.created"] }, "url is required"],
    [{ url: "https://hooks.example.com/" }, "eventTypes is required"],
    [
      { url: "https://hooks.example.com/", eventTypes: [] },
      "eventTypes: must list at least one event type",
    ],
    [{ url: "https://hooks.example.com/", eventTypes: "order.created" }, "eventTypes: "],
    [{ url: "https://hooks.example.com/", eventTypes: ["order.exploded"] }, "eventTypes.0: "],
    [
      { url: "https://hooks.example.com/", eventTypes: ["order.created"], active: "yes" },
      "active: ",
    ],
    [{ url: 42, eventTypes: ["order.created"] }, "url: "],
    [{ url: "", eventTypes: ["order.created"] }, "url: "],
    [{ url: "https://127.0.0.2/", eventTypes: ["order.created"] }, `url: ${PRIVATE}`],
    [{ url: "https://0x7f.2/", eventTypes: ["order.created"] }, `url: ${PRIVATE}`],
    [{ url: "https://[::1]/", eventTypes: ["order.created"] }, `url: ${PRIVATE}`],
    [
      { url: "https://[::ffff:169.254.169.254]/", eventTypes: ["order.created"] },
      `url: ${PRIVATE}`,
    ],
    [{ url: "https://internal.example.com/", eventTypes: ["order.created"] }, `url: ${PRIVATE}`],
    [
      { url: "https://nowhere.example.com/", eventTypes: ["order.created"] },
      "url: host does not resolve",
    ],
    [{ url: "http://hooks.example.com/", eventTypes: ["order.created"] }, "url: must use https"],
    [{ url: "ftp://hooks.example.com/", eventTypes: ["order.created"] }, "url: must use https"],
    [{ url: "nope", eventTypes: ["order.created"] }, "url: must be a valid URL"],
  ];
  for (const [body, error] of cases) {
    const res = await call(ctx, "POST", BASE, { token, body });
    assert.equal(res.status, 400, JSON.stringify(body));
    const message = String(res.body.error);
    assert.ok(error.endsWith(": ") ? message.startsWith(error) : message === error, message);
  }
  const raw = await call(ctx, "POST", BASE, { token, rawBody: "url=https://x" });
  assert.equal(raw.status, 400);
  assert.match(String(raw.body.error), /^body is not valid JSON \(/);
  const list = await call(ctx, "GET", BASE, { token });
  assert.equal(list.body.total, 0);
});

Deno.test("http: receivers are accepted for addresses in ALLOWED_PRIVATE_ADDRESSES", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const sub = await subscribe(ctx, token, { url: "http://127.0.0.1:9/hook" });
  assert.equal(sub.url, "http://127.0.0.1:9/hook");
  const other = await call(ctx, "POST", BASE, {
    token,
    body: { url: "http://127.0.0.2:9/hook", eventTypes: ["order.created"] },
  });
  assert.deepEqual(other.body, { error: `url: ${PRIVATE}`, address: "127.0.0.2" });
});

Deno.test("every endpoint needs a token", async () => {
  const { ctx } = await setup();
  await using _ = ctx;
  for (
    const [method, path] of [
      ["GET", BASE],
      ["POST", BASE],
      ["GET", `${BASE}/whsub_x`],
      ["PATCH", `${BASE}/whsub_x`],
      ["DELETE", `${BASE}/whsub_x`],
      ["POST", `${BASE}/whsub_x/test`],
      ["POST", `${BASE}/whsub_x/rotate-secret`],
      ["GET", "/api/webhook-logs"],
      ["POST", "/api/settings"],
    ]
  ) {
    const res = await call(ctx, method, path);
    assert.equal(res.status, 401, `${method} ${path}`);
  }
});

Deno.test("list: envelope, newest first, paging, only the caller's", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const other = await signUp(ctx);
  await subscribe(ctx, other.token, { url: "https://hooks.example.com/other" });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    ids.push((await subscribe(ctx, token, { url: `https://hooks.example.com/${i}` })).id);
  }
  const all = await call<{ items: { id: string; secret?: string }[] }>(ctx, "GET", BASE, { token });
  assert.equal(all.status, 200);
  assert.deepEqual(all.body.items.map((s) => s.id), ids.toReversed());
  assert.ok(all.body.items.every((s) => s.secret === undefined));
  const page = await call(ctx, "GET", `${BASE}?limit=2&offset=1`, { token });
  assert.deepEqual(
    { ...page.body, items: (page.body.items as { id: string }[]).map((s) => s.id) },
    { items: [ids[2], ids[1]], total: 4, limit: 2, offset: 1, hasMore: true },
  );
  const clamped = await call(ctx, "GET", `${BASE}?limit=abc&offset=-3`, { token });
  assert.deepEqual([clamped.body.limit, clamped.body.offset, clamped.body.hasMore], [50, 0, false]);
});

Deno.test("unknown and foreign ids answer 404 on every endpoint", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const other = await signUp(ctx);
  const foreign = await subscribe(ctx, other.token, { url: "https://hooks.example.com/" });
  for (const id of ["whsub_unknown", foreign.id]) {
    for (
      const [method, path, body] of [
        ["GET", `${BASE}/${id}`],
        ["PATCH", `${BASE}/${id}`, { active: false }],
        ["DELETE", `${BASE}/${id}`],
        ["POST", `${BASE}/${id}/test`, {}],
        ["POST", `${BASE}/${id}/rotate-secret`],
      ] as const
    ) {
      const res = await call(ctx, method, path, { token, body });
      assert.deepEqual([res.status, res.body], [404, NOT_FOUND], `${method} ${path}`);
    }
  }
  const still = await call(ctx, "GET", `${BASE}/${foreign.id}`, { token: other.token });
  assert.equal(still.body.active, true);
});

Deno.test("PATCH changes only the fields sent, validated as on create", async () => {
  const { ctx, user, token } = await setup();
  await using _ = ctx;
  const sub = await subscribe(ctx, token, {
    url: "https://hooks.example.com/a",
    eventTypes: ["order.created", "order.shipped"],
  });
  const path = `${BASE}/${sub.id}`;
  const empty = await call(ctx, "PATCH", path, { token, body: {} });
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, withoutSecret(sub));

  const types = await call(ctx, "PATCH", path, {
    token,
    body: { eventTypes: ["order.delivered", "order.delivered", "share.created"] },
  });
  assert.deepEqual(types.body.eventTypes, ["order.delivered", "share.created"]);
  assert.equal(types.body.url, "https://hooks.example.com/a");
  assert.equal("secret" in types.body, false);

  for (
    const [body, error] of [
      [{ url: "https://10.1.1.1/" }, `url: ${PRIVATE}`],
      [{ url: "https://internal.example.com/" }, `url: ${PRIVATE}`],
      [{ url: "http://hooks.example.com/" }, "url: must use https"],
      [{ eventTypes: [] }, "eventTypes: must list at least one event type"],
    ] as const
  ) {
    const res = await call(ctx, "PATCH", path, { token, body });
    assert.deepEqual([res.status, res.body.error], [400, error]);
  }
  const bad = await call(ctx, "PATCH", path, { token, body: { eventTypes: ["nope"] } });
  assert.equal(bad.status, 400);
  assert.match(String(bad.body.error), /^eventTypes\.0: /);
  const after = await stored(ctx, user.id, sub.id);
  assert.equal(after.url, "https://hooks.example.com/a");
  assert.deepEqual(after.eventTypes, ["order.delivered", "share.created"]);

  const moved = await call(ctx, "PATCH", path, {
    token,
    body: { url: "https://hooks.example.com/b" },
  });
  assert.equal(moved.body.url, "https://hooks.example.com/b");
});

Deno.test("PATCH active: false pauses; active: true resumes and resets failureCount", async () => {
  const { ctx, user, token } = await setup();
  await using _ = ctx;
  const sub = await subscribe(ctx, token, { url: "https://hooks.example.com/" });
  const path = `${BASE}/${sub.id}`;
  await patchStored(ctx, user.id, sub.id, { failureCount: 4, lastError: "HTTP 500" });
  const paused = await call(ctx, "PATCH", path, { token, body: { active: false } });
  assert.deepEqual([paused.body.active, paused.body.failureCount], [false, 4]);
  await patchStored(ctx, user.id, sub.id, { failureCount: 10 });
  const resumed = await call(ctx, "PATCH", path, { token, body: { active: true } });
  assert.deepEqual(
    [resumed.body.active, resumed.body.failureCount, resumed.body.lastError],
    [true, 0, "HTTP 500"],
  );
  await patchStored(ctx, user.id, sub.id, { failureCount: 3 });
  const again = await call(ctx, "PATCH", path, { token, body: { active: true } });
  assert.equal(again.body.failureCount, 0, "active: true resets even when already active");
});

Deno.test("delete: {ok: true}, then 404; the slot is free again", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const sub = await subscribe(ctx, token, { url: "https://hooks.example.com/" });
  const res = await call(ctx, "DELETE", `${BASE}/${sub.id}`, { token });
  assert.deepEqual([res.status, res.body], [200, { ok: true }]);
  const again = await call(ctx, "DELETE", `${BASE}/${sub.id}`, { token });
  assert.deepEqual([again.status, again.body], [404, NOT_FOUND]);
  const list = await call(ctx, "GET", BASE, { token });
  assert.equal(list.body.total, 0);
});

Deno.test("25 subscriptions per account: the 26th is 429, also under concurrent creates", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const create = () =>
    call(ctx, "POST", BASE, {
      token,
      body: { url: "https://hooks.example.com/", eventTypes: ["order.created"] },
    });
  const results = await Promise.all(Array.from({ length: 30 }, create));
  const statuses = results.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 201).length, 25);
  assert.equal(statuses.filter((s) => s === 429).length, 5);
  const limited = results.find((r) => r.status === 429)!;
  assert.deepEqual(limited.body, { error: "Webhook subscription limit reached (25)" });
  const list = await call<{ total: number; items: { id: string }[] }>(ctx, "GET", BASE, { token });
  assert.equal(list.body.total, 25);
  // Another account has its own 25.
  const other = await signUp(ctx);
  assert.ok((await subscribe(ctx, other.token, { url: "https://hooks.example.com/" })).id);
  // Deleting one frees a slot.
  await call(ctx, "DELETE", `${BASE}/${list.body.items[0].id}`, { token });
  assert.equal((await create()).status, 201);
  assert.equal((await create()).status, 429);
});

Deno.test("rotate-secret: new secret once, old state cleared, active again", async () => {
  const { ctx, user, token } = await setup();
  await using _ = ctx;
  const sub = await subscribe(ctx, token, { url: "https://hooks.example.com/" });
  await patchStored(ctx, user.id, sub.id, {
    active: false,
    failureCount: 10,
    lastError: "timeout",
    lastFiredAt: "2026-01-01T00:00:00.000Z",
  });
  const res = await call(ctx, "POST", `${BASE}/${sub.id}/rotate-secret`, { token });
  assert.equal(res.status, 200);
  const secret = String(res.body.secret);
  assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.notEqual(secret, sub.secret);
  assert.deepEqual(res.body, {
    ...sub,
    secret,
    prefix: secret.slice(0, 14),
    active: true,
    failureCount: 0,
    needsSecretRotation: false,
    lastFiredAt: "2026-01-01T00:00:00.000Z",
  });
  const got = await call(ctx, "GET", `${BASE}/${sub.id}`, { token });
  assert.equal("secret" in got.body, false);
  assert.equal(got.body.prefix, secret.slice(0, 14));
});

Deno.test("a subscription without a stored secret shows needsSecretRotation until rotated", async () => {
  const { ctx, user, token } = await setup();
  await using _ = ctx;
  const sub = await subscribe(ctx, token, { url: "https://hooks.example.com/" });
  await patchStored(ctx, user.id, sub.id, {
    sealedSecret: undefined,
    prefix: undefined,
    needsSecretRotation: true,
  });
  const got = await call(ctx, "GET", `${BASE}/${sub.id}`, { token });
  assert.equal(got.body.needsSecretRotation, true);
  assert.equal("prefix" in got.body, false);
  const rotated = await call(ctx, "POST", `${BASE}/${sub.id}/rotate-secret`, { token });
  assert.equal(rotated.body.needsSecretRotation, false);
  assert.equal(rotated.body.prefix, String(rotated.body.secret).slice(0, 14));
});

Deno.test("503 on create and rotate where secrets cannot be encrypted", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const sub = await subscribe(ctx, token, { url: "https://hooks.example.com/" });
  ctx.deps.secrets = null;
  const create = await call(ctx, "POST", BASE, {
    token,
    body: { url: "https://hooks.example.com/", eventTypes: ["order.created"] },
  });
  assert.equal(create.status, 503);
  assert.match(String(create.body.error), /SECRETS_KEY/);
  const rotate = await call(ctx, "POST", `${BASE}/${sub.id}/rotate-secret`, { token });
  assert.equal(rotate.status, 503);
  assert.equal((await call(ctx, "GET", BASE, { token })).body.total, 1);
});

Deno.test("the OpenAPI document lists every webhook route with its statuses", async () => {
  const { ctx } = await setup();
  await using _ = ctx;
  const doc = await call<{ paths: Record<string, Record<string, { responses: object }>> }>(
    ctx,
    "GET",
    "/api/openapi.json",
  );
  const statuses = (path: string, method: string) =>
    Object.keys(doc.body.paths[path][method].responses).sort();
  const expected: [string, string, string[]][] = [
    ["/api/webhook-subscriptions", "get", ["200", "401", "500"]],
    ["/api/webhook-subscriptions", "post", ["201", "400", "401", "413", "429", "500", "503"]],
    ["/api/webhook-subscriptions/{id}", "get", ["200", "401", "404", "500"]],
    ["/api/webhook-subscriptions/{id}", "patch", ["200", "400", "401", "404", "413", "500"]],
    ["/api/webhook-subscriptions/{id}", "delete", ["200", "401", "404", "413", "500"]],
    ["/api/webhook-subscriptions/{id}/test", "post", ["200", "400", "401", "404", "413", "500"]],
    ["/api/webhook-subscriptions/{id}/rotate-secret", "post", [
      "200",
      "401",
      "404",
      "413",
      "500",
      "503",
    ]],
  ];
  for (const [path, method, codes] of expected) {
    assert.deepEqual(statuses(path, method), codes, `${method} ${path}`);
  }
  assert.deepEqual(statuses("/api/webhook-logs", "get"), ["200", "401", "500"]);
  assert.deepEqual(statuses("/api/settings", "post"), ["200", "400", "401", "413", "500"]);
});
