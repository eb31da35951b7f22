/**
 * The footprint of an order: every key its existence sets and every counter it adds to. Every
 * order change (create, merge, PATCH, delete, import) is written as the difference between the
 * footprints before and after, so indexes and counters can never disagree with the order.
 */
import { bucketsOf } from "../../domain/orders/buckets.ts";
import { normaliseOrderNumber, type Order } from "../../domain/orders/order.ts";
import { trackingKey } from "../../domain/tracking/number.ts";
import { keys } from "../keys.ts";
import { addToCounter } from "../kv.ts";
import { setMarker } from "../group_commit.ts";
import { CHANGE_TTL_MS, type ChangeEntry, searchEntry } from "./search.ts";
import { insightCounters, type InsightScope } from "../insights/sums.ts";

export interface Footprint {
  entries: Map<string, { key: Deno.KvKey; value: unknown }>;
  counters: Map<string, { key: Deno.KvKey; amount: number }>;
}

type Entries = Footprint["entries"];

/** The keys `order`'s existence sets, with their values (the order, its copies, its indexes). */
export function footprintEntries(userId: string, order: Order): Entries {
  const entries: Entries = new Map();
  const entry = (key: Deno.KvKey, value: unknown) =>
    entries.set(JSON.stringify(key), { key, value });
  const ms = Date.parse(order.receivedAt);
  entry(keys.order(userId, order.id), order);
  entry(keys.orderByReceived(userId, ms, order.id), order);
  entry(keys.orderByStatus(userId, order.status, ms, order.id), order);
  if (order.orderNumber) {
    entry(keys.orderByNumber(userId, normaliseOrderNumber(order.orderNumber)), order.id);
  }
  const tracking = order.trackingNumber ? trackingKey(order.trackingNumber) : null;
  if (tracking) entry(keys.orderByTracking(userId, tracking, order.id), order.id);
  return entries;
}

/** Every entry and counter `order` stands for (none for null); `verify.ts` recounts with it. */
export function footprint(userId: string, order: Order | null, scope: InsightScope): Footprint {
  if (!order) return { entries: new Map(), counters: new Map() };
  const fp: Footprint = { entries: footprintEntries(userId, order), counters: new Map() };
  const count = (key: Deno.KvKey, amount = 1) => {
    if (amount) fp.counters.set(JSON.stringify(key), { key, amount });
  };
  const ms = Date.parse(order.receivedAt);
  count(keys.orderCount(userId));
  count(keys.stat("orders"));
  count(keys.orderStatusCount(userId, order.status));
  count(keys.valueCents(userId), order.costCents ?? 0);
  count(keys.stat("value_cents"), order.costCents ?? 0);
  bucketsOf(ms).forEach((bucket, level) => {
    count(keys.orderBucket(userId, "all", level, bucket));
    count(keys.orderBucket(userId, order.status, level, bucket));
  });
  for (const { key, amount } of insightCounters(userId, order, scope)) count(key, amount);
  return fp;
}

export interface Change {
  before: Order | null;
  after: Order | null;
}

/**
 * Adds order moves to `op` (`before` or `after` null: create, delete): keys an order no longer
 * has are deleted, its copies rewritten, and every counter moved once by the summed difference.
 * `scope` comes from the account record the commit checks (its timezone and insight state).
 */
export function writeChanges(
  op: Deno.AtomicOperation,
  userId: string,
  changes: Change[],
  scope: InsightScope,
): void {
  const deltas = new Map<string, { key: Deno.KvKey; amount: number }>();
  const add = (id: string, key: Deno.KvKey, amount: number) =>
    deltas.set(id, { key, amount: (deltas.get(id)?.amount ?? 0) + amount });
  const realNow = Date.now();
  for (const { before, after } of changes) {
    const old = footprint(userId, before, scope);
    const next = footprint(userId, after, scope);
    for (const [id, { key }] of old.entries) if (!next.entries.has(id)) op.delete(key);
    // Every entry is written again, unchanged ones too: an index entry missing for any reason
    // (data from a release that did not write it) is repaired by the order's next change.
    for (const { key, value } of next.entries.values()) op.set(key, value);
    for (const [id, c] of old.counters) add(id, c.key, -c.amount);
    for (const [id, c] of next.counters) add(id, c.key, c.amount);
    const change: ChangeEntry = after ? searchEntry(after) : { deleted: true };
    const id = (after ?? before)!.id;
    op.set(keys.orderChange(userId, realNow, id), change, { expireIn: CHANGE_TTL_MS });
  }
  for (const { key, amount } of deltas.values()) addToCounter(op, key, amount);
  setMarker(op, keys.orderRevision(userId), realNow);
}

export const writeChange = (
  op: Deno.AtomicOperation,
  userId: string,
  before: Order | null,
  after: Order | null,
  scope: InsightScope,
) => writeChanges(op, userId, [{ before, after }], scope);
