import assert from "node:assert/strict";
import { sha256Hex } from "../../src/lib/crypto.ts";
import { keys } from "../../src/store/keys.ts";
import { RESET_TTL_MS } from "../../src/store/account/password_resets.ts";
import { kvLines } from "./kv_scan.ts";
import { call, testApp } from "../helpers.ts";
import { fakeSmtp } from "./fakes.ts";

const BASE_URL = "https://track.example.com";
const OLD = "old password 1";
const NEW = "new password 2";

async function register(ctx: Awaited<ReturnType<typeof testApp>>) {
  const res = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: OLD },
  });
  return res.body.token as string;
}

/** The token of the reset link in a message text. */
function linkToken(text: string): string {
  const match = text.match(/https:\/\/track\.example\.com\/reset-password\?token=([\w-]+)/);
  assert.ok(match, `the mail carries the reset link: ${text}`);
  return match[1];
}

/** The text of a raw message, undoing quoted-printable when the message uses it. */
function mailText(raw: string): string {
  const [head, ...body] = raw.split(/\r?\n\r?\n/);
  const text = body.join("\n\n");
  if (!/^Content-Transfer-Encoding: quoted-printable$/im.test(head)) return text;
  return text.replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

Deno.test("forgot/reset: the link arrives over SMTP, resets the password and ends old sessions", async () => {
  await using smtp = await fakeSmtp();
  await using ctx = await testApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Order Tracker <no-reply@track.example.com>",
    BASE_URL,
  });
  const oldSession = await register(ctx);

  const forgot = await call(ctx, "POST", "/api/auth/forgot-password", {
    body: { email: " SAM@example.com " },
  });
  assert.equal(forgot.status, 200);
  assert.deepEqual(forgot.body, { ok: true });
  // Register mailed its verification link first.
  const mail = (await smtp.waitFor(2)).find((m) => /^Subject: Reset your password$/m.test(m.raw))!;
  assert.deepEqual(mail.to, ["sam@example.com"]);
  assert.equal(mail.from, "no-reply@track.example.com");
  assert.match(mail.raw, /^Subject: Reset your password$/m);
  const token = linkToken(mailText(mail.raw));
  assert.ok((await kvLines(ctx.kv)).every((line) => !line.includes(token)), "stored hashed");
  assert.ok(await ctx.kv.get(keys.passwordReset(await sha256Hex(token))).then((e) => e.value));

  const reset = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token, password: NEW },
  });
  assert.equal(reset.status, 200);
  assert.match(reset.body.token as string, /^[0-9a-f]{64}$/);
  const user = reset.body.user as Record<string, unknown>;
  assert.equal(user.email, "sam@example.com");
  assert.equal(user.emailVerified, true, "the link proved the mailbox");

  assert.equal((await call(ctx, "GET", "/api/auth/me", { token: oldSession })).status, 401);
  const fresh = await call(ctx, "GET", "/api/auth/me", { token: reset.body.token as string });
  assert.equal(fresh.status, 200);
  const oldLogin = await call(ctx, "POST", "/api/auth/login", {
    body: { email: "sam@example.com", password: OLD },
  });
  assert.equal(oldLogin.status, 401);
  const newLogin = await call(ctx, "POST", "/api/auth/login", {
    body: { email: "sam@example.com", password: NEW },
  });
  assert.equal(newLogin.status, 200);

  const reused = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token, password: "another password" },
  });
  assert.equal(reused.status, 400);
  assert.deepEqual(reused.body, { error: "Reset token is invalid, used or expired" });
});

Deno.test("forgot: unknown emails answer the same and send nothing", async () => {
  await using smtp = await fakeSmtp();
  await using ctx = await testApp({ SMTP_URL: smtp.url, MAIL_FROM: "a@example.com", BASE_URL });
  const res = await call(ctx, "POST", "/api/auth/forgot-password", {
    body: { email: "nobody@example.com" },
  });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { ok: true });
  await ctx.deps.background.drain();
  assert.equal(smtp.mail.length, 0);
  const missing = await call(ctx, "POST", "/api/auth/forgot-password", { body: {} });
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { error: "email is required" });
});

Deno.test("reset: tokens expire after one hour; unknown tokens are refused", async () => {
  let now = Date.parse("2026-03-01T10:00:00.000Z");
  await using ctx = await testApp({ BASE_URL }, { now: () => now });
  await register(ctx);
  const ask = async () => {
    await call(ctx, "POST", "/api/auth/forgot-password", { body: { email: "sam@example.com" } });
    await ctx.deps.background.drain();
    const line = ctx.logs.findLast((l) => l.includes("reset-password?token="))!;
    return linkToken(JSON.parse(line).text);
  };
  const first = await ask();
  now += RESET_TTL_MS;
  const expired = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token: first, password: NEW },
  });
  assert.equal(expired.status, 400);
  assert.deepEqual(expired.body, { error: "Reset token is invalid, used or expired" });

  const second = await ask();
  now += RESET_TTL_MS - 1;
  const unknown = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token: "made-up-token", password: NEW },
  });
  assert.equal(unknown.status, 400);
  const ok = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token: second, password: NEW },
  });
  assert.equal(ok.status, 200);
});

Deno.test("reset: a reset spends every other outstanding token of the account", async () => {
  await using ctx = await testApp({ BASE_URL });
  await register(ctx);
  for (let i = 0; i < 2; i++) {
    await call(ctx, "POST", "/api/auth/forgot-password", { body: { email: "sam@example.com" } });
  }
  await ctx.deps.background.drain();
  const [a, b] = ctx.logs.filter((l) => l.includes("reset-password?token="))
    .map((l) => linkToken(JSON.parse(l).text));
  assert.equal(
    (await call(ctx, "POST", "/api/auth/reset-password", {
      body: { token: a, password: NEW },
    })).status,
    200,
  );
  const other = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token: b, password: "third password" },
  });
  assert.equal(other.status, 400);
});

Deno.test("reset: the new password follows the register rules", async () => {
  await using ctx = await testApp();
  const res = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { token: "x", password: "short" },
  });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body, { error: "password: must be 8 to 256 characters" });
  const noToken = await call(ctx, "POST", "/api/auth/reset-password", {
    body: { password: NEW },
  });
  assert.deepEqual(noToken.body, { error: "token is required" });
});

Deno.test("mail without SMTP_URL goes to the log (link included, never a password)", async () => {
  await using ctx = await testApp({ BASE_URL });
  await register(ctx);
  await call(ctx, "POST", "/api/auth/forgot-password", { body: { email: "sam@example.com" } });
  await ctx.deps.background.drain();
  const line = JSON.parse(ctx.logs.find((l) => l.includes("SMTP_URL is unset"))!);
  assert.equal(line.to, "sam@example.com");
  assert.equal(line.subject, "Reset your password");
  assert.match(line.text, /https:\/\/track\.example\.com\/reset-password\?token=[\w-]{43}/);
  assert.ok(ctx.logs.every((l) => !l.includes(OLD)));
});

Deno.test("mail: an SMTP server that is down is logged, the answer stays {ok: true}", async () => {
  const smtp = await fakeSmtp();
  const url = smtp.url;
  await smtp.close();
  await using ctx = await testApp({ SMTP_URL: url, MAIL_FROM: "a@example.com", BASE_URL });
  await register(ctx);
  const res = await call(ctx, "POST", "/api/auth/forgot-password", {
    body: { email: "sam@example.com" },
  });
  assert.deepEqual(res.body, { ok: true });
  await ctx.deps.background.drain();
  assert.ok(ctx.logs.some((l) => l.includes("password-reset mail failed")));
});
