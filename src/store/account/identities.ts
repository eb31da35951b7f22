import {
  canRemoveIdentity,
  identityLinks,
  type IdentityProvider,
  normaliseEmail,
  type UserRecord,
  type VerifiedIdentity,
} from "../../domain/account/user.ts";
import { ConflictError } from "../../errors.ts";
import type { RegistrationRefusal } from "../../domain/account/registration.ts";
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
  | {
    ok: false;
    reason: "email_missing" | "email_unverified" | "account_unverified" | "already_linked";
  }
  | { ok: false; reason: "refused"; refused: RegistrationRefusal };

/**
 * Finds or creates the account of a provider identity:
 * 1. an account already linked to (provider, subject) signs in;
 * 2. otherwise nothing is created or linked unless the provider says it verified the email
 *    (an unverified claim would let anyone open or enter the account of that address);
 * 3. an account with the same email is linked only when that account's own email is verified
 *    too (else whoever registered it, perhaps with someone else's address, keeps a password
 *    into it: the owner proves the mailbox by verifying or resetting first) and it has no
 *    other identity of that provider;
 * 4. otherwise a new account is created with that email and the link.
 * Races (two first sign-ins at once, a registration in between) are settled by the unique
 * lookups and a fresh pass.
 */
export async function signInWithIdentity(
  kv: Deno.Kv,
  identity: VerifiedIdentity,
  now = Date.now(),
  /** The registration rule for a new account (store/account/invitations.ts). */
  guard?: RegistrationGuard,
): Promise<IdentitySignIn> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const linkedId = await findUserIdByIdentity(kv, identity.provider, identity.subject);
    const linked = linkedId ? await getUser(kv, linkedId) : null;
    if (linked) return { ok: true, user: linked, created: false };
    if (!identity.email) return { ok: false, reason: "email_missing" };
    if (!identity.emailVerified) return { ok: false, reason: "email_unverified" };
    const link = {
      subject: identity.subject,
      email: normaliseEmail(identity.email),
      linkedAt: new Date(now).toISOString(),
    };

    const existingId = await findUserIdByEmail(kv, identity.email);
    const existing = existingId ? await getUser(kv, existingId) : null;
    if (existing) {
      if (!existing.emailVerified) return { ok: false, reason: "account_unverified" };
      // One identity per provider: another one of the same provider is not silently replaced.
      if (existing.identities?.[identity.provider]) return { ok: false, reason: "already_linked" };
      const linkedNow = await updateUser(
        kv,
        existing.id,
        (user) =>
          user.emailVerified
            ? { ...user, identities: { ...user.identities, [identity.provider]: link } }
            : user,
      );
      if (linkedNow?.ok && linkedNow.user.identities?.[identity.provider]) {
        return { ok: true, user: linkedNow.user, created: false };
      }
      continue;
    }

    const created = await createUser(
      kv,
      {
        email: identity.email,
        displayName: identity.displayName,
        emailVerified: true,
        identities: { [identity.provider]: link },
      },
      now,
      guard,
    );
    if (created.ok) return { ok: true, user: created.user, created: true };
    if (created.refused) return { ok: false, reason: "refused", refused: created.refused };
  }
  throw new ConflictError("Sign-in raced other changes to this account, try again");
}

export type UnlinkOutcome = "removed" | "not_linked" | "last_way_in" | "account_gone";

/**
 * Removes the account's link to `provider`, with its lookup, unless it is the last way in (no
 * password and no other link). Decided on the record as committed, so two removals at once
 * cannot both pass.
 */
export async function unlinkIdentity(
  kv: Deno.Kv,
  userId: string,
  provider: IdentityProvider,
): Promise<UnlinkOutcome> {
  let outcome: UnlinkOutcome = "removed";
  const result = await updateUser(kv, userId, (user) => {
    if (!identityLinks(user).some((link) => link.provider === provider)) {
      outcome = "not_linked";
      return user;
    }
    if (!canRemoveIdentity(user, provider)) {
      outcome = "last_way_in";
      return user;
    }
    outcome = "removed";
    const { [provider]: _removed, ...rest } = user.identities ?? {};
    return { ...user, identities: rest };
  });
  return result ? outcome : "account_gone";
}
