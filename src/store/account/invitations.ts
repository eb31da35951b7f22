/**
 * Invitations (REGISTRATION=invite): single-use tokens, 7 days. Only the SHA-256 is stored,
 * globally for registration and under the inviting workspace for deletion. A registration
 * admits itself through `registrationGuard`, whose reads are checked and whose invitation is
 * spent in the new account's own commit: two registrations can never share one invitation,
 * and two "first" accounts cannot both pass a closed registration.
 */
import {
  INVITATION_TTL_MS,
  type RegistrationMode,
  type RegistrationRefusal,
  registrationRefusal,
} from "../../domain/account/registration.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { randomToken } from "../../lib/ids.ts";
import { keys } from "../keys.ts";
import { backReferencedKeys, counterValue } from "../kv.ts";
import { commitForAccount } from "./users.ts";

interface InvitationRecord {
  userId: string;
  /** Checked on read: KV's expireIn is only a lower bound on deletion. */
  expiresAt: number;
}

/** Issues an invitation of the account; null when the account no longer exists. */
export async function issueInvitation(
  kv: Deno.Kv,
  userId: string,
  now: number,
): Promise<{ token: string; expiresAt: string } | null> {
  const token = randomToken(24);
  const hash = await sha256Hex(token);
  const record: InvitationRecord = { userId, expiresAt: now + INVITATION_TTL_MS };
  const issued = await commitForAccount(kv, userId, (op) =>
    op
      .set(keys.invitation(hash), record, { expireIn: INVITATION_TTL_MS })
      .set(keys.userInvitation(userId, hash), record, { expireIn: INVITATION_TTL_MS }));
  return issued ? { token, expiresAt: new Date(record.expiresAt).toISOString() } : null;
}

/** Global and workspace keys of the account's outstanding invitations. */
export function invitationKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  return backReferencedKeys(kv, keys.userInvitations(userId), keys.invitation);
}

/**
 * What `createUser` calls on each attempt: reads what the rule needs, adds its checks (and the
 * spending of the invitation) to the account's commit, or answers why not.
 */
export type RegistrationGuard = (op: Deno.AtomicOperation) => Promise<RegistrationRefusal | null>;

export function registrationGuard(
  kv: Deno.Kv,
  mode: RegistrationMode,
  invitation: string | undefined,
  now: number,
): RegistrationGuard | undefined {
  if (mode === "open") return undefined;
  return async (op) => {
    const hash = invitation ? await sha256Hex(invitation) : undefined;
    const [users, invite] = await kv.getMany<[Deno.KvU64, InvitationRecord]>([
      keys.stat("users"),
      hash ? keys.invitation(hash) : keys.invitation(""),
    ]);
    const valid = hash !== undefined && invite.value !== null && invite.value.expiresAt > now;
    const refusal = registrationRefusal(mode, {
      accounts: counterValue(users.value),
      invitation: hash === undefined ? undefined : valid ? "valid" : "invalid",
    });
    if (refusal) return refusal;
    if (valid && hash && invite.value) {
      op.check(invite).delete(invite.key).delete(keys.userInvitation(invite.value.userId, hash));
    } else {
      // Admitted as the first account: no other may have appeared meanwhile.
      op.check(users);
    }
    return null;
  };
}
