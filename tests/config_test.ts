import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../src/config.ts";

Deno.test("defaults follow CONTRACT.md", () => {
  const c = loadConfig({});
  assert.equal(c.port, 8000);
  assert.equal(c.host, "0.0.0.0");
  assert.equal(c.listenerRecycleSeconds, 0);
  assert.equal(c.kvPath, "./data/kv.sqlite3");
  assert.equal(c.persistence, "sqlite");
  assert.equal(c.deploy, false);
  assert.equal(c.eventsTransport, undefined);
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
  assert.deepEqual(c.smtpReceiver, {
    port: undefined,
    host: "0.0.0.0",
    tlsCertFile: undefined,
    tlsKeyFile: undefined,
  });
  assert.equal(c.imapPollMinutes, 5);
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
    SMTP_PORT: "2525",
    SMTP_TLS_CERT: "/etc/mail/cert.pem",
    SMTP_TLS_KEY: "/etc/mail/key.pem",
    IMAP_POLL_MINUTES: "15",
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
  assert.deepEqual(c.smtpReceiver, {
    port: 2525,
    host: "0.0.0.0",
    tlsCertFile: "/etc/mail/cert.pem",
    tlsKeyFile: "/etc/mail/key.pem",
  });
  assert.equal(c.imapPollMinutes, 15);
  assert.equal(loadConfig({ HOST: "::", SMTP_HOST: "127.0.0.1" }).smtpReceiver.host, "127.0.0.1");
  assert.equal(loadConfig({ HOST: "::" }).smtpReceiver.host, "::");
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
    { SMTP_PORT: "65536" },
    { IMAP_POLL_MINUTES: "0" },
    { IMAP_POLL_MINUTES: "60" },
    { SMTP_TLS_CERT: "/etc/mail/cert.pem" },
    { SMTP_TLS_KEY: "/etc/mail/key.pem" },

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

Deno.test("on Deno Deploy: the app's KV, no key file, no queue", () => {
  const SECRETS_KEY = new Uint8Array(32).fill(3).toBase64();
  for (const env of [{ DENO_DEPLOYMENT_ID: "abc123" }, { DENO_DEPLOY: "1" }]) {
    const c = loadConfig({ ...env, SECRETS_KEY });
    assert.equal(c.deploy, true);
    assert.equal(c.kvPath, undefined);
    assert.equal(c.persistence, "deploy");
  }
  // A managed KV through KV Connect is a choice there too.
  const remote = loadConfig({
    DENO_DEPLOYMENT_ID: "abc123",
    SECRETS_KEY,
    KV_PATH: "https://api.deno.com/v2/databases/0f0f/connect",
  });
  assert.equal(remote.persistence, "remote");
  const refused: [Record<string, string>, string][] = [
    [{ DENO_DEPLOYMENT_ID: "abc123" }, "Invalid SECRETS_KEY: required on Deno Deploy"],
    [{ DENO_DEPLOY: "1", SECRETS_KEY, KV_PATH: "./data/kv.sqlite3" }, "Invalid KV_PATH"],
    [{ DENO_DEPLOY: "1", SECRETS_KEY, KV_PATH: ":memory:" }, "Invalid KV_PATH"],
    [{ DENO_DEPLOY: "1", SECRETS_KEY, EVENTS_TRANSPORT: "queue" }, "Invalid EVENTS_TRANSPORT"],
  ];
  for (const [env, message] of refused) {
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && err.message.startsWith(message),
      JSON.stringify(env),
    );
  }
});

Deno.test("EVENTS_TRANSPORT: either transport on a local KV, only the outbox on KV Connect", () => {
  assert.equal(loadConfig({ EVENTS_TRANSPORT: "outbox" }).eventsTransport, "outbox");
  assert.equal(loadConfig({ EVENTS_TRANSPORT: "queue" }).eventsTransport, "queue");
  const url = "https://kv.example.com/db";
  assert.equal(loadConfig({ KV_PATH: url, EVENTS_TRANSPORT: "outbox" }).eventsTransport, "outbox");
  assert.throws(() => loadConfig({ KV_PATH: url, EVENTS_TRANSPORT: "queue" }), /EVENTS_TRANSPORT/);
  assert.throws(() => loadConfig({ EVENTS_TRANSPORT: "kafka" }), /Invalid EVENTS_TRANSPORT/);
});

Deno.test("carriers: production bases and tracking defaults (CONTRACT.md Carriers)", () => {
  const c = loadConfig({});
  assert.deepEqual(c.carriers, {
    ups: { clientId: undefined, clientSecret: undefined, apiBase: "https://onlinetools.ups.com" },
    fedex: { clientId: undefined, clientSecret: undefined, apiBase: "https://apis.fedex.com" },
    usps: { clientId: undefined, clientSecret: undefined, apiBase: "https://apis.usps.com" },
    dhl: { apiKey: undefined, apiBase: "https://api-eu.dhl.com" },
  });
  assert.deepEqual(c.tracking, { cacheMinutes: 15, pollMinutes: 30, dailyBudget: 1000 });
  const set = loadConfig({
    FEDEX_API_KEY: "key",
    FEDEX_SECRET_KEY: "secret",
    FEDEX_API_BASE: "https://apis-sandbox.fedex.com/",
    DHL_API_KEY: "dhl",
    TRACKING_CACHE_MINUTES: "0",
    TRACKING_POLL_MINUTES: "120",
    TRACKING_DAILY_BUDGET: "250",
  });
  assert.deepEqual(set.carriers.fedex, {
    clientId: "key",
    clientSecret: "secret",
    apiBase: "https://apis-sandbox.fedex.com",
  });
  assert.equal(set.carriers.dhl.apiKey, "dhl");
  assert.deepEqual(set.tracking, { cacheMinutes: 0, pollMinutes: 120, dailyBudget: 250 });
});

Deno.test("carriers: credentials come in pairs; the poll period must fit the clock", () => {
  const bad: [Record<string, string>, string][] = [
    [{ UPS_CLIENT_ID: "id" }, "Invalid UPS_CLIENT_SECRET: required when UPS_CLIENT_ID is set"],
    [
      { USPS_CLIENT_SECRET: "s" },
      "Invalid USPS_CLIENT_ID: required when USPS_CLIENT_SECRET is set",
    ],
    [{ FEDEX_API_KEY: "k" }, "Invalid FEDEX_SECRET_KEY: required when FEDEX_API_KEY is set"],
    [{ TRACKING_POLL_MINUTES: "45" }, "Invalid TRACKING_POLL_MINUTES"],
    [{ TRACKING_POLL_MINUTES: "90" }, "Invalid TRACKING_POLL_MINUTES"],
    [{ TRACKING_DAILY_BUDGET: "-1" }, "Invalid TRACKING_DAILY_BUDGET"],
    [{ DHL_API_BASE: "not a url" }, "Invalid DHL_API_BASE"],
  ];
  for (const [env, message] of bad) {
    assert.throws(
      () => loadConfig(env),
      (e) => e instanceof ConfigError && e.message.startsWith(message),
    );
  }
  for (const minutes of ["0", "1", "5", "15", "30", "60", "180", "1440"]) {
    assert.equal(
      loadConfig({ TRACKING_POLL_MINUTES: minutes }).tracking.pollMinutes,
      Number(minutes),
    );
  }
});
