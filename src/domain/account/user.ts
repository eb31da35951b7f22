import type { InsightState } from "../insights/sums.ts";

/** Sign-in providers an account can be linked to, by the provider's subject id. */
export type IdentityProvider = "atlas" | "discord";

/** What a sign-in provider vouched for after its token checked out. */
export interface VerifiedIdentity {
  provider: IdentityProvider;
  subject: string;
  email?: string;
  emailVerified: boolean;
  displayName?: string;
}

/**
 * A linked sign-in identity as stored: the provider's subject, the email the provider vouched
 * for when it was linked, and when. Records written before links kept email and time hold the
 * subject alone (`identityLinks` reads both).
 */
export interface IdentityLink {
  subject: string;
  email: string;
  linkedAt: string;
}

/** An account as stored. `passwordHash` and `identities` never leave the store layer's callers. */
export interface UserRecord {
  id: string;
  email: string;
  username?: string;
  displayName?: string;
  createdAt: string;
  publicProfile: boolean;
  publicStats: boolean;
  webhookHandle: string;
  timezone: string;
  plan: "free" | "pro";
  subscriptionStatus?: string;
  subscriptionPeriodEnd?: string;
  subscriptionPriceId?: string;
  emailVerified: boolean;
  passwordHash?: string;
  /** Which maintained insight sums hold the account's orders (store/insights/sums.ts). */
  insights?: InsightState;
  /** The billing provider's customer. */
  billingCustomerId?: string;
  /** Where the last subscription event applied sits in time (domain/billing/provider.ts `eventOrder`). */
  subscriptionEventAt?: number;
  /** Linked sign-in identities: provider -> link (or, in older records, the subject alone). */
  identities?: Partial<Record<IdentityProvider, IdentityLink | string>>;
}

/** The spec's account user fields, in its order: everything `GET /api/auth/me` returns. */
export const PUBLIC_USER_FIELDS = [
  "id",
  "username",
  "email",
  "displayName",
  "createdAt",
  "publicProfile",
  "publicStats",
  "webhookHandle",
  "timezone",
  "plan",
  "subscriptionStatus",
  "subscriptionPeriodEnd",
  "subscriptionPriceId",
  "emailVerified",
] as const satisfies readonly (keyof UserRecord)[];

/** The account user of `GET /api/auth/me`. */
export type PublicUser = Pick<UserRecord, typeof PUBLIC_USER_FIELDS[number]>;

/** Copies only the spec's fields (an allow-list, so a new secret field can never leak). */
export function toPublicUser(user: UserRecord): PublicUser {
  const out: Record<string, unknown> = {};
  for (const field of PUBLIC_USER_FIELDS) {
    if (user[field] !== undefined) out[field] = user[field];
  }
  return out as PublicUser;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Longest email an account can have (RFC 5321's path limit); register refuses longer. */
export const EMAIL_MAX = 254;

/** A linked sign-in as `GET /api/auth/me` lists it. */
export interface LinkedSignIn {
  provider: IdentityProvider;
  email: string;
  linkedAt: string;
}

/**
 * The account's links, older records included (a bare subject was linked from the account's
 * own email, at the latest when the account was created).
 */
export function identityLinks(
  user: Pick<UserRecord, "identities" | "email" | "createdAt">,
): (IdentityLink & { provider: IdentityProvider })[] {
  return Object.entries(user.identities ?? {}).flatMap(([provider, link]) =>
    link === undefined ? [] : [{
      provider: provider as IdentityProvider,
      ...(typeof link === "string"
        ? { subject: link, email: user.email, linkedAt: user.createdAt }
        : link),
    }]
  );
}

/** What the account shows of its links: never the provider's subject id. */
export const linkedSignIns = (user: UserRecord): LinkedSignIn[] =>
  identityLinks(user).map(({ provider, email, linkedAt }) => ({ provider, email, linkedAt }));

/**
 * Whether two versions of an account hold the same ways in (password, linked identities): a
 * sign-in's session is issued only while they are as the sign-in saw them, so a login racing a
 * reset or a password change cannot come out with a session the change would have ended.
 */
export function sameWaysIn(a: UserRecord, b: UserRecord): boolean {
  const links = (u: UserRecord) =>
    identityLinks(u).map((l) => `${l.provider}\n${l.subject}`).sort().join("\n\n");
  return a.passwordHash === b.passwordHash && links(a) === links(b);
}

/** Removing a way in must leave one: a password or another link. */
export function canRemoveIdentity(user: UserRecord, provider: IdentityProvider): boolean {
  const others = identityLinks(user).filter((link) => link.provider !== provider);
  return Boolean(user.passwordHash) || others.length > 0;
}
