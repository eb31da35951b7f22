import type { UserRecord, VerifiedIdentity } from "../domain/user.ts";
import { ConflictError } from "../errors.ts";
import type { RegistrationRefusal } from "../domain/registration.ts";
import type { RegistrationGuard } from "./invitations.ts";
import {
  createUser,
  findUserIdByEmail,
  findUserIdByIdentity,
  getUser,
  updateUser,
} from "./users.ts";

export type IdentitySignIn =
  | { ok: true; user: UserRecord; created: boolean }
  | { ok: false; reason: "email_missing" | "email_unverified" | "already_linked" }
  | { ok: false; reason: "refused"; refused: RegistrationRefusal };

/**
 * Finds or creates the account of a provider identity:
 * 1. an account already linked to (provider, subject) signs in;
 * 2. otherwise an account with the same email is linked, only when the provider says it
 *    verified the email (an unverified claim could take over someone else's account) and the
 *    account has no other identity of that provider;
 * 3. otherwise a new account is created with that email and the link.
 * Races (two first sign-ins at once, a registration in between) are settled by the unique
 * lookups and a fresh pass.
 */
export async function signInWithIdentity(
  kv: Deno.Kv,
  identity: VerifiedIdentity,
  now = Date.now(),
  /** The registration rule for a new account (store/invitations.ts). */
  guard?: RegistrationGuard,
): Promise<IdentitySignIn> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const linkedId = await findUserIdByIdentity(kv, identity.provider, identity.subject);
    const linked = linkedId ? await getUser(kv, linkedId) : null;
    if (linked) return { ok: true, user: linked, created: false };
    if (!identity.email) return { ok: false, reason: "email_missing" };

    const existingId = await findUserIdByEmail(kv, identity.email);
    const existing = existingId ? await getUser(kv, existingId) : null;
    if (existing) {
      if (!identity.emailVerified) return { ok: false, reason: "email_unverified" };
      // One identity per provider: another one of the same provider is not silently replaced.
      if (existing.identities?.[identity.provider]) return { ok: false, reason: "already_linked" };
      const linkedNow = await updateUser(kv, existing.id, (user) => ({
        ...user,
        identities: { ...user.identities, [identity.provider]: identity.subject },
      }));
      if (linkedNow?.ok) return { ok: true, user: linkedNow.user, created: false };
      continue;
    }

    const created = await createUser(
      kv,
      {
        email: identity.email,
        displayName: identity.displayName,
        emailVerified: identity.emailVerified,
        identities: { [identity.provider]: identity.subject },
      },
      now,
      guard,
    );
    if (created.ok) return { ok: true, user: created.user, created: true };
    if (created.refused) return { ok: false, reason: "refused", refused: created.refused };
  }
  throw new ConflictError("Sign-in raced other changes to this account, try again");
}
