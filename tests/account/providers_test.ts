import assert from "node:assert/strict";
import { call, testApp } from "../helpers.ts";

Deno.test("providers: only password sign-in by default", async () => {
  await using ctx = await testApp();
  const res = await call(ctx, "GET", "/api/auth/providers");
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    password: true,
    botCheck: false,
    atlas: { enabled: false },
    discord: { enabled: false },
  });
});

Deno.test("providers: configured methods are on, with what a client needs to start them", async () => {
  await using ctx = await testApp({
    TURNSTILE_SECRET_KEY: "secret",
    ATLAS_ISSUER: "https://signin.example.com",
    ATLAS_AUDIENCE: "order-tracker",
    DISCORD_CLIENT_ID: "1234567890",
  });
  const res = await call(ctx, "GET", "/api/auth/providers");
  assert.deepEqual(res.body, {
    password: true,
    botCheck: true,
    atlas: { enabled: true, issuer: "https://signin.example.com" },
    discord: { enabled: true, clientId: "1234567890" },
  });
  assert.ok(!JSON.stringify(res.body).includes("secret"));
});
