import assert from "node:assert/strict";
import { createRoute, z } from "@hono/zod-openapi";
import { jsonBody } from "../../src/http/openapi.ts";
import { found } from "../../src/http/scope.ts";
import { clientIp } from "../../src/http/client_ip.ts";
import { ApiError } from "../../src/http/errors.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import { LAYOUT_VERSION } from "../../src/store/migrations/index.ts";

const TOO_LARGE = { error: "Request body too large (limit 2 MiB)." };
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET,POST,PATCH,DELETE,OPTIONS",
  "access-control-allow-headers": "authorization,content-type",
};

/** Test-only routes on a real app: one validating a body, one echoing what the parser kept. */
async function appWithProbes(env: Record<string, string> = {}): Promise<TestContext> {
  const ctx = await testApp(env);
  const Body = z.object({ itemSummary: z.string(), count: z.number().int().optional() });
  ctx.app.openapi(
    createRoute({
      method: "post",
      path: "/api/test/validate",
      request: { body: jsonBody(Body) },
      responses: { 200: { description: "ok" } },
    }),
    (c) => c.json(c.req.valid("json"), 200),
  );
  ctx.app.post("/api/test/echo", async (c) => c.json({ parsed: await c.req.json() }));
  // Whether every reader of the body gets the one value the body parser made.
  ctx.app.post("/api/test/same", async (c) => {
    const [first, second] = [await c.req.json(), await c.req.json()];
    return c.json({ same: first === second && first === await c.req.bodyCache.json });
  });
  ctx.app.get("/api/test/boom", () => {
    throw new Error("secret internals at /srv/app.ts:12");
  });
  ctx.app.get("/api/test/ip", (c) => c.json({ ip: clientIp(c) }));
  ctx.app.get("/api/test/plan", () => {
    throw new ApiError(429, "Monthly limit reached", {
      reason: "plan_limit_reached",
      cap: 100,
      used: 100,
    });
  });
  return ctx;
}

function assertJsonType(headers: Headers) {
  assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
}

Deno.test("a JSON body is parsed whatever the Content-Type says", async () => {
  await using ctx = await appWithProbes();
  const variants: Record<string, string>[] = [{}, { "content-type": "text/plain" }, {
    "content-type": "x/y",
  }];
  for (const headers of variants) {
    const res = await call(ctx, "POST", "/api/test/validate", {
      rawBody: JSON.stringify({ itemSummary: "Shoes", count: 2, extra: "ignored" }),
      headers,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { itemSummary: "Shoes", count: 2 }, "unknown fields are dropped");
  }
});

Deno.test("a body that is not JSON is 400 saying so, on every endpoint", async () => {
  await using ctx = await appWithProbes();
  const { token } = await signUp(ctx);
  for (const rawBody of ["{not json", "itemSummary=Shoes", '{"forwardOn":true,}']) {
    for (const path of ["/api/test/validate", "/api/settings", "/api/auth/login"]) {
      const res = await call(ctx, "POST", path, { rawBody, token });
      assert.equal(res.status, 400, `${path} ${rawBody}`);
      assert.match(String(res.body.error), /^body is not valid JSON \(.+\)$/, rawBody);
      assertJsonType(res.headers);
    }
  }
  const settings = await call<{ settings: { forwardOn: boolean } }>(ctx, "POST", "/api/settings", {
    token,
    body: {},
  });
  assert.equal(settings.body.settings.forwardOn, false, "nothing was written");
});

Deno.test("a JSON body that is not an object reads as missing fields: 400 naming the field", async () => {
  await using ctx = await appWithProbes();
  for (
    const rawBody of [
      "42",
      '"text"',
      "null",
      "",
      "[]",
      '[{"itemSummary":"x"}]',
    ]
  ) {
    const res = await call(ctx, "POST", "/api/test/validate", { rawBody });
    assert.equal(res.status, 400, rawBody);
    assert.deepEqual(res.body, { error: "itemSummary is required" });
    assertJsonType(res.headers);
  }
  const wrongType = await call(ctx, "POST", "/api/test/validate", {
    body: { itemSummary: "x", count: "two" },
  });
  assert.equal(wrongType.status, 400);
  assert.match(String(wrongType.body.error), /^count: /);
});

Deno.test("__proto__, prototype and constructor are dropped at any depth", async () => {
  await using ctx = await appWithProbes();
  const rawBody = '{"a":1,"__proto__":{"polluted":true},"nested":{"constructor":{"x":1},' +
    '"list":[{"prototype":2,"ok":3}],"deep":{"__proto__":{"y":1},"keep":true}}}';
  const res = await call(ctx, "POST", "/api/test/echo", { rawBody });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    parsed: { a: 1, nested: { list: [{ ok: 3 }], deep: { keep: true } } },
  });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("a body is parsed once: every c.req.json() is the parser's value", async () => {
  await using ctx = await appWithProbes();
  const res = await call(ctx, "POST", "/api/test/same", {
    rawBody: '{"raw":"x","constructor":{"x":1}}',
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { same: true });
});

Deno.test("bodies over 2 MiB get 413, with or without Content-Length", async () => {
  await using ctx = await appWithProbes();
  const big = "x".repeat(2 * 1024 * 1024 + 1);
  const declared = await call(ctx, "POST", "/api/test/validate", { rawBody: big });
  assert.equal(declared.status, 413);
  assert.deepEqual(declared.body, TOO_LARGE);
  assertJsonType(declared.headers);

  const chunk = new TextEncoder().encode("y".repeat(64 * 1024));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < 40) controller.enqueue(chunk);
      else controller.close();
    },
  });
  const res = await ctx.app.request("/api/test/echo", {
    method: "POST",
    body: stream,
    // @ts-ignore: duplex is required for streaming request bodies
    duplex: "half",
  });
  assert.equal(res.status, 413);
  assert.deepEqual(await res.json(), TOO_LARGE);

  const exact = await call(ctx, "POST", "/api/test/echo", {
    rawBody: JSON.stringify({ s: "z".repeat(2 * 1024 * 1024 - 10) }),
  });
  assert.equal(exact.status, 200, "a body of exactly the limit is accepted");
});

