/** An account as stored. `passwordHash` never leaves the store layer's callers. */
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
}

/** The account user of `GET /api/auth/me`: every field but secrets. */
export type PublicUser = Omit<UserRecord, "passwordHash">;

export function toPublicUser(user: UserRecord): PublicUser {
  const { passwordHash: _secret, ...rest } = user;
  return rest;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
