import assert from "node:assert/strict";
import { call, testApp } from "../helpers.ts";

/** Every accounts endpoint with the statuses it documents. */
const DOCUMENTED: [string, string, string[]][] = [
  ["post", "/api/auth/register", ["201", "400", "403", "409", "413", "429", "500", "502"]],
  ["post", "/api/auth/login", ["200", "400", "401", "413", "429", "500", "502"]],
  ["post", "/api/auth/forgot-password", ["200", "400", "413", "429", "500"]],
  ["post", "/api/auth/reset-password", ["200", "400", "413", "429", "500"]],
  ["post", "/api/auth/atlas-login", [
    "200",
    "400",
    "401",
    "403",
    "409",
    "413",
    "429",
    "500",
    "502",
    "503",
  ]],
  ["post", "/api/auth/discord/widget-verify", [
    "200",
    "400",
    "401",
    "403",
    "409",
    "413",
    "429",
    "500",
    "502",
    "503",
  ]],
  ["post", "/api/auth/change-password", ["200", "400", "401", "413", "429", "500"]],
  ["delete", "/api/auth/sessions", ["200", "401", "413", "500"]],
  ["delete", "/api/auth/identities/{provider}", ["200", "401", "404", "409", "413", "500"]],
  ["get", "/api/auth/providers", ["200", "500"]],
  ["delete", "/api/auth/session", ["200", "413", "500"]],
  ["get", "/api/auth/me", ["200", "401", "500"]],
  ["get", "/api/state", ["200", "401", "500"]],
  ["post", "/api/account/api-keys", ["201", "400", "401", "413", "429", "500"]],
  ["get", "/api/account/api-keys", ["200", "401", "500"]],
  ["delete", "/api/account/api-keys/{id}", ["200", "401", "404", "413", "500"]],
  ["post", "/api/account/username", ["200", "400", "401", "409", "413", "500"]],
  ["post", "/api/account/display-name", ["200", "400", "401", "413", "500"]],
  ["post", "/api/account/visibility", ["200", "400", "401", "413", "500"]],
  ["post", "/api/account/public-stats", ["200", "400", "401", "413", "500"]],
  ["post", "/api/account/timezone", ["200", "400", "401", "413", "500"]],
  ["get", "/api/account/username/available", ["200", "400", "401", "500"]],
  ["get", "/api/account/export", ["200", "401", "500"]],
  ["delete", "/api/account", ["200", "400", "401", "413", "500"]],
  ["get", "/api/profile/{usernameOrUserId}", ["200", "404", "500"]],
  ["get", "/api/landing-stats", ["200", "500"]],
];

Deno.test("openapi: every accounts endpoint is described with its error statuses", async () => {
  await using ctx = await testApp();
  const doc = (await call(ctx, "GET", "/api/openapi.json")).body as {
    paths: Record<
      string,
      Record<string, { responses: Record<string, unknown>; security?: unknown }>
    >;
  };
  for (const [method, path, statuses] of DOCUMENTED) {
    const operation = doc.paths[path]?.[method];
    assert.ok(operation, `${method} ${path}`);
    assert.deepEqual(Object.keys(operation.responses).sort(), statuses, `${method} ${path}`);
  }
  assert.deepEqual(doc.paths["/api/account/export"].get.security, [{ Bearer: [] }]);
  assert.deepEqual(doc.paths["/api/auth/login"].post.security, []);
});

Deno.test("a body over 2 MiB is 413 on the accounts endpoints too", async () => {
  await using ctx = await testApp();
  const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(3 * 1024 * 1024) });
  const res = await call(ctx, "POST", "/api/auth/register", { rawBody: big });
  assert.equal(res.status, 413);
  assert.deepEqual(res.body, { error: "Request body too large (limit 2 MiB)." });
});