Deno.test("errors are {error} JSON with extra fields; 500 hides internals", async () => {
  await using ctx = await appWithProbes();
  const boom = await call(ctx, "GET", "/api/test/boom");
  assert.equal(boom.status, 500);
  assert.deepEqual(boom.body, { error: "Internal server error" });
  assertJsonType(boom.headers);
  assert.ok(ctx.logs.some((l) => l.includes("unhandled error")));

  const plan = await call(ctx, "GET", "/api/test/plan");
  assert.equal(plan.status, 429);
  assert.deepEqual(plan.body, {
    error: "Monthly limit reached",
    reason: "plan_limit_reached",
    cap: 100,
    used: 100,
  });
});

Deno.test("unknown /api routes and PUT are 404 {error: Not found}", async () => {
  await using ctx = await appWithProbes();
  for (
    const [method, path] of [["GET", "/api/nope"], ["POST", "/api/x/y"], ["PUT", "/api/healthz"]]
  ) {
    const res = await call(ctx, method, path, method === "GET" ? {} : { body: {} });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.deepEqual(res.body, { error: "Not found" });
    assertJsonType(res.headers);
  }
});

Deno.test("CORS headers on every response; OPTIONS on any path is 204 with no body", async () => {
  await using ctx = await appWithProbes();
  for (const path of ["/api/healthz", "/api/nope", "/api/test/boom"]) {
    const res = await ctx.app.request(path);
    await res.body?.cancel();
    for (const [k, v] of Object.entries(CORS)) assert.equal(res.headers.get(k), v, `${path} ${k}`);
  }
  for (const path of ["/api/orders", "/anything/else", "/api"]) {
    const res = await ctx.app.request(path, {
      method: "OPTIONS",
      headers: { origin: "https://x.example", "access-control-request-method": "POST" },
    });
    assert.equal(res.status, 204);
    assert.equal(await res.text(), "");
    for (const [k, v] of Object.entries(CORS)) assert.equal(res.headers.get(k), v);
  }
});

Deno.test("CORS_ORIGINS restricts which origins are allowed", async () => {
  await using ctx = await appWithProbes({ CORS_ORIGINS: "https://app.example,https://b.example" });
  const allowed = await ctx.app.request("/api/healthz", {
    headers: { origin: "https://b.example" },
  });
  await allowed.body?.cancel();
  assert.equal(allowed.headers.get("access-control-allow-origin"), "https://b.example");
  assert.equal(allowed.headers.get("vary"), "Origin");
  const other = await ctx.app.request("/api/healthz", {
    headers: { origin: "https://evil.example" },
  });
  await other.body?.cancel();
  assert.equal(other.headers.get("access-control-allow-origin"), null);
});

