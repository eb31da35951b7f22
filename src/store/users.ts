import type { UserRecord } from "../domain/user.ts";
import { normaliseEmail } from "../domain/user.ts";
import { newId, randomToken } from "../lib/ids.ts";
import { keys } from "./keys.ts";

export interface NewUser {
  email: string;
  passwordHash?: string;
  username?: string;
  displayName?: string;
  timezone?: string;
  emailVerified?: boolean;
}

export type CreateUserResult =
  | { ok: true; user: UserRecord }
  | { ok: false; taken: "email" | "username" };

/** Creates an account with its unique email, username and handle lookups in one commit. */
export async function createUser(
  kv: Deno.Kv,
  input: NewUser,
  now = Date.now(),
): Promise<CreateUserResult> {
  const email = normaliseEmail(input.email);
  for (;;) {
    const user: UserRecord = {
      id: newId("usr", now),
      email,
      username: input.username,
      displayName: input.displayName,
      createdAt: new Date(now).toISOString(),
      publicProfile: false,
      publicStats: false,
      webhookHandle: randomToken(12),
      timezone: input.timezone ?? "UTC",
      plan: "free",
      emailVerified: input.emailVerified ?? false,
      passwordHash: input.passwordHash,
    };
    const op = kv.atomic()
      .check({ key: keys.userByEmail(email), versionstamp: null })
      .check({ key: keys.userByHandle(user.webhookHandle), versionstamp: null })
      .set(keys.user(user.id), user)
      .set(keys.userByEmail(email), user.id)
      .set(keys.userByHandle(user.webhookHandle), user.id)
      .sum(keys.stat("users"), 1n);
    if (user.username) {
      const uname = keys.userByUsername(user.username.toLowerCase());
      op.check({ key: uname, versionstamp: null }).set(uname, user.id);
    }
    const res = await op.commit();
    if (res.ok) return { ok: true, user };
    const [byEmail, byName] = await kv.getMany([
      keys.userByEmail(email),
      keys.userByUsername((user.username ?? "").toLowerCase()),
    ]);
    if (byEmail.versionstamp) return { ok: false, taken: "email" };
    if (user.username && byName.versionstamp) return { ok: false, taken: "username" };
    // Otherwise the random handle collided: draw another.
  }
}

export async function getUser(kv: Deno.Kv, userId: string): Promise<UserRecord | null> {
  return (await kv.get<UserRecord>(keys.user(userId))).value;
}

export async function findUserIdByEmail(kv: Deno.Kv, email: string): Promise<string | null> {
  return (await kv.get<string>(keys.userByEmail(normaliseEmail(email)))).value;
}
