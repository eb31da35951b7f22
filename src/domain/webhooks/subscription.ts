import type { EventType } from "../events/types.ts";
import { compact } from "../../lib/compact.ts";
import { randomToken } from "../../lib/ids.ts";

/** Subscriptions per account; the 26th create answers 429. */
export const MAX_SUBSCRIPTIONS = 25;
/** Consecutive failures that pause a subscription. */
export const AUTO_PAUSE_FAILURES = 10;
/** `prefix` is this many leading characters of the secret (`whsec_` plus 8). */
export const SECRET_PREFIX_LENGTH = 14;

/** A new signing secret: `whsec_` and 32 random bytes in base64url (49 characters). */
export function newSigningSecret(): string {
  return `whsec_${randomToken(32)}`;
}

/** What a subscription's owner is told when its events are skipped for want of a secret. */
export const ROTATE_SECRET_ERROR =
  "Signing secret unavailable: rotate the secret (POST /api/webhook-subscriptions/{id}/rotate-secret)";

/** A webhook subscription as the API shows it (never with the stored secret). */
export type WebhookSubscription = {
  id: string;
  userId: string;
  url: string;
  prefix?: string;
  eventTypes: EventType[];
  active: boolean;
  failureCount: number;
  lastFiredAt?: string;
  lastError?: string;
  createdAt: string;
  needsSecretRotation: boolean;
};

/** The stored record: the view plus the signing secret sealed by the deployment's SecretBox. */
export type StoredSubscription = WebhookSubscription & {
  /** Absent for subscriptions created before secrets were stored (`needsSecretRotation`). */
  sealedSecret?: string;
};

/** The result of one delivery attempt. */
export type Outcome = { ok: true } | { ok: false; error: string };

/** Any 2xx is a success; every other status (3xx included) a failure named `HTTP <code>`. */
export function outcomeOfStatus(status: number): Outcome {
  return status >= 200 && status < 300 ? { ok: true } : { ok: false, error: `HTTP ${status}` };
}

/** Event types in the order given, duplicates removed. */
export function uniqueEventTypes(types: EventType[]): EventType[] {
  return [...new Set(types)];
}

/** Whether an event of `type` goes to this subscription. */
export function receives(sub: WebhookSubscription, type: EventType): boolean {
  return sub.active && sub.eventTypes.includes(type);
}

/**
 * The state after a delivery attempt: a success resets `failureCount`; a failure adds one and
 * sets `lastError`, and the 10th consecutive one pauses the subscription. Both set `lastFiredAt`.
 */
export function afterAttempt<T extends WebhookSubscription>(
  sub: T,
  outcome: Outcome,
  at: string,
): T {
  if (outcome.ok) return { ...sub, failureCount: 0, lastFiredAt: at };
  const failureCount = sub.failureCount + 1;
  return {
    ...sub,
    failureCount,
    lastError: outcome.error,
    lastFiredAt: at,
    active: failureCount >= AUTO_PAUSE_FAILURES ? false : sub.active,
  };
}

/** A skipped event (no usable secret) tells the owner why, and is not counted as a failure. */
export function afterSkip<T extends WebhookSubscription>(sub: T, error: string): T {
  return { ...sub, lastError: error };
}

/** The fields a PATCH may change. */
export interface SubscriptionChanges {
  url?: string;
  eventTypes?: EventType[];
  active?: boolean;
}

/** Applies only the fields sent; `active: true` also resets `failureCount`. */
export function applyChanges<T extends WebhookSubscription>(
  sub: T,
  changes: SubscriptionChanges,
): T {
  const next = { ...sub };
  if (changes.url !== undefined) next.url = changes.url;
  if (changes.eventTypes !== undefined) next.eventTypes = uniqueEventTypes(changes.eventTypes);
  if (changes.active !== undefined) next.active = changes.active;
  if (changes.active === true) next.failureCount = 0;
  return next;
}

/**
 * The state after a secret rotation: the new secret, active, `failureCount` 0, `lastError`
 * cleared, no rotation needed.
 */
export function afterRotation(
  sub: StoredSubscription,
  sealedSecret: string,
  prefix: string,
): StoredSubscription {
  const { lastError: _cleared, ...rest } = sub;
  return {
    ...rest,
    sealedSecret,
    prefix,
    active: true,
    failureCount: 0,
    needsSecretRotation: false,
  };
}

/** The API view: no stored secret, absent fields omitted. */
export function publicSubscription(sub: StoredSubscription): WebhookSubscription {
  const { sealedSecret: _secret, ...view } = sub;
  return compact(view);
}
