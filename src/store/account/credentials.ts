import { sameWaysIn, type UserRecord } from "../../domain/account/user.ts";
import { AccountGoneError } from "../../errors.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { randomHex } from "../../lib/ids.ts";
import { keys } from "../keys.ts";
import { backReferencedKeys, commit, deleteKeys } from "../kv.ts";
import { commitForAccount, updateUser } from "./users.ts";

/** Who is calling: what a bearer token resolves to. */
export interface Principal {
  userId: string;
  kind: "session" | "apiKey";
  /** Session token hash or API key id: what `DELETE /api/auth/session` or revocation ends. */
  credentialId: string;
}

export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

export interface SessionRecord {
  userId: string;
  createdAt: string;
  /** Checked on every read: KV's expireIn is only a lower bound on deletion. */
  expiresAt: number;
}

export interface ApiKeyLookup {
  userId: string;
  keyId: string;
}

/**
 * Issues a session token (64 hex characters); only its SHA-256 is stored. The commit checks the
 * account is unchanged since it was read, so a sign-in racing the account's deletion cannot
 * leave a session behind; given the account as the sign-in saw it (`signedInAs`), the commit
 * also needs its password and links unchanged, so a sign-in racing a reset or a password change
 * cannot either. `AccountGoneError` otherwise.
 */
export async function issueSession(
  kv: Deno.Kv,
  userId: string,
  now = Date.now(),
  signedInAs?: UserRecord,
): Promise<string> {
  const token = randomHex(32);
  const hash = await sha256Hex(token);
  const session: SessionRecord = {
    userId,
    createdAt: new Date(now).toISOString(),
    expiresAt: now + SESSION_TTL_MS,
  };
  const issued = await commitForAccount(
    kv,
    userId,
    (op) =>
      op
        .set(keys.session(hash), session, { expireIn: SESSION_TTL_MS })
        .set(keys.userSession(userId, hash), session, { expireIn: SESSION_TTL_MS }),
    signedInAs && ((user) => sameWaysIn(user, signedInAs)),
  );
  if (!issued) throw new AccountGoneError();
  return token;
}

/** Ends one session; unknown tokens are ignored. */
export async function endSession(kv: Deno.Kv, tokenHash: string): Promise<void> {
  const entry = await kv.get<SessionRecord>(keys.session(tokenHash));
  if (!entry.value) return;
  await commit(
    kv.atomic()
      .delete(keys.session(tokenHash))
      .delete(keys.userSession(entry.value.userId, tokenHash)),
  );
}

/** The global keys of every session of an account: what ending them all deletes. */
export function sessionKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  return backReferencedKeys(kv, keys.userSessions(userId), keys.session);
}

/**
 * Ends every session of an account but `keep` (a token hash), if given: password reset and
 * change, sign-out everywhere, account deletion. Answers how many were still valid.
 */
export async function endAllSessions(
  kv: Deno.Kv,
  userId: string,
  options: { keep?: string; now?: number } = {},
): Promise<number> {
  const now = options.now ?? Date.now();
  const ended: Deno.KvKey[] = [];
  let live = 0;
  for await (const entry of kv.list<SessionRecord>({ prefix: keys.userSessions(userId) })) {
    const hash = String(entry.key.at(-1));
    if (hash === options.keep) continue;
    if (entry.value.expiresAt > now) live++;
    ended.push(keys.session(hash), entry.key);
  }
  await deleteKeys(kv, ended);
  return live;
}

/**
 * Spec rule 1: `sk_` tokens are API keys, anything else a session token. Unknown, revoked and
 * expired credentials all give null.
 */
export async function resolveToken(
  kv: Deno.Kv,
  token: string,
  now = Date.now(),
): Promise<Principal | null> {
  const hash = await sha256Hex(token);
  if (token.startsWith("sk_")) {
    const found = (await kv.get<ApiKeyLookup>(keys.apiKeyByHash(hash))).value;
    return found ? { userId: found.userId, kind: "apiKey", credentialId: found.keyId } : null;
  }
  if (!/^[0-9a-f]{64}$/.test(token)) return null;
  const session = (await kv.get<SessionRecord>(keys.session(hash))).value;
  if (!session || session.expiresAt <= now) return null;
  return { userId: session.userId, kind: "session", credentialId: hash };
}

/**
 * Replaces the account's password and ends every session (change password; the caller gets a
 * fresh one). The account as changed; null when it is gone.
 */
export async function changePassword(
  kv: Deno.Kv,
  userId: string,
  passwordHash: string,
  now = Date.now(),
): Promise<UserRecord | null> {
  const updated = await updateUser(kv, userId, (user) => ({ ...user, passwordHash }));
  if (!updated?.ok) return null;
  await endAllSessions(kv, userId, { now });
  return updated.user;
}
