import assert from "node:assert/strict";
import { call, testApp } from "../helpers.ts";
import { closedPort, fakeServer } from "./fakes.ts";

const SECRET = "0x4AAAAAAAtest-secret";

/** Cloudflare siteverify: form fields in, `{success, "error-codes"}` out. */
function siteverify() {
  return fakeServer((req) => {
    const form = new URLSearchParams(req.body);
    if (form.get("secret") !== SECRET) {
      return Response.json({ success: false, "error-codes": ["invalid-input-secret"] });
    }
    return form.get("response") === "good-token"
      ? Response.json({ success: true, "error-codes": [], hostname: "example.com" })
      : Response.json({ success: false, "error-codes": ["invalid-input-response"] });
  });
}

const register = (token?: string) => ({
  body: { email: "sam@example.com", password: "password123", turnstileToken: token },
  headers: { "x-forwarded-for": "203.0.113.7" },
});

Deno.test("bot-check: register needs a token the verify service accepts", async () => {
  await using verify = siteverify();
  await using ctx = await testApp({
    TURNSTILE_SECRET_KEY: SECRET,
    TURNSTILE_VERIFY_URL: `${verify.url}/turnstile/v0/siteverify`,
  });
  const missing = await call(ctx, "POST", "/api/auth/register", register());
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { error: "turnstileToken is required" });
  assert.equal(verify.received.length, 0);

  const rejected = await call(ctx, "POST", "/api/auth/register", register("bad-token"));
  assert.equal(rejected.status, 400);
  assert.deepEqual(rejected.body, { error: "Bot check failed: invalid-input-response" });

  const accepted = await call(ctx, "POST", "/api/auth/register", register("good-token"));
  assert.equal(accepted.status, 201);
  const sent = verify.received.at(-1)!;
  assert.equal(sent.method, "POST");
  assert.equal(sent.path, "/turnstile/v0/siteverify");
  assert.match(sent.headers.get("content-type")!, /^application\/x-www-form-urlencoded/);
  assert.deepEqual(Object.fromEntries(new URLSearchParams(sent.body)), {
    secret: SECRET,
    response: "good-token",
    remoteip: "203.0.113.7",
  });
});

Deno.test("bot-check: login is checked before the credentials", async () => {
  await using verify = siteverify();
  await using ctx = await testApp({
    TURNSTILE_SECRET_KEY: SECRET,
    TURNSTILE_VERIFY_URL: verify.url,
  });
  await call(ctx, "POST", "/api/auth/register", register("good-token"));
  const login = (turnstileToken?: string, password = "password123") =>
    call(ctx, "POST", "/api/auth/login", {
      body: { email: "sam@example.com", password, turnstileToken },
    });
  assert.deepEqual((await login()).body, { error: "turnstileToken is required" });
  const rejected = await login("bad-token", "wrong password");
  assert.equal(rejected.status, 400);
  assert.deepEqual(rejected.body, { error: "Bot check failed: invalid-input-response" });
  assert.equal((await login("good-token")).status, 200);
  assert.equal((await login("good-token", "wrong password")).status, 401);
});

Deno.test("bot-check: a verify service that is down or answers nonsense is a 502", async () => {
  await using nonsense = fakeServer(() => new Response("<html>oops</html>", { status: 500 }));
  for (const url of [`http://127.0.0.1:${closedPort()}/siteverify`, nonsense.url]) {
    await using ctx = await testApp({ TURNSTILE_SECRET_KEY: SECRET, TURNSTILE_VERIFY_URL: url });
    const res = await call(ctx, "POST", "/api/auth/register", register("good-token"));
    assert.equal(res.status, 502, url);
    assert.match(res.body.error as string, /^Bot-check service /);
  }
});

Deno.test("bot-check: off without TURNSTILE_SECRET_KEY", async () => {
  await using ctx = await testApp();
  const res = await call(ctx, "POST", "/api/auth/register", register());
  assert.equal(res.status, 201);
});
