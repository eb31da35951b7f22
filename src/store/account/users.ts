import type { RegistrationRefusal } from "../../domain/account/registration.ts";
import type { IdentityProvider, UserRecord } from "../../domain/account/user.ts";
import { EMAIL_MAX, identityLinks, normaliseEmail } from "../../domain/account/user.ts";
import { USERNAME_MAX, usernameKey } from "../../domain/account/profile.ts";
import { compact } from "../../lib/compact.ts";
import { newId, randomHex, randomToken } from "../../lib/ids.ts";
import { afterTimezoneChange, FRESH_STATE } from "../../domain/insights/sums.ts";
import { onLeaderboard } from "../../domain/insights/leaderboard.ts";
import { keys } from "../keys.ts";
import { commit, lookup, withRetry } from "../kv.ts";

export interface NewUser {
  email: string;
  passwordHash?: string;
  username?: string;
  displayName?: string;
  timezone?: string;
  emailVerified?: boolean;
  identities?: UserRecord["identities"];
}

export type Taken = "email" | "username" | "identity";

export type CreateUserResult =
  | { ok: true; user: UserRecord }
  | { ok: false; taken: Taken; refused?: undefined }
  | { ok: false; refused: RegistrationRefusal; taken?: undefined };

/** The lookups of the account's linked identities, (provider, subject) -> user id. */
export const identityKeys = (user: UserRecord) =>
  identityLinks(user).map((link) => keys.userByIdentity(link.provider, link.subject));

/** The account's unique global lookups: email, handle, username and linked identities. */
export function lookupKeysOf(user: UserRecord): Deno.KvKey[] {
  const out: Deno.KvKey[] = [
    keys.userByEmail(user.email),
    keys.userByHandle(user.webhookHandle),
    ...identityKeys(user),
  ];
  if (user.username) out.push(keys.userByUsername(usernameKey(user.username)));
  return out;
}

/**
 * Creates an account with its unique email, username, handle and identity lookups in one
 * commit; `plan` starts at `free`, the webhook handle is 96 random bits (URL-safe).
 */
export async function createUser(
  kv: Deno.Kv,
  input: NewUser,
  now = Date.now(),
  /** The registration rule (store/account/invitations.ts); absent: anyone may register. */
  guard?: (op: Deno.AtomicOperation) => Promise<RegistrationRefusal | null>,
): Promise<CreateUserResult> {
  const email = normaliseEmail(input.email);
  for (;;) {
    const user: UserRecord = compact({
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
      insights: FRESH_STATE,
      passwordHash: input.passwordHash,
      identities: input.identities,
    });
    const op = kv.atomic().set(keys.user(user.id), user).sum(keys.stat("users"), 1n);
    for (const key of lookupKeysOf(user)) op.check({ key, versionstamp: null }).set(key, user.id);
    const refused = guard ? await guard(op) : null;
    if (refused) return { ok: false, refused };
    const res = await commit(op);
    if (res.ok) return { ok: true, user };
    const taken = await whichIsTaken(kv, user);
    if (taken) return { ok: false, taken };
    // Otherwise the random handle collided: draw another.
  }
}

async function whichIsTaken(kv: Deno.Kv, user: UserRecord): Promise<Taken | null> {
  const [byEmail, byName, ...byIdentity] = await kv.getMany([
    keys.userByEmail(user.email),
    keys.userByUsername(usernameKey(user.username ?? "")),
    ...identityKeys(user),
  ]);
  if (byEmail.versionstamp) return "email";
  if (user.username && byName.versionstamp) return "username";
  if (byIdentity.some((e) => e.versionstamp)) return "identity";
  return null;
}

/**
 * Commits what `write` adds together with a check that the account record is unchanged since
 * it was read (retried on conflicts), so a credential created this way cannot outlive a
 * concurrent deletion of the account. False when the account does not exist, or when `expect`
 * refuses the record as it is.
 */
export function commitForAccount(
  kv: Deno.Kv,
  userId: string,
  write: (op: Deno.AtomicOperation) => void,
  expect?: (user: UserRecord) => boolean,
): Promise<boolean> {
  return withRetry(async () => {
    const user = await kv.get<UserRecord>(keys.user(userId));
    if (!user.value || (expect && !expect(user.value))) return { commit: null, value: false };
    const op = kv.atomic().check(user);
    write(op);
    return { commit: await commit(op), value: true };
  });
}

export async function getUser(kv: Deno.Kv, userId: string): Promise<UserRecord | null> {
  return (await lookup<UserRecord>(kv, keys.user(userId))).value;
}

