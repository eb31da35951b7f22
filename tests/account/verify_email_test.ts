import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { sha256Hex } from "../../src/lib/crypto.ts";
import { keys } from "../../src/store/keys.ts";
import { VERIFICATION_TTL_MS } from "../../src/store/account/email_verifications.ts";
import { kvLines } from "./kv_scan.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { fakeSmtp } from "./fakes.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;

const BASE_URL = "https://track.example.com";

function linkToken(text: string): string {
  const unfolded = text.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const found = unfolded.match(/https:\/\/track\.example\.com\/verify-email\?token=([\w-]+)/);
  ok(found, `the mail carries the verification link: ${text}`);
  return found[1];
}

Deno.test("register mails a verification link over SMTP; confirming sets emailVerified once", async () => {
  await using smtp = await fakeSmtp();
  await using ctx = await testApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: "no-reply@track.example.com",
    BASE_URL,
  });
  const registered = await call<Body>(ctx, "POST", "/api/auth/register", {
    body: { email: "Sam@Example.com", password: "long enough 1" },
  });
  equal(registered.status, 201);
  equal(registered.body.user.emailVerified, false);
  const [mail] = await smtp.waitFor(1);
  eq(mail.to, ["sam@example.com"]);
  match(mail.raw, /^Subject: Confirm your email address$/m);
  const token = linkToken(mail.raw);
  ok((await kvLines(ctx.kv)).every((line) => !line.includes(token)), "stored hashed");

  const confirmed = await call<Body>(ctx, "POST", "/api/auth/verify-email", { body: { token } });
  equal(confirmed.status, 200);
  equal(confirmed.body.user.emailVerified, true);
  equal(confirmed.body.user.email, "sam@example.com");
  const me = await call<Body>(ctx, "GET", "/api/auth/me", { token: registered.body.token });
  equal(me.body.user.emailVerified, true);
  // Used: refused, and nothing of it is left.
  const again = await call<Body>(ctx, "POST", "/api/auth/verify-email", { body: { token } });
  eq([again.status, again.body], [400, {
    error: "Verification token is invalid, used or expired",
  }]);
  equal(
    await ctx.kv.get(keys.emailVerification(await sha256Hex(token))).then((e) => e.value),
    null,
  );
  // A verified account asks for nothing more.
  const asked = await call(ctx, "POST", "/api/auth/verify-email/request", {
    token: registered.body.token,
  });
  eq([asked.status, asked.body], [200, { ok: true }]);
  await ctx.deps.background.drain();
  equal(smtp.mail.length, 1);
});

Deno.test("verification on request (session or API key); links expire after 24 hours", async () => {
  let now = Date.parse("2026-03-01T10:00:00.000Z");
  await using ctx = await testApp({ BASE_URL }, { now: () => now });
  const { token } = await signUp(ctx, { email: "kim@example.com" });
  // Without SMTP_URL, register-style mails are not sent by signUp; the request writes to the log.
  const ask = async (auth: string) => {
    const res = await call(ctx, "POST", "/api/auth/verify-email/request", { token: auth });
    equal(res.status, 200);
    await ctx.deps.background.drain();
    return linkToken(JSON.parse(ctx.logs.findLast((l) => l.includes("verify-email?token="))!).text);
  };
  const first = await ask(token);
  const key = await call<Body>(ctx, "POST", "/api/account/api-keys", {
    token,
    body: { name: "k" },
  });
  const second = await ask(key.body.key);
  now += VERIFICATION_TTL_MS;
  const expired = await call(ctx, "POST", "/api/auth/verify-email", { body: { token: first } });
  equal(expired.status, 400);
  now -= 1000;
  const fine = await call<Body>(ctx, "POST", "/api/auth/verify-email", { body: { token: second } });
  equal(fine.body.user.emailVerified, true);
  for (const body of [{}, { token: "" }, { token: "nope" }]) {
    equal((await call(ctx, "POST", "/api/auth/verify-email", { body })).status, 400);
  }
  equal((await call(ctx, "POST", "/api/auth/verify-email/request")).status, 401);
  // Three requests a minute per account.
  const { token: other } = await signUp(ctx);
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push(
      (await call(ctx, "POST", "/api/auth/verify-email/request", { token: other })).status,
    );
  }
  eq(statuses, [200, 200, 200, 429]);
});
