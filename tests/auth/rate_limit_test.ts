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
