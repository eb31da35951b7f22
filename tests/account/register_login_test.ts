import assert from "node:assert/strict";
import { PUBLIC_USER_FIELDS, type UserRecord } from "../../src/domain/account/user.ts";
import { keys } from "../../src/store/keys.ts";
import { readCounter } from "../../src/store/kv.ts";
import { kvLines } from "./kv_scan.ts";
import { call, signUp, testApp } from "../helpers.ts";

const PASSWORD = "correct horse battery";

Deno.test("register: 201 {token, user} with the spec's user fields and defaults", async () => {
  await using ctx = await testApp();
  const res = await call(ctx, "POST", "/api/auth/register", {
    body: {
      email: "  Sam@Example.COM ",
      password: PASSWORD,
      username: "Sam_1",
      displayName: "Sam",
    },
  });
  assert.equal(res.status, 201);
  assert.match(res.body.token as string, /^[0-9a-f]{64}$/);
  const user = res.body.user as Record<string, unknown>;
  assert.deepEqual(Object.keys(res.body).sort(), ["token", "user"]);
  for (const field of Object.keys(user)) {
    assert.ok((PUBLIC_USER_FIELDS as readonly string[]).includes(field), field);
  }
  assert.match(user.id as string, /^usr_/);
  assert.equal(user.email, "sam@example.com");
  assert.equal(user.username, "Sam_1");
  assert.equal(user.displayName, "Sam");
  assert.equal(user.timezone, "UTC");
  assert.equal(user.plan, "free");
  assert.equal(user.publicProfile, false);
  assert.equal(user.publicStats, false);
  assert.equal(user.emailVerified, false);
  assert.match(user.webhookHandle as string, /^[A-Za-z0-9_-]{16}$/);
  assert.equal(new Date(user.createdAt as string).toISOString(), user.createdAt);
  assert.equal(await readCounter(ctx.kv, keys.stat("users")), 1);
});

Deno.test("register: the password is stored only as a salted scrypt hash", async () => {
  await using ctx = await testApp();
  const a = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "a@example.com", password: PASSWORD },
  });
  const b = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "b@example.com", password: PASSWORD },
  });
  const stored = await Promise.all([a, b].map(async (r) => {
    const id = (r.body.user as { id: string }).id;
    return (await ctx.kv.get<UserRecord>(keys.user(id))).value!.passwordHash!;
  }));
  for (const hash of stored) {
    assert.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
  }
  assert.notEqual(stored[0], stored[1], "each hash has its own salt");
  assert.ok((await kvLines(ctx.kv)).every((line) => !line.includes(PASSWORD)));
});

Deno.test("register: timezone is an IANA name, stored canonically", async () => {
  await using ctx = await testApp();
  const ok = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "tz@example.com", password: PASSWORD, timezone: "america/new_york" },
  });
  assert.equal((ok.body.user as UserRecord).timezone, "America/New_York");
  for (const timezone of ["+01:00", "Mars/Olympus", ""]) {
    const res = await call(ctx, "POST", "/api/auth/register", {
      body: { email: "tz2@example.com", password: PASSWORD, timezone },
    });
    assert.equal(res.status, 400, timezone);
    assert.equal(
      res.body.error,
      "timezone: must be an IANA time zone name such as Europe/Paris",
    );
  }
});

Deno.test("register: 409 when the email or the username (any case) is taken", async () => {
  await using ctx = await testApp();
  await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: PASSWORD, username: "Sam" },
  });
  const email = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "SAM@example.com", password: PASSWORD },
  });
  assert.equal(email.status, 409);
  assert.deepEqual(email.body, { error: "Email is already registered" });
  const name = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "other@example.com", password: PASSWORD, username: "sAM" },
  });
  assert.equal(name.status, 409);
  assert.deepEqual(name.body, { error: "Username is taken" });
  assert.equal(await readCounter(ctx.kv, keys.stat("users")), 1, "no partial account");
});

Deno.test("register: concurrent sign-ups with one email create one account", async () => {
  await using ctx = await testApp();
  const results = await Promise.all(
    Array.from({ length: 5 }, () =>
      call(ctx, "POST", "/api/auth/register", {
        body: { email: "race@example.com", password: PASSWORD },
      })),
  );
  assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
});

