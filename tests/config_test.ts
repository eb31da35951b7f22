import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../src/config.ts";

Deno.test("defaults follow CONTRACT.md", () => {
  const c = loadConfig({});
  assert.equal(c.port, 8000);
  assert.equal(c.host, "0.0.0.0");
  assert.equal(c.listenerRecycleSeconds, 0);
  assert.equal(c.kvPath, "./data/kv.sqlite3");
  assert.equal(c.baseUrl, "http://localhost:8000");
  assert.equal(c.mailDomain, "inbound.localhost");
  assert.equal(c.billingEnabled, false);
  assert.equal(c.freePlanMonthlyOrders, 100);
  assert.equal(c.inboundMailKey, undefined);
  assert.equal(c.secretsKey, undefined);
  assert.deepEqual(c.allowedPrivateAddresses, []);
  assert.deepEqual(c.trustedProxies, []);
  assert.equal(c.corsOrigins, "*");
  assert.equal(c.turnstile.verifyUrl, "https://challenges.cloudflare.com/turnstile/v0/siteverify");
  assert.deepEqual(c.communityFeed, { url: undefined, name: "Checkout Feed" });
  assert.equal(c.logLevel, "info");
});

Deno.test("values are parsed and typed", () => {
  const key = new Uint8Array(32).fill(7);
  const c = loadConfig({
    PORT: "9001",
    LISTENER_RECYCLE_SECONDS: "30",
    BASE_URL: "https://track.example.com/",
    BILLING_ENABLED: "true",
    FREE_PLAN_MONTHLY_ORDERS: "5",
    SECRETS_KEY: key.toBase64(),
    ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1, 10.0.0.0/8",
    TRUSTED_PROXIES: "::1, 172.16.0.0/12",
    CORS_ORIGINS: "https://a.example, https://b.example",
    COMMUNITY_FEED_URL: "https://chat.example/api/webhooks/1/x",
    COMMUNITY_FEED_NAME: " Cook Wins ",
    LOG_LEVEL: "warn",
  });
  assert.equal(c.port, 9001);
  assert.equal(c.listenerRecycleSeconds, 30);
  assert.equal(c.baseUrl, "https://track.example.com");
  assert.equal(c.billingEnabled, true);
  assert.equal(c.freePlanMonthlyOrders, 5);
  assert.deepEqual(c.secretsKey, key);
  assert.deepEqual(c.allowedPrivateAddresses, ["127.0.0.1", "10.0.0.0/8"]);
  assert.deepEqual(c.trustedProxies, ["::1", "172.16.0.0/12"]);
  assert.deepEqual(c.corsOrigins, ["https://a.example", "https://b.example"]);
  assert.deepEqual(c.communityFeed, {
    url: "https://chat.example/api/webhooks/1/x",
    name: "Cook Wins",
  });
  assert.equal(c.logLevel, "warn");
});

Deno.test("a bad value names its variable", () => {
  const cases: Record<string, string>[] = [
    { PORT: "abc" },
    { PORT: "70000" },
    { LISTENER_RECYCLE_SECONDS: "-1" },
    { LISTENER_RECYCLE_SECONDS: "1.5" },
    { BILLING_ENABLED: "yes" },
    { FREE_PLAN_MONTHLY_ORDERS: "-1" },
    { SECRETS_KEY: "c2hvcnQ=" },
    { LOG_LEVEL: "loud" },
    { BASE_URL: "not a url" },
    { TRUSTED_PROXIES: "10.0.0.1, proxy.internal" },
    { COMMUNITY_FEED_URL: "chat.example/hook" },
    { COMMUNITY_FEED_NAME: "x".repeat(81) },
  ];
  for (const env of cases) {
    const name = Object.keys(env)[0];
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && err.message.includes(name),
      name,
    );
  }
});