/**
 * The lookups by what a person types are bounded before the read: no account has a longer
 * email or username, and a value that long could pass KV's 2 KiB key limit.
 */
export async function findUserIdByEmail(kv: Deno.Kv, email: string): Promise<string | null> {
  const normalised = normaliseEmail(email);
  if (normalised.length > EMAIL_MAX) return null;
  return (await kv.get<string>(keys.userByEmail(normalised))).value;
}

export async function findUserIdByUsername(
  kv: Deno.Kv,
  username: string,
): Promise<string | null> {
  const name = username.trim();
  if (name.length > USERNAME_MAX) return null;
  return (await kv.get<string>(keys.userByUsername(usernameKey(name)))).value;
}

/** Login takes an email or a username in one field; usernames never contain `@`. */
export async function findUserByLogin(kv: Deno.Kv, login: string): Promise<UserRecord | null> {
  const id = login.includes("@")
    ? await findUserIdByEmail(kv, login)
    : await findUserIdByUsername(kv, login);
  return id ? await getUser(kv, id) : null;
}

export async function findUserIdByIdentity(
  kv: Deno.Kv,
  provider: IdentityProvider,
  subject: string,
): Promise<string | null> {
  return (await lookup<string>(kv, keys.userByIdentity(provider, subject))).value;
}

export type UpdateUserResult =
  | { ok: true; user: UserRecord }
  | { ok: false; taken: Taken }
  | null;

/**
 * Applies `change` to the stored account under optimistic concurrency. A changed username
 * moves its case-insensitive lookup in the same commit (409-class `taken` when another account
 * holds it); identity lookups follow the record's identities. Null when the account does not
 * exist.
 */
export function updateUser(
  kv: Deno.Kv,
  userId: string,
  change: (user: UserRecord) => UserRecord,
): Promise<UpdateUserResult> {
  return withRetry<UpdateUserResult>(async () => {
    const entry = await kv.get<UserRecord>(keys.user(userId));
    if (!entry.value) return { commit: null, value: null };
    const before = entry.value;
    // Records keep only fields with a value (a cleared display name is removed).
    const after = compact(
      afterTimezoneChange(before, change(structuredClone(before)), randomHex(6)),
    );
    const op = kv.atomic().check(entry).set(keys.user(userId), after);
    const oldName = before.username && usernameKey(before.username);
    const newName = after.username && usernameKey(after.username);
    if (oldName !== newName) {
      if (oldName) op.delete(keys.userByUsername(oldName));
      if (newName) {
        const key = keys.userByUsername(newName);
        const holder = await kv.get<string>(key);
        if (holder.value && holder.value !== userId) {
          return { commit: null, value: { ok: false, taken: "username" } };
        }
        op.check(holder).set(key, userId);
      }
    }
    // The leaderboard's index of the accounts it lists, set right on every change (an entry
    // from an older rule goes with the account's next change; reads filter it meanwhile).
    if (onLeaderboard(after)) op.set(keys.leaderboardMember(userId), true);
    else op.delete(keys.leaderboardMember(userId));
    const has = (list: Deno.KvKey[], key: Deno.KvKey) => list.some((k) => k.join() === key.join());
    const added = identityKeys(after).filter((k) => !has(identityKeys(before), k));
    for (const key of identityKeys(before)) if (!has(identityKeys(after), key)) op.delete(key);
    for (const key of added) op.check({ key, versionstamp: null }).set(key, userId);
    const result = await commit(op);
    if (!result.ok && added.length) {
      const linked = await kv.getMany(added);
      if (linked.some((e) => e.versionstamp)) {
        return { commit: null, value: { ok: false, taken: "identity" } };
      }
    }
    return { commit: result, value: { ok: true, user: after } };
  });
}

/** The deployment's operator: an account listed in `OPERATOR_EMAILS`, or the oldest account. */
export async function isOperator(
  kv: Deno.Kv,
  operatorEmails: readonly string[],
  user: Pick<UserRecord, "id" | "email">,
): Promise<boolean> {
  if (operatorEmails.includes(user.email)) return true;
  return await firstUserId(kv) === user.id;
}

/** The oldest account there is (ids sort by creation time), or null. */
async function firstUserId(kv: Deno.Kv): Promise<string | null> {
  for await (const entry of kv.list<UserRecord>({ prefix: keys.users() }, { limit: 1 })) {
    return entry.value.id;
  }
  return null;
}
