/**
 * Calls made to each carrier API per UTC day, counted before each call, in two shares (the
 * tracker's and the lookups', domain/tracking/tracker.ts `budgetShares`). Global keys: the carriers'
 * quotas are the deployment's, not an account's.
 */
import { keys } from "../keys.ts";
import { commit, counterValue, readCounter, withRetry } from "../kv.ts";

export type BudgetPurpose = "tracker" | "lookup";

/** Counters outlive their day by a day (the next day's passes still read yesterday's once). */
const COUNTER_TTL_MS = 2 * 24 * 3_600_000;

/**
 * Takes one call from the share `limit` of `api` on `day`: true when there was one left, and
 * then it is counted (checked against racing takers, so the share is never overspent).
 */
export function takeCall(
  kv: Deno.Kv,
  api: string,
  day: string,
  purpose: BudgetPurpose,
  limit: number,
): Promise<boolean> {
  const key = keys.carrierCalls(api, day, purpose);
  return withRetry(async () => {
    const entry = await kv.get<Deno.KvU64>(key);
    const spent = counterValue(entry.value);
    if (spent >= limit) return { commit: null, value: false };
    const op = kv.atomic().check(entry)
      .set(key, new Deno.KvU64(BigInt(spent + 1)), { expireIn: COUNTER_TTL_MS });
    return { commit: await commit(op), value: true };
  });
}

/** Calls counted for `api` on `day` for one purpose. */
export function callsSpent(
  kv: Deno.Kv,
  api: string,
  day: string,
  purpose: BudgetPurpose,
): Promise<number> {
  return readCounter(kv, keys.carrierCalls(api, day, purpose));
}
