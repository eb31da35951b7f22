import { RESET_MAIL_WINDOW_MS, takeResetMailTurn } from "../../domain/account/password_reset.ts";
import { EMAIL_MAX, normaliseEmail, type UserRecord } from "../../domain/account/user.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { randomToken } from "../../lib/ids.ts";
import { endAllSessions } from "./credentials.ts";
import { keys } from "../keys.ts";
import { backReferencedKeys, commit, deleteKeys, withRetry } from "../kv.ts";
import { identityKeys } from "./users.ts";
import { revokeAllApiKeys } from "./api_keys.ts";

export const RESET_TTL_MS = 60 * 60 * 1000;

interface ResetRecord {
  userId: string;
  /** Checked on read: KV's expireIn is only a lower bound on deletion. */
  expiresAt: number;
}

/** As long as a real account id, so a decoy record weighs what a real one does. */
const decoyUserId = `usr_${"0".repeat(26)}`;

export type ResetRequest =
  | { ok: true; mail?: { to: string; token: string } }
  | { ok: false; retryAfterMs: number };

/**
 * A reset asked for `email`: takes one of the address's 3 turns an hour (kept in KV, so every
 * instance counts them, and keyed by the address's hash, so no stranger's address is stored)
 * and, for an account, issues a one-time reset token (32 random bytes, base64url) valid one
 * hour; only its SHA-256 is stored, globally for the reset call and under the workspace for
 * deletion. An unknown address does the same work: the same reads, a token drawn and hashed,
 * one commit; only the account's token keys are missing from it.
 */
export async function requestReset(
  kv: Deno.Kv,
  email: string,
  now = Date.now(),
): Promise<ResetRequest> {
  const address = normaliseEmail(email);
  const limitKey = keys.resetMailTimes(await sha256Hex(address));
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  return await withRetry<ResetRequest>(async () => {
    const [times, byEmail] = await kv.getMany<[number[], string]>([
      limitKey,
      keys.userByEmail(address.length > EMAIL_MAX ? "" : address),
    ]);
    // Unknown addresses read an account key too: `user` ids never look like this.
    const user = await kv.get<UserRecord>(keys.user(byEmail.value ?? "-"));
    const turn = takeResetMailTurn(times.value ?? [], now);
    if (!turn.ok) return { commit: null, value: turn };
    const op = kv.atomic().check(times, user)
      .set(limitKey, turn.times, { expireIn: RESET_MAIL_WINDOW_MS });
    // Without an account, the token's two writes go to two fixed decoy keys, overwritten each
    // time (nothing accumulates, and no token is ever stored): the commit is the same size.
    const userId = user.value?.id ?? decoyUserId;
    const record: ResetRecord = { userId, expiresAt: now + RESET_TTL_MS };
    const [global, owned] = user.value
      ? [keys.passwordReset(hash), keys.userPasswordReset(userId, hash)]
      : [keys.resetDecoy("token"), keys.resetDecoy("workspace")];
    op.set(global, record, { expireIn: RESET_TTL_MS })
      .set(owned, record, { expireIn: RESET_TTL_MS });
    const mail = user.value && { to: user.value.email, token };
    return { commit: await commit(op), value: mail ? { ok: true, mail } : { ok: true } };
  });
}

/** What a password reset ended, by kind: the `ended` of its answer. */
export interface EndedCredentials {
  sessions: number;
  apiKeys: number;
  identities: number;
}

/**
 * Spends a reset token: sets the new password hash, removes every provider link and deletes the
 * token in one commit (so it works once and no linked sign-in survives it), then ends every
 * session, every other reset token and, unless `keepApiKeys`, every API key of the account:
 * whoever held a way in before the reset (someone who registered with this address, say) has
 * none after it. Receiving the link proves control of the mailbox, so the email counts as
 * verified. Null for an unknown, used or expired token.
 */
export async function resetPassword(
  kv: Deno.Kv,
  token: string,
  passwordHash: string,
  options: { keepApiKeys?: boolean; now?: number } = {},
): Promise<{ user: UserRecord; ended: EndedCredentials } | null> {
  const now = options.now ?? Date.now();
  const hash = await sha256Hex(token);
  const reset = await withRetry(async () => {
    const reset = await kv.get<ResetRecord>(keys.passwordReset(hash));
    if (!reset.value || reset.value.expiresAt <= now) return { commit: null, value: null };
    const entry = await kv.get<UserRecord>(keys.user(reset.value.userId));
    if (!entry.value) return { commit: null, value: null };
    const { identities: _removed, ...rest } = entry.value;
    const updated: UserRecord = { ...rest, passwordHash, emailVerified: true };
    const op = kv.atomic()
      .check(reset)
      .check(entry)
      .delete(reset.key)
      .delete(keys.userPasswordReset(updated.id, hash))
      .set(entry.key, updated);
    const links = identityKeys(entry.value);
    for (const key of links) op.delete(key);
    return { commit: await commit(op), value: { user: updated, identities: links.length } };
  });
  if (!reset) return null;
  const { user } = reset;
  // Keys last: a session ended first cannot create another key while they are revoked.
  const [sessions] = await Promise.all([
    endAllSessions(kv, user.id, { now }),
    resetKeysOf(kv, user.id).then((k) => deleteKeys(kv, k)),
  ]);
  const apiKeys = options.keepApiKeys ? 0 : await revokeAllApiKeys(kv, user.id);
  return { user, ended: { sessions, apiKeys, identities: reset.identities } };
}

/** Global and workspace keys of the account's outstanding reset tokens. */
export function resetKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  return backReferencedKeys(kv, keys.userPasswordResets(userId), keys.passwordReset);
}
