/**
 * One-time email-verification tokens, as password resets: 32 random bytes (base64url) mailed
 * in a link, only the SHA-256 stored, globally for the confirm call and under the workspace
 * for deletion; valid 24 hours; spent in the commit that marks the email verified.
 */
import type { UserRecord } from "../../domain/account/user.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { randomToken } from "../../lib/ids.ts";
import { keys } from "../keys.ts";
import { backReferencedKeys, commit, deleteKeys, withRetry } from "../kv.ts";
import { commitForAccount } from "./users.ts";

export const VERIFICATION_TTL_MS = 24 * 60 * 60 * 1000;

interface VerificationRecord {
  userId: string;
  /** The address the link was sent to: a token proves only that mailbox. */
  email: string;
  /** Checked on read: KV's expireIn is only a lower bound on deletion. */
  expiresAt: number;
}

/** Issues a token for the account's current email; null when the account is gone. */
export async function issueVerificationToken(
  kv: Deno.Kv,
  user: Pick<UserRecord, "id" | "email">,
  now = Date.now(),
): Promise<string | null> {
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  const record: VerificationRecord = {
    userId: user.id,
    email: user.email,
    expiresAt: now + VERIFICATION_TTL_MS,
  };
  const options = { expireIn: VERIFICATION_TTL_MS };
  const issued = await commitForAccount(kv, user.id, (op) =>
    op
      .set(keys.emailVerification(hash), record, options)
      .set(keys.userEmailVerification(user.id, hash), record, options));
  return issued ? token : null;
}

/**
 * Spends a token: marks the email verified and deletes the token in one commit (so it works
 * once), then the account's other verification tokens. Null for an unknown, used or expired
 * token, or one sent to an address the account no longer has.
 */
export async function confirmEmail(
  kv: Deno.Kv,
  token: string,
  now = Date.now(),
): Promise<UserRecord | null> {
  const hash = await sha256Hex(token);
  const user = await withRetry(async () => {
    const entry = await kv.get<VerificationRecord>(keys.emailVerification(hash));
    const record = entry.value;
    if (!record || record.expiresAt <= now) return { commit: null, value: null };
    const account = await kv.get<UserRecord>(keys.user(record.userId));
    if (!account.value || account.value.email !== record.email) {
      return { commit: null, value: null };
    }
    const updated: UserRecord = { ...account.value, emailVerified: true };
    const result = await commit(
      kv.atomic()
        .check(entry, account)
        .delete(entry.key)
        .delete(keys.userEmailVerification(updated.id, hash))
        .set(account.key, updated),
    );
    return { commit: result, value: updated };
  });
  if (user) await deleteKeys(kv, await verificationKeysOf(kv, user.id));
  return user;
}

/** Global and workspace keys of the account's outstanding verification tokens. */
export function verificationKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  return backReferencedKeys(kv, keys.userEmailVerifications(userId), keys.emailVerification);
}
