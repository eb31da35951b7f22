/**
 * The background tracker's rules (docs/carriers.md "Schedule and budget"): when a tracking
 * number is next due, how it backs off while its scans stay the same, when it is given up, and
 * how a carrier's daily budget is shared between passes. Pure; the clock is passed in.
 */
import { isInstant, type TrackingResult } from "./answer.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** After a change, a number is looked at again this much later. */
export const BASE_INTERVAL_MS = 3 * HOUR;
/** Each answer without a change doubles the wait, up to this. */
export const MAX_INTERVAL_MS = DAY;
/** A number whose scans have not changed for this long is no longer tracked. */
export const STOP_AFTER_MS = 60 * DAY;
/**
 * The part of each carrier's daily budget kept for `GET /api/carrier-status`; the tracker spends
 * the rest, so people looking up numbers can never starve it, nor it them.
 */
export const LOOKUP_SHARE = 0.2;

/** Where a tracking number stands with the tracker. Times are epoch ms. */
export interface TrackSchedule {
  /** The last live answer (or failed attempt). */
  checkedAt: number;
  /** What the scans looked like ({@link scanSignature}); empty before any answer. */
  signature: string;
  /** When the scans last changed (the newest scan's time where the carrier gave one). */
  lastChangeAt: number;
  intervalMs: number;
  dueAt: number;
}

/** What tells two answers apart: status, number of scans, and the newest scan. */
export function scanSignature(result: TrackingResult): string {
  const newest = result.events[0];
  return [result.status, result.eventCount, newest?.time ?? "", newest?.description ?? ""]
    .join("|");
}

/**
 * The time of the newest scan, at most `now`. A local time without zone is read as UTC: within
 * a day of the truth, which is all a 60-day rule needs.
 */
function newestScanMs(result: TrackingResult, now: number): number | undefined {
  const time = result.events[0]?.time;
  if (!time) return undefined;
  const ms = Date.parse(isInstant(time) || time.length === 10 ? time : `${time}Z`);
  return Number.isFinite(ms) ? Math.min(ms, now) : undefined;
}

/**
 * The schedule after a live answer. A first answer or a changed one starts again at the base
 * interval; the same scans as last time double the wait (up to a day). The last change is the
 * newest scan's time when the scans changed, else the earlier value; a first answer without
 * scans counts from `since` (when the number started being tracked).
 */
export function afterAnswer(
  prev: TrackSchedule | undefined,
  result: TrackingResult,
  now: number,
  since: number,
): TrackSchedule {
  const signature = scanSignature(result);
  const changed = !prev || prev.signature !== signature;
  const intervalMs = changed ? BASE_INTERVAL_MS : nextInterval(prev);
  let lastChangeAt = prev?.lastChangeAt ?? Math.min(since, now);
  if (changed) {
    const scanned = newestScanMs(result, now) ?? (prev ? now : lastChangeAt);
    lastChangeAt = prev ? Math.max(prev.lastChangeAt, scanned) : scanned;
  }
  return { checkedAt: now, signature, lastChangeAt, intervalMs, dueAt: now + intervalMs };
}

/** After a failed lookup (carrier error): the same backoff as an unchanged answer. */
export function afterFailure(
  prev: TrackSchedule | undefined,
  now: number,
  since: number,
): TrackSchedule {
  const intervalMs = prev ? nextInterval(prev) : BASE_INTERVAL_MS;
  return {
    checkedAt: now,
    signature: prev?.signature ?? "",
    lastChangeAt: prev?.lastChangeAt ?? Math.min(since, now),
    intervalMs,
    dueAt: now + intervalMs,
  };
}

function nextInterval(prev: TrackSchedule): number {
  return Math.min(Math.max(prev.intervalMs, BASE_INTERVAL_MS) * 2, MAX_INTERVAL_MS);
}

/** When a number is due: as scheduled, or, never looked at, since it started being tracked. */
export function dueAt(schedule: TrackSchedule | undefined, since: number): number {
  return schedule?.dueAt ?? since;
}

/** Whether the tracker has given the number up (no change for {@link STOP_AFTER_MS}). */
export function givenUp(schedule: TrackSchedule | undefined, now: number): boolean {
  return schedule !== undefined && now - schedule.lastChangeAt >= STOP_AFTER_MS;
}

/** The tracker's and the lookups' shares of a carrier's daily budget (they sum to it). */
export function budgetShares(dailyBudget: number): { tracker: number; lookup: number } {
  const tracker = Math.floor(dailyBudget * (1 - LOOKUP_SHARE));
  return { tracker, lookup: dailyBudget - tracker };
}

/** The UTC day (`YYYY-MM-DD`) a budget counts in: the carriers' quotas reset at 00:00 GMT. */
export function budgetDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Milliseconds until the next UTC midnight (the budget's reset). */
export function untilBudgetReset(now: number): number {
  return DAY - (((now % DAY) + DAY) % DAY);
}

/**
 * Calls one pass may make for a carrier: what is left of the tracker's share today, spread
 * evenly over the passes left before the UTC midnight reset (rounded up, so a small remainder is
 * still spent), never more than what is left.
 */
export function passAllowance(
  trackerShare: number,
  spentToday: number,
  now: number,
  pollMinutes: number,
): number {
  const remaining = Math.max(0, trackerShare - spentToday);
  const passesLeft = Math.max(1, Math.ceil(untilBudgetReset(now) / (pollMinutes * MINUTE)));
  return Math.min(remaining, Math.ceil(remaining / passesLeft));
}
