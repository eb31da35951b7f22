/**
 * Billing state: which account a provider customer belongs to, and the provider's events,
 * each applied once (its id is recorded in the commit that applies it) and placed by its own
 * time (domain/billing/provider.ts), so retries, duplicates and late events change nothing.
 */
import { afterSubscriptionEvent, type BillingEvent } from "../../domain/billing/provider.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { keys } from "../keys.ts";
import { backReferencedKeys, commit, lookup, withRetry } from "../kv.ts";

/** The provider retries a webhook for days: an applied event id is remembered for 30. */
const EVENT_MEMORY_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Records `customerId` as the account's billing customer (unless it has one already) with its
 * global lookup. The account's customer after the call; null when the account is gone.
 */
export function linkCustomer(kv: Deno.Kv, userId: string, customerId: string) {
  return withRetry<string | null>(async () => {
    const user = await kv.get<UserRecord>(keys.user(userId));
    if (!user.value) return { commit: null, value: null };
    if (user.value.billingCustomerId) return { commit: null, value: user.value.billingCustomerId };
    const op = kv.atomic().check(user).set(user.key, {
      ...user.value,
      billingCustomerId: customerId,
    });
    linkWrites(op, userId, customerId);
    return { commit: await commit(op), value: customerId };
  });
}

function linkWrites(op: Deno.AtomicOperation, userId: string, customerId: string) {
  op.set(keys.billingCustomer(customerId), userId)
    .set(keys.userBillingCustomer(userId, customerId), true);
}

export type Applied = "applied" | "duplicate" | "stale" | "unknown_account" | "ignored";

/** Applies a verified provider event once; `planPriceId` is the price of the paid plan. */
export function applyBillingEvent(
  kv: Deno.Kv,
  event: BillingEvent,
  now: number,
  planPriceId: string | undefined,
) {
  const marker = keys.billingEvent(event.id);
  return withRetry<Applied>(async () => {
    const seen = await lookup(kv, marker);
    if (seen.versionstamp) return { commit: null, value: "duplicate" };
    const op = kv.atomic().check(seen).set(marker, { at: now }, { expireIn: EVENT_MEMORY_MS });
    if (event.kind === "ignored") return { commit: await commit(op), value: "ignored" };
    const byCustomer = event.customerId
      ? (await lookup<string>(kv, keys.billingCustomer(event.customerId))).value
      : null;
    const userId = byCustomer ?? event.userId;
    const user = userId ? await lookup<UserRecord>(kv, keys.user(userId)) : null;
    if (!user?.value) return { commit: await commit(op), value: "unknown_account" };
    op.check(user);
    let next: UserRecord = user.value;
    let outcome: Applied = "applied";
    if (event.customerId && !next.billingCustomerId) {
      next = { ...next, billingCustomerId: event.customerId };
      linkWrites(op, next.id, event.customerId);
    }
    if (event.kind === "subscription") {
      const fields = afterSubscriptionEvent(next, event, planPriceId);
      if (fields) next = { ...next, ...fields };
      else outcome = "stale";
    }
    if (next !== user.value) op.set(user.key, dropUndefined(next));
    return { commit: await commit(op), value: outcome };
  });
}

const dropUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** Global lookups of the account's billing customers (for account deletion). */
export const billingCustomerKeysOf = (kv: Deno.Kv, userId: string) =>
  backReferencedKeys(kv, keys.userBillingCustomers(userId), keys.billingCustomer);
