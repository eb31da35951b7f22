import type { UserRecord } from "../domain/user.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { randomToken } from "../lib/ids.ts";
import { endAllSessions } from "./credentials.ts";
import { keys } from "./keys.ts";
import { backReferencedKeys, commit, deleteKeys, withRetry } from "./kv.ts";
import { commitForAccount } from "./users.ts";

export const RESET_TTL_MS = 60 * 60 * 1000;

interface ResetRecord {
  userId: string;
  /** Checked on read: KV's expireIn is only a lower bound on deletion. */
  expiresAt: number;
}

/**
 * Issues a one-time reset token (32 random bytes, base64url) valid one hour; only its SHA-256
 * is stored, globally for the reset call and under the workspace for deletion. Null when the
 * account no longer exists.
 */
export async function issueResetToken(
  kv: Deno.Kv,
  userId: string,
  now = Date.now(),
): Promise<string | null> {
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  const record: ResetRecord = { userId, expiresAt: now + RESET_TTL_MS };
  const issued = await commitForAccount(kv, userId, (op) =>
    op
      .set(keys.passwordReset(hash), record, { expireIn: RESET_TTL_MS })
      .set(keys.userPasswordReset(userId, hash), record, { expireIn: RESET_TTL_MS }));
  return issued ? token : null;
}

/**
 * Spends a reset token: sets the new password hash and deletes the token in one commit (so it
 * works once), then ends every session and every other reset token of the account. Receiving
 * the link proves control of the mailbox, so the email counts as verified. Null for an
 * unknown, used or expired token.
 */
export async function resetPassword(
  kv: Deno.Kv,
  token: string,
  passwordHash: string,
  now = Date.now(),
): Promise<UserRecord | null> {
  const hash = await sha256Hex(token);
  const user = await withRetry(async () => {
    const reset = await kv.get<ResetRecord>(keys.passwordReset(hash));
    if (!reset.value || reset.value.expiresAt <= now) return { commit: null, value: null };
    const entry = await kv.get<UserRecord>(keys.user(reset.value.userId));
    if (!entry.value) return { commit: null, value: null };
    const updated: UserRecord = { ...entry.value, passwordHash, emailVerified: true };
    const result = await commit(
      kv.atomic()
        .check(reset)
        .check(entry)
        .delete(reset.key)
        .delete(keys.userPasswordReset(updated.id, hash))
        .set(entry.key, updated),
    );
    return { commit: result, value: updated };
  });
  if (!user) return null;
  await Promise.all([
    endAllSessions(kv, user.id),
    resetKeysOf(kv, user.id).then((k) => deleteKeys(kv, k)),
  ]);
  return user;
}

/** Global and workspace keys of the account's outstanding reset tokens. */
export function resetKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  return backReferencedKeys(kv, keys.userPasswordResets(userId), keys.passwordReset);
}