Deno.test("register: field errors name the field", async () => {
  await using ctx = await testApp();
  const cases: [Record<string, unknown>, string][] = [
    [{ password: PASSWORD }, "email is required"],
    [{ email: "not-an-email", password: PASSWORD }, "email: must be an email address"],
    [{ email: "a@example.com" }, "password is required"],
    [{ email: "a@example.com", password: "short" }, "password: must be 8 to 256 characters"],
    [
      { email: "a@example.com", password: "x".repeat(257) },
      "password: must be 8 to 256 characters",
    ],
    [
      { email: "a@example.com", password: PASSWORD, username: "ab" },
      "username: must be 3 to 30 characters",
    ],
    [{ email: "a@example.com", password: PASSWORD, username: "admin" }, "username: is reserved"],
    [
      { email: "a@example.com", password: PASSWORD, username: "a@b" },
      "username: may contain only letters, digits, _ and -, and must start with a letter or digit",
    ],
    [
      { email: "a@example.com", password: PASSWORD, displayName: "x".repeat(51) },
      "displayName: must be at most 50 characters",
    ],
  ];
  for (const [body, error] of cases) {
    const res = await call(ctx, "POST", "/api/auth/register", { body });
    assert.equal(res.status, 400, error);
    assert.deepEqual(res.body, { error });
  }
  const raw = await call(ctx, "POST", "/api/auth/register", { rawBody: "not json" });
  assert.match(String(raw.body.error), /^body is not valid JSON \(/);
  assert.equal(await readCounter(ctx.kv, keys.stat("users")), 0);
});

Deno.test("login: by email (any case) or username; 200 {token, user}", async () => {
  await using ctx = await testApp();
  const reg = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: PASSWORD, username: "Sam_1" },
  });
  for (const login of ["sam@example.com", " SAM@example.com ", "sam_1", "SAM_1"]) {
    const res = await call(ctx, "POST", "/api/auth/login", {
      body: { email: login, password: PASSWORD },
    });
    assert.equal(res.status, 200, login);
    assert.match(res.body.token as string, /^[0-9a-f]{64}$/);
    assert.notEqual(res.body.token, reg.body.token);
    assert.deepEqual(res.body.user, reg.body.user);
    const me = await call(ctx, "GET", "/api/auth/me", { token: res.body.token as string });
    assert.equal(me.status, 200);
  }
});

Deno.test("login: unknown account, wrong password and provider-only accounts get one 401", async () => {
  await using ctx = await testApp();
  await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: PASSWORD },
  });
  await signUp(ctx, { email: "provider-only@example.com" });
  const attempts = [
    { email: "sam@example.com", password: "wrong password" },
    { email: "nobody@example.com", password: PASSWORD },
    { email: "nobody", password: PASSWORD },
    { email: "provider-only@example.com", password: PASSWORD },
  ];
  for (const body of attempts) {
    const res = await call(ctx, "POST", "/api/auth/login", { body });
    assert.equal(res.status, 401, body.email);
    assert.deepEqual(res.body, { error: "Invalid email or password" });
  }
});

Deno.test("login: an unknown email costs a password check like a known one", async () => {
  await using ctx = await testApp();
  await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: PASSWORD },
  });
  const time = async (email: string) => {
    const started = performance.now();
    await call(ctx, "POST", "/api/auth/login", { body: { email, password: "wrong password" } });
    return performance.now() - started;
  };
  await time("warm-up@example.com");
  const known = await time("sam@example.com");
  const unknown = await time("nobody@example.com");
  // scrypt at N=2^15 takes tens of milliseconds; a skipped check would take well under one.
  assert.ok(unknown > known / 3, `unknown ${unknown} ms vs known ${known} ms`);
});

Deno.test("login: missing fields are 400 naming the field", async () => {
  await using ctx = await testApp();
  const res = await call(ctx, "POST", "/api/auth/login", { body: { email: "a@example.com" } });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body, { error: "password is required" });
  const empty = await call(ctx, "POST", "/api/auth/login", { body: { email: "", password: "x" } });
  assert.deepEqual(empty.body, { error: "email: must not be empty" });
});
