import assert from "node:assert/strict";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp } from "../helpers.ts";

type Ctx = Awaited<ReturnType<typeof testApp>>;

const post = (ctx: Ctx, token: string, path: string, body: unknown) =>
  call(ctx, "POST", `/api/account/${path}`, { token, body });

Deno.test("username: set, change case, move; the old name is freed; 409 when taken", async () => {
  await using ctx = await testApp();
  const a = await signUp(ctx);
  const b = await signUp(ctx);
  const set = await post(ctx, a.token, "username", { username: "  Parcel_Fan " });
  assert.equal(set.status, 200);
  assert.equal((set.body.user as { username: string }).username, "Parcel_Fan");

  const taken = await post(ctx, b.token, "username", { username: "parcel_FAN" });
  assert.equal(taken.status, 409);
  assert.deepEqual(taken.body, { error: "Username is taken" });

  const recase = await post(ctx, a.token, "username", { username: "parcel_fan" });
  assert.equal(recase.status, 200, "an account may change the case of its own name");
  const moved = await post(ctx, a.token, "username", { username: "box-watcher" });
  assert.equal(moved.status, 200);
  assert.equal((await ctx.kv.get(keys.userByUsername("parcel_fan"))).versionstamp, null);
  const freed = await post(ctx, b.token, "username", { username: "Parcel_Fan" });
  assert.equal(freed.status, 200);
});

Deno.test("username: concurrent claims of one name: exactly one wins", async () => {
  await using ctx = await testApp();
  const accounts = await Promise.all(Array.from({ length: 5 }, () => signUp(ctx)));
  const results = await Promise.all(
    accounts.map((a) => post(ctx, a.token, "username", { username: "only_one" })),
  );
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 409, 409, 409, 409]);
});

Deno.test("username: rules (length, characters, reserved words, user-id look-alikes)", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const cases: [unknown, string][] = [
    ["ab", "username: must be 3 to 30 characters"],
    ["x".repeat(31), "username: must be 3 to 30 characters"],
    [
      "_leading",
      "username: may contain only letters, digits, _ and -, and must start with a letter or digit",
    ],
    [
      "has space",
      "username: may contain only letters, digits, _ and -, and must start with a letter or digit",
    ],
    [
      "émile",
      "username: may contain only letters, digits, _ and -, and must start with a letter or digit",
    ],
    [
      "a@b.c",
      "username: may contain only letters, digits, _ and -, and must start with a letter or digit",
    ],
    ["Admin", "username: is reserved"],
    ["usr_01abc", "username: is reserved"],
    [42, "username: Invalid input: expected string, received number"],
  ];
  for (const [username, error] of cases) {
    const res = await post(ctx, token, "username", { username });
    assert.equal(res.status, 400, String(username));
    assert.deepEqual(res.body, { error });
  }
  assert.deepEqual((await post(ctx, token, "username", {})).body, {
    error: "username is required",
  });
});

Deno.test("username availability: rules, taken, and the caller's own name", async () => {
  await using ctx = await testApp();
  const a = await signUp(ctx, { username: "Taken_Name" });
  const b = await signUp(ctx);
  const check = (token: string, u: string) =>
    call(ctx, "GET", `/api/account/username/available?u=${encodeURIComponent(u)}`, { token });
  assert.deepEqual((await check(b.token, "free_name")).body, {
    username: "free_name",
    available: true,
  });
  assert.deepEqual((await check(b.token, "TAKEN_name")).body, {
    username: "TAKEN_name",
    available: false,
    reason: "taken",
  });
  assert.deepEqual((await check(a.token, "taken_name")).body, {
    username: "taken_name",
    available: true,
  });
  assert.deepEqual((await check(b.token, "root")).body, {
    username: "root",
    available: false,
    reason: "username is reserved",
  });
  const missing = await call(ctx, "GET", "/api/account/username/available", { token: b.token });
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { error: "u is required" });
  assert.equal((await call(ctx, "GET", "/api/account/username/available?u=x")).status, 401);
});

Deno.test("display name: set, trimmed, cleared by an empty string, at most 50 characters", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const set = await post(ctx, token, "display-name", { displayName: "  Sam Parcel  " });
  assert.equal((set.body.user as { displayName: string }).displayName, "Sam Parcel");
  const emoji = await post(ctx, token, "display-name", { displayName: "📦".repeat(50) });
  assert.equal(emoji.status, 200, "characters, not UTF-16 units");
  const cleared = await post(ctx, token, "display-name", { displayName: "" });
  assert.equal(cleared.status, 200);
  assert.ok(!("displayName" in (cleared.body.user as object)), "absent, never null");
  for (
    const [displayName, error] of [
      ["x".repeat(51), "displayName: must be at most 50 characters"],
      ["tab\there", "displayName: must not contain control characters"],
    ]
  ) {
    const res = await post(ctx, token, "display-name", { displayName });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { error });
  }
});