Deno.test("Strict-Transport-Security on every response when BASE_URL is https:, never on http:", async () => {
  await using secure = await appWithProbes({ BASE_URL: "https://orders.example.com" });
  for (
    const [path, method] of [["/api/healthz", "GET"], ["/api/nope", "GET"], ["/", "GET"], [
      "/api/orders",
      "OPTIONS",
    ]]
  ) {
    const res = await secure.app.request(path, { method });
    await res.body?.cancel();
    assert.equal(res.headers.get("strict-transport-security"), "max-age=31536000", path);
  }
  await using plain = await appWithProbes({ BASE_URL: "http://localhost:8000" });
  const res = await plain.app.request("/api/healthz");
  await res.body?.cancel();
  assert.equal(res.headers.get("strict-transport-security"), null);
});

Deno.test("healthz reports service facts and is never cached", async () => {
  await using ctx = await appWithProbes();
  const res = await call(ctx, "GET", "/api/healthz");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assertJsonType(res.headers);
  const body = res.body as Record<string, unknown>;
  assert.equal(body.ok, true);
  assert.equal(typeof body.uptimeMs, "number");
  assert.equal(body.version, "0.2.0");
  assert.equal(typeof body.node, "string");
  assert.equal(body.persistence, "memory");
  assert.deepEqual(body.counts, { users: 0, orders: 0 });
  // A test app skips the start-up migrations: its store has not had any.
  assert.deepEqual(body.layout, { version: 0, pending: LAYOUT_VERSION });
});

Deno.test("healthz answers 503 when storage fails", async () => {
  const ctx = await appWithProbes();
  ctx.kv.close();
  const res = await call(ctx, "GET", "/api/healthz");
  assert.equal(res.status, 503);
  assert.equal(res.body.ok, false);
  assert.equal(res.body.error, "Storage is unhealthy");
  await ctx.deps.apiKeyUse.flush();
});

Deno.test("request logs carry method, path, status, duration and id; never query or tokens", async () => {
  await using ctx = await appWithProbes();
  await call(ctx, "GET", "/api/nope?key=s3cret-inbound-key", { token: "sk_secretvalue" });
  const line = ctx.logs.map((l) => JSON.parse(l)).find((l) => l.msg === "request");
  assert.ok(line);
  assert.equal(line.method, "GET");
  assert.equal(line.path, "/api/nope");
  assert.equal(line.status, 404);
  assert.equal(typeof line.durationMs, "number");
  assert.match(line.requestId, /^[\w-]+$/);
  const all = ctx.logs.join("\n");
  assert.ok(!all.includes("s3cret") && !all.includes("sk_secretvalue"));
});

Deno.test("client IP is the first X-Forwarded-For address", async () => {
  await using ctx = await appWithProbes();
  const res = await call(ctx, "GET", "/api/test/ip", {
    headers: { "x-forwarded-for": " 203.0.113.9 , 10.0.0.1" },
  });
  assert.deepEqual(res.body, { ip: "203.0.113.9" });
});

Deno.test("found: every kind of absence is the same 404; a value passes through", () => {
  const record = { id: "ord_1" };
  assert.equal(found(record), record);
  assert.equal(found(true), true);
  assert.equal(found(0), 0, "falsy values other than false are values");
  for (const absent of [null, undefined, false]) {
    assert.throws(
      () => found(absent, "Order not found"),
      (e: unknown) => e instanceof ApiError && e.status === 404 && e.message === "Order not found",
    );
  }
});

Deno.test("a body that fails mid-read is a 400, not a 500", async () => {
  await using ctx = await appWithProbes();
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new Error("connection reset"));
      sent = true;
      controller.enqueue(new TextEncoder().encode('{"itemSummary":'));
    },
  });
  const res = await ctx.app.request("/api/test/validate", {
    method: "POST",
    body,
    // @ts-ignore: duplex is required for streaming request bodies
    duplex: "half",
  });
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), { error: "Request body could not be read" });
});
