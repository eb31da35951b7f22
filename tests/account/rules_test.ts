import assert from "node:assert/strict";
import { apiKeyName } from "../../src/domain/account/api_key.ts";
import {
  checkDisplayName,
  checkTimezone,
  checkUsername,
} from "../../src/domain/account/profile.ts";
import { toPublicUser, type UserRecord } from "../../src/domain/account/user.ts";
import { hashPassword, verifyPassword } from "../../src/lib/password.ts";

Deno.test("username rules", () => {
  for (const ok of ["abc", "Sam_1", "a-b", "9lives", "x".repeat(30)]) {
    assert.deepEqual(checkUsername(ok), { ok: true, value: ok });
  }
  assert.deepEqual(checkUsername("  padded  "), { ok: true, value: "padded" });
  for (
    const bad of [
      "ab",
      "x".repeat(31),
      "-dash",
      "_under",
      "a b",
      "a.b",
      "a@b",
      "ÄÖÜ",
      "Support",
      "USR_x",
    ]
  ) {
    assert.equal(checkUsername(bad).ok, false, bad);
  }
});

Deno.test("display names and timezones", () => {
  assert.deepEqual(checkDisplayName("  "), { ok: true, value: undefined });
  assert.equal(checkDisplayName("a\u0000b").ok, false);
  assert.deepEqual(checkTimezone("utc"), { ok: true, value: "UTC" });
  assert.deepEqual(checkTimezone("Etc/GMT+5"), { ok: true, value: "Etc/GMT+5" });
  for (const bad of ["+01:00", "GMT+1:00", "Europe/", "/Paris", "Nowhere/City", ""]) {
    assert.equal(checkTimezone(bad).ok, false, bad);
  }
});

Deno.test("API key names", () => {
  assert.equal(apiKeyName(undefined), "Untitled key");
  assert.equal(apiKeyName("  a  "), "a");
  assert.equal(apiKeyName("😀".repeat(81)), "😀".repeat(80), "code points, never half a pair");
});

Deno.test("passwords: scrypt with its parameters stored; verification in constant time", async () => {
  const hash = await hashPassword("pässword ok");
  assert.match(hash, /^scrypt\$32768\$8\$1\$/);
  assert.equal(await verifyPassword("pässword ok", hash), true);
  assert.equal(await verifyPassword("pa\u0308ssword ok", hash), true, "Unicode-normalised");
  assert.equal(await verifyPassword("password ok", hash), false);
  assert.equal(await verifyPassword("pässword ok", undefined), false);
  assert.equal(await verifyPassword("pässword ok", "garbage"), false);
  const lighter = hash.replace("scrypt$32768$", "scrypt$16384$");
  assert.equal(await verifyPassword("pässword ok", lighter), false, "parameters are bound");
});

Deno.test("the public user is an allow-list of the spec's fields", () => {
  const user = {
    id: "usr_1",
    email: "a@example.com",
    createdAt: "2026-01-01T00:00:00.000Z",
    publicProfile: false,
    publicStats: false,
    webhookHandle: "h",
    timezone: "UTC",
    plan: "free",
    emailVerified: false,
    passwordHash: "scrypt$...",
    identities: { atlas: "sub" },
    somethingNew: "secret",
  } as UserRecord;
  assert.deepEqual(Object.keys(toPublicUser(user)), [
    "id",
    "email",
    "createdAt",
    "publicProfile",
    "publicStats",
    "webhookHandle",
    "timezone",
    "plan",
    "emailVerified",
  ]);
});