Deno.test("visibility, public stats and timezone take valid values only", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const visible = await post(ctx, token, "visibility", { publicProfile: true });
  assert.equal((visible.body.user as { publicProfile: boolean }).publicProfile, true);
  const stats = await post(ctx, token, "public-stats", { publicStats: true });
  assert.equal((stats.body.user as { publicStats: boolean }).publicStats, true);
  const tz = await post(ctx, token, "timezone", { timezone: "Asia/Tokyo" });
  assert.equal((tz.body.user as { timezone: string }).timezone, "Asia/Tokyo");

  const bad: [string, unknown, string][] = [
    [
      "visibility",
      { publicProfile: "yes" },
      "publicProfile: Invalid input: expected boolean, received string",
    ],
    ["visibility", {}, "publicProfile is required"],
    [
      "public-stats",
      { publicStats: 1 },
      "publicStats: Invalid input: expected boolean, received number",
    ],
    [
      "timezone",
      { timezone: "Europe/Atlantis" },
      "timezone: must be an IANA time zone name such as Europe/Paris",
    ],
    [
      "timezone",
      { timezone: "-05:00" },
      "timezone: must be an IANA time zone name such as Europe/Paris",
    ],
    ["timezone", {}, "timezone is required"],
  ];
  for (const [path, body, error] of bad) {
    const res = await post(ctx, token, path, body);
    assert.equal(res.status, 400, path);
    assert.deepEqual(res.body, { error });
  }
  const me = await call(ctx, "GET", "/api/auth/me", { token });
  assert.equal((me.body.user as { timezone: string }).timezone, "Asia/Tokyo", "no partial write");
});

Deno.test("profile endpoints take an API key too, and need a credential", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const key = (await call(ctx, "POST", "/api/account/api-keys", { token, body: {} })).body
    .key as string;
  assert.equal((await post(ctx, key, "visibility", { publicProfile: true })).status, 200);
  for (const path of ["username", "display-name", "visibility", "public-stats", "timezone"]) {
    const res = await call(ctx, "POST", `/api/account/${path}`, { body: {} });
    assert.equal(res.status, 401, path);
  }
});

Deno.test("public profile: private is 404 except to its owner; public shows no private fields", async () => {
  await using ctx = await testApp();
  const owner = await signUp(ctx, { email: "owner@example.com", username: "Parcel_Fan" });
  const other = await signUp(ctx);
  const get = (ref: string, token?: string) => call(ctx, "GET", `/api/profile/${ref}`, { token });

  for (const token of [undefined, other.token, "not-a-token"]) {
    for (const ref of ["parcel_fan", owner.user.id]) {
      const res = await get(ref, token);
      assert.equal(res.status, 404, `${ref} ${token}`);
      assert.deepEqual(res.body, { error: "Profile not found" });
    }
  }
  const own = await get("Parcel_Fan", owner.token);
  assert.equal(own.status, 200);
  assert.equal((own.body.profile as { publicProfile: boolean }).publicProfile, false);

  await post(ctx, owner.token, "visibility", { publicProfile: true });
  const pub = await get("PARCEL_FAN");
  assert.equal(pub.status, 200);
  assert.deepEqual(pub.body.profile, {
    id: owner.user.id,
    username: "Parcel_Fan",
    createdAt: owner.user.createdAt,
    publicProfile: true,
    publicStats: false,
  });
  assert.deepEqual((await get(owner.user.id)).body, pub.body);
  const text = JSON.stringify(pub.body);
  for (const secret of ["owner@example.com", owner.user.webhookHandle, "timezone", "plan"]) {
    assert.ok(!text.includes(secret), secret);
  }

  await post(ctx, owner.token, "public-stats", { publicStats: true });
  await ctx.kv.set(keys.orderCount(owner.user.id), new Deno.KvU64(7n));
  const withStats = await get("parcel_fan");
  assert.deepEqual((withStats.body.profile as { stats: unknown }).stats, { ordersTracked: 7 });

  for (const ref of ["nobody", "usr_unknown"]) {
    assert.deepEqual((await get(ref)).body, { error: "Profile not found" });
  }
});
