/**
 * A live lookup and what follows from it, for `GET /api/carrier-status` and the tracker alike:
 * the answer is stored for the workspace and tracking number (the cache, with the tracker's
 * schedule), then merged into every order of the workspace with that number by the order seam's
 * merge rules (fields in `userEdited` untouched). Each of those orders fires
 * `order.tracking_updated`, then `order.shipped` / `order.delivered` when its status really
 * moved; a cached answer fires nothing.
 */
import { statusEvents } from "../domain/orders/order.ts";
import { afterAnswer, afterFailure } from "../domain/tracking/tracker.ts";
import type { TrackingResult } from "../domain/tracking/answer.ts";
import { trackingChange, trackingEventData } from "../domain/tracking/update.ts";
import type { EventBus } from "../events/bus.ts";
import type { BudgetPurpose } from "../store/tracking/carrier_budget.ts";
import { keys } from "../store/keys.ts";
import { type MergeEventsOf, mergeIntoOrder } from "../store/orders/orders.ts";
import {
  getTracking,
  orderIdsByTracking,
  type TrackingRecord,
  updateTracking,
} from "../store/tracking/answers.ts";
import type { Carriers, TrackOutcome } from "./client.ts";
import type { TrackQuery } from "./protocol.ts";

/** What a lookup needs of the service. */
export interface TrackingDeps {
  kv: Deno.Kv;
  carriers: Carriers;
  bus: EventBus;
  now: () => number;
}

/** One tracking number of one workspace. */
export interface TrackTarget {
  userId: string;
  /** The account's timezone (calendar dates of delivery). */
  timeZone: string;
  /** The number as the order index holds it (`trackingKey`). */
  key: string;
  query: TrackQuery;
  /** Since when the number is tracked, for a first answer without scans (default now). */
  since?: number;
}

export type LiveOutcome =
  | { ok: true; result: TrackingResult; checkedAt: number; ordersUpdated: number }
  | Exclude<TrackOutcome, { ok: true }>;

/**
 * Asks the carrier now, stores the answer and applies it to the workspace's orders. The
 * carrier's failures throw `UpstreamError` (nothing is stored then).
 */
export async function liveLookup(
  deps: TrackingDeps,
  target: TrackTarget,
  purpose: BudgetPurpose,
): Promise<LiveOutcome> {
  const outcome = await deps.carriers.track(target.query, purpose);
  if (!outcome.ok) return outcome;
  const { result } = outcome;
  const checkedAt = deps.now();
  await updateTracking(deps.kv, target.userId, target.key, (prev) => ({
    result,
    answeredAt: checkedAt,
    schedule: afterAnswer(prev?.schedule, result, checkedAt, target.since ?? checkedAt),
  }));
  const ordersUpdated = await applyToOrders(deps, target, result, checkedAt);
  return { ok: true, result, checkedAt, ordersUpdated };
}

/** A failed lookup by the tracker: the number waits longer before the next attempt. */
export async function recordFailure(deps: TrackingDeps, target: TrackTarget): Promise<void> {
  const now = deps.now();
  await updateTracking(deps.kv, target.userId, target.key, (prev) => ({
    ...prev,
    schedule: afterFailure(prev?.schedule, now, target.since ?? now),
  }));
}

/** The stored answer when it is younger than `maxAgeMs` and from the carrier asked for. */
export async function cachedAnswer(
  deps: TrackingDeps,
  target: TrackTarget,
  maxAgeMs: number,
): Promise<Required<Pick<TrackingRecord, "result" | "answeredAt">> | null> {
  const record = await getTracking(deps.kv, target.userId, target.key);
  if (!record?.result || record.answeredAt === undefined) return null;
  if (record.result.carrier !== target.query.carrier) return null;
  if (deps.now() - record.answeredAt >= maxAgeMs) return null;
  return { result: record.result, answeredAt: record.answeredAt };
}

function eventsOf(result: TrackingResult): MergeEventsOf {
  return (before, after) => [
    { type: "order.tracking_updated", data: trackingEventData(after, result) },
    ...statusEvents(before.status, after.status).map((type) => ({
      type,
      data: { order: after, source: after.source },
    })),
  ];
}

/**
 * Merges a found answer into each order of the workspace with the number, in a commit per
 * order that checks the order still has it. Returns how many orders took it.
 */
async function applyToOrders(
  deps: TrackingDeps,
  target: TrackTarget,
  result: TrackingResult,
  checkedAt: number,
): Promise<number> {
  const change = trackingChange(result, target.timeZone, checkedAt);
  if (!change) return 0;
  const ids = await orderIdsByTracking(deps.kv, target.userId, target.key);
  const merged = await Promise.all(ids.map(async (orderId) => {
    const indexed = keys.orderByTracking(target.userId, target.key, orderId);
    const outcome = await mergeIntoOrder(deps.kv, {
      userId: target.userId,
      orderId,
      // Not used: `events` below decides what fires.
      source: "manual",
      fields: change.fields,
      signals: change.signals,
      events: eventsOf(result),
      // The order must still have this number when the merge commits (a PATCH may change it).
      extension: {
        keys: [indexed],
        stop: ([entry]) => entry.value === null ? "number changed" : undefined,
        write: () => {},
      },
    }, { now: checkedAt, events: deps.bus });
    return outcome.ok ? 1 : 0;
  }));
  return merged.reduce<number>((a, b) => a + b, 0);
}
