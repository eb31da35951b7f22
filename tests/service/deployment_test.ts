import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { SecretBox } from "../../src/lib/secret_box.ts";
import { CURRENCIES } from "../../src/domain/insights/currency.ts";
import { checkSecretsKey, SECRETS_MISMATCH_TEXT } from "../../src/store/secrets_check.ts";
import { call, signUp, testApp } from "../helpers.ts";

Deno.test("GET /api/deployment: a bare deployment says mail cannot arrive, nothing goes out", async () => {
  await using ctx = await testApp({ PORT: "8000" });
  equal((await call(ctx, "GET", "/api/deployment")).status, 401);
  const { token } = await signUp(ctx);
  const res = await call(ctx, "GET", "/api/deployment", { token });
  eq([res.status, res.body], [200, {
    baseUrl: "http://localhost:8000",
    baseUrlLocal: true,
    mail: {
      domain: "inbound.localhost",
      mailWorker: false,
      canArrive: false,
      missing: ["SMTP_PORT or INBOUND_MAIL_KEY", "MAIL_DOMAIN"],
      imapPollMinutes: 5,
    },
    outgoingMail: false,
    billing: false,
    registration: "open",
    currencies: [...CURRENCIES],
    secretsKey: "ok",
  }]);
});

Deno.test("GET /api/deployment: a configured one can receive and send; no secret is shown", async () => {
  const key = "worker-key-".repeat(4);
  await using ctx = await testApp({
    BASE_URL: "https://orders.example.org",
    MAIL_DOMAIN: "in.example.org",
    INBOUND_MAIL_KEY: key,
    SMTP_URL: "smtp://user:pass@mail.example.org:587",
    MAIL_FROM: "orders@example.org",
    BILLING_ENABLED: "true",
  });
  const { token } = await signUp(ctx);
  const res = await call(ctx, "GET", "/api/deployment", { token });
  eq(res.body, {
    baseUrl: "https://orders.example.org",
    baseUrlLocal: false,
    mail: {
      domain: "in.example.org",
      mailWorker: true,
      canArrive: true,
      missing: [],
      imapPollMinutes: 5,
    },
    outgoingMail: true,
    billing: true,
    registration: "open",
    currencies: [...CURRENCIES],
    secretsKey: "ok",
  });
  const text = JSON.stringify(res.body);
  equal(text.includes(key) || text.includes("pass"), false);
});

Deno.test("a KV whose secrets another key sealed (a restore without secrets.key) says so", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  // The KV as restored: its check was sealed by the original key, which this process lacks.
  const original = new SecretBox(crypto.getRandomValues(new Uint8Array(32)));
  equal(await checkSecretsKey(ctx.kv, original, { write: true }), "ok");
  equal(await checkSecretsKey(ctx.kv, original), "ok", "the original key still opens it");
  equal(await checkSecretsKey(ctx.kv, ctx.deps.secrets), "mismatch");
  const res = await call(ctx, "GET", "/api/deployment", { token });
  eq([res.body.secretsKey, res.body.secretsProblem], ["mismatch", SECRETS_MISMATCH_TEXT]);
});
