import assert from "node:assert/strict";
import { call, testApp } from "../helpers.ts";

const ENDPOINTS = [
  "/api/auth/register",
  "/api/auth/login",
  "/api/auth/forgot-password",
  "/api/auth/reset-password",
  "/api/auth/atlas-login",
  "/api/auth/discord/widget-verify",
];

Deno.test("rate limit: the six session-issuing endpoints share 10 a minute per client IP", async () => {
  await using ctx = await testApp();
  const from = (ip: string) => ({ body: {}, headers: { "x-forwarded-for": `${ip}, 10.0.0.1` } });
  // Ten requests spread over all six endpoints use up the shared window.
  for (let i = 0; i < 10; i++) {
    const res = await call(ctx, "POST", ENDPOINTS[i % 6], from("203.0.113.5"));
    assert.notEqual(res.status, 429, `request ${i + 1}`);
  }
  for (const path of ENDPOINTS) {
    const res = await call(ctx, "POST", path, from("203.0.113.5"));
    assert.equal(res.status, 429, path);
    assert.equal(res.headers.get("retry-after"), "60");
    assert.equal(typeof res.body.error, "string");
  }
  const other = await call(ctx, "POST", "/api/auth/login", from("203.0.113.6"));
  assert.equal(other.status, 400, "another client has its own window");
  const signedIn = await call(ctx, "GET", "/api/auth/providers", {
    headers: { "x-forwarded-for": "203.0.113.5" },
  });
  assert.equal(signedIn.status, 200, "other endpoints are not limited");
});

/** `POST /api/auth/login` with an empty body (400 while the window has room, then 429). */
async function login(ctx: Parameters<typeof call>[0], remoteAddr: string, forwardedFor?: string) {
  const headers: Record<string, string> = forwardedFor ? { "x-forwarded-for": forwardedFor } : {};
  return (await call(ctx, "POST", "/api/auth/login", { body: {}, headers, remoteAddr })).status;
}

Deno.test("rate limit with TRUSTED_PROXIES: a direct client cannot dodge it by rotating X-Forwarded-For", async () => {
  await using ctx = await testApp({ TRUSTED_PROXIES: "10.0.0.0/8" });
  for (let i = 0; i < 10; i++) {
    assert.equal(await login(ctx, "203.0.113.5", `198.51.100.${i}`), 400, `request ${i + 1}`);
  }
  assert.equal(await login(ctx, "203.0.113.5", "198.51.100.99"), 429);
  assert.equal(await login(ctx, "203.0.113.6"), 400, "another direct client has its own window");
});

Deno.test("rate limit with TRUSTED_PROXIES: behind a listed proxy, the address it appended counts", async () => {
  await using ctx = await testApp({ TRUSTED_PROXIES: "10.0.0.0/8" });
  // The client prepends a new address each time; the proxy appends the one it saw.
  for (let i = 0; i < 10; i++) {
    assert.equal(await login(ctx, "10.0.0.1", `192.0.2.${i}, 198.51.100.7`), 400);
  }
  assert.equal(await login(ctx, "10.0.0.1", "192.0.2.99, 198.51.100.7"), 429);
  assert.equal(await login(ctx, "10.0.0.2", "198.51.100.7, 10.0.0.1"), 429, "two proxy hops");
  assert.equal(await login(ctx, "10.0.0.1", "198.51.100.8"), 400, "another client");
});
