/**
 * Carrier answers per workspace and tracking number (the cache of `GET /api/carrier-status` and
 * the tracker's schedule, one record), the orders by tracking number, and the reads the tracker
 * makes to find what to refresh.
 */
import type { Order } from "../../domain/orders/order.ts";
import type { TrackSchedule } from "../../domain/tracking/tracker.ts";
import type { TrackingResult } from "../../domain/tracking/answer.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { keys } from "../keys.ts";
import { commit, listValues, lookup, withRetry } from "../kv.ts";

/** The last live answer for a tracking number of a workspace, and when it is due again. */
export interface TrackingRecord {
  /** The last answer the carrier gave, and when (a failed attempt keeps the one before). */
  result?: TrackingResult;
  answeredAt?: number;
  schedule: TrackSchedule;
}

/** Records of numbers nobody looks at any more go: every write keeps one 90 days. */
const RECORD_TTL_MS = 90 * 24 * 3_600_000;
/** Orders one answer is applied to: one number on more orders than this is not a parcel. */
export const MAX_ORDERS_PER_NUMBER = 50;

export async function getTracking(
  kv: Deno.Kv,
  userId: string,
  key: string,
): Promise<TrackingRecord | null> {
  return (await lookup<TrackingRecord>(kv, keys.trackingRecord(userId, key))).value;
}

/** Rewrites a record from its current value (checked, so racing writers each see the other). */
export function updateTracking(
  kv: Deno.Kv,
  userId: string,
  key: string,
  next: (prev: TrackingRecord | null) => TrackingRecord,
): Promise<TrackingRecord> {
  const k = keys.trackingRecord(userId, key);
  return withRetry(async () => {
    const prev = await kv.get<TrackingRecord>(k);
    const record = next(prev.value);
    const op = kv.atomic().check(prev).set(k, record, { expireIn: RECORD_TTL_MS });
    return { commit: await commit(op), value: record };
  });
}

/** Every record of a workspace, by tracking key. */
export async function listTracking(
  kv: Deno.Kv,
  userId: string,
): Promise<Map<string, TrackingRecord>> {
  const out = new Map<string, TrackingRecord>();
  for await (const e of kv.list<TrackingRecord>({ prefix: keys.trackingRecords(userId) })) {
    out.set(e.key[e.key.length - 1] as string, e.value);
  }
  return out;
}

/** Ids of the workspace's orders with this tracking key (the order footprint's index). */
export async function orderIdsByTracking(
  kv: Deno.Kv,
  userId: string,
  key: string,
): Promise<string[]> {
  const ids: string[] = [];
  const entries = kv.list<string>({ prefix: keys.ordersByTracking(userId, key) }, {
    limit: MAX_ORDERS_PER_NUMBER,
  });
  for await (const e of entries) ids.push(e.value);
  return ids;
}

/** Every account, a page at a time. */
export async function* allUsers(kv: Deno.Kv): AsyncGenerator<UserRecord> {
  for await (const e of kv.list<UserRecord>({ prefix: keys.users() }, { batchSize: 500 })) {
    yield e.value;
  }
}

/** The statuses the tracker refreshes: shipped, and held up by a problem, not yet delivered. */
export const TRACKED_STATUSES = ["shipped", "issue"] as const;

/** The workspace's orders in a tracked status that have a tracking number. */
export async function trackedOrders(kv: Deno.Kv, userId: string): Promise<Order[]> {
  const lists = await Promise.all(
    TRACKED_STATUSES.map((status) =>
      listValues<Order>(kv, { prefix: keys.ordersByStatus(userId, status) }, { batchSize: 1000 })
    ),
  );
  return lists.flat().filter((order) => order.trackingNumber);
}
