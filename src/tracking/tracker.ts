/**
 * The background tracker (docs/carriers.md): every `TRACKING_POLL_MINUTES`, under a KV lease, it
 * refreshes the tracking numbers of shipped and `issue` orders of every workspace, most overdue
 * first, each carrier API within its pass allowance (the tracker's share of the daily budget
 * spread over the passes left in the UTC day) and its pacing. A number whose scans do not change
 * waits longer each time; one without a change for 60 days is left alone.
 */
import { API_OF, type ApiKey, type Carriers } from "./client.ts";
import { liveLookup, recordFailure, type TrackTarget } from "./lookup.ts";
import type { Config } from "../config.ts";
import type { Events } from "../events/events.ts";
import type { Logger } from "../lib/log.ts";
import { CARRIER_KEYS, type CarrierKey } from "../domain/tracking/carriers.ts";
import type { Order } from "../domain/orders/order.ts";
import { budgetDay, dueAt, givenUp, passAllowance } from "../domain/tracking/tracker.ts";
import { detectCarrier, trackingKey } from "../domain/tracking/number.ts";
import { UpstreamError } from "../errors.ts";
import { safeTimeZone } from "../lib/timezone.ts";
import { callsSpent } from "../store/tracking/carrier_budget.ts";
import { withLease } from "../store/lease.ts";
import { allUsers, listTracking, trackedOrders } from "../store/tracking/answers.ts";

/** What the tracker uses of the app's services. */
export interface TrackerDeps {
  kv: Deno.Kv;
  log: Logger;
  now: () => number;
  config: Pick<Config, "tracking">;
  carriers: Carriers;
  events: Pick<Events, "bus">;
}

export const TRACKER_JOB = "carrier tracker";
const LEASE_NAME = "carrier-tracker";
/** A pass stops taking numbers after this share of the period (at most 20 minutes)... */
const RUN_SHARE = 0.8;
const MAX_RUN_MS = 20 * 60_000;
/** ...and its lease outlasts that by the longest lookup under way. */
const LEASE_EXTRA_MS = 60_000;
/** Failures in a row after which a pass leaves an API for the next pass. */
const MAX_FAILURES_PER_PASS = 3;
/**
 * Lookups under way at once per API: carriers answer in a few hundred milliseconds, so one at a
 * time could not use an API's pace (UPS 10 a second); its pacer still spaces the calls.
 */
export const LOOKUPS_IN_FLIGHT = 4;

/** A tracking number that is due, with the orders' earliest change as its start. */
interface Candidate extends TrackTarget {
  due: number;
}

export interface ApiReport {
  due: number;
  looked: number;
  failed: number;
  calls: number;
  allowance: number;
  /** Why the pass stopped before the end of the queue, if it did. */
  stopped?: "allowance" | "budget" | "paused" | "failures" | "deadline" | "not_configured";
}

export interface TrackerReport {
  /** Tracking numbers of shipped and issue orders seen, and those given up (60 days). */
  tracked: number;
  givenUp: number;
  apis: Partial<Record<ApiKey, ApiReport>>;
  ordersUpdated: number;
}

export interface TrackerOptions {
  signal?: AbortSignal;
  /** Lookups under way at once per API (default {@link LOOKUPS_IN_FLIGHT}). */
  concurrency?: number;
}

/**
 * One pass. Resolves to its report, or null when it did not run: the tracker is off
 * (`TRACKING_POLL_MINUTES=0`), no carrier has credentials, or another process holds the lease.
 */
export async function runTracker(
  deps: TrackerDeps,
  options: TrackerOptions = {},
): Promise<TrackerReport | null> {
  const { pollMinutes } = deps.config.tracking;
  if (pollMinutes === 0 || !CARRIER_KEYS.some((c) => deps.carriers.configured(c))) return null;
  const runMs = Math.min(pollMinutes * 60_000 * RUN_SHARE, MAX_RUN_MS);
  let report = null as TrackerReport | null;
  await withLease(deps.kv, LEASE_NAME, runMs + LEASE_EXTRA_MS, deps.now, async () => {
    const deadline = performance.now() + runMs;
    const stop = () => options.signal?.aborted || performance.now() > deadline;
    report = await pass(deps, stop, options.concurrency ?? LOOKUPS_IN_FLIGHT);
  });
  if (report) deps.log.info("tracker pass", { ...report });
  return report;
}

async function pass(
  deps: TrackerDeps,
  stop: () => boolean,
  concurrency: number,
): Promise<TrackerReport> {
  const now = deps.now();
  const report: TrackerReport = { tracked: 0, givenUp: 0, apis: {}, ordersUpdated: 0 };
  const queues = new Map<ApiKey, Candidate[]>();
  for await (const user of allUsers(deps.kv)) {
    if (stop()) break;
    const orders = await trackedOrders(deps.kv, user.id);
    if (orders.length === 0) continue;
    const records = await listTracking(deps.kv, user.id);
    for (const target of targetsOf(user.id, safeTimeZone(user.timezone), orders)) {
      report.tracked++;
      const schedule = records.get(target.key)?.schedule;
      if (givenUp(schedule, now)) {
        report.givenUp++;
        continue;
      }
      const due = dueAt(schedule, target.since!);
      if (due > now) continue;
      const api = API_OF[target.query.carrier];
      if (!queues.has(api)) queues.set(api, []);
      queues.get(api)!.push({ ...target, due });
    }
  }
  await Promise.all([...queues].map(async ([api, queue]) => {
    queue.sort((a, b) => a.due - b.due);
    report.apis[api] = await drain(deps, api, queue, { now, stop, concurrency }, report);
  }));
  return report;
}

/**
 * The tracking numbers of a workspace's orders, each once, with its carrier: the order's
 * carrier when it is a carrier key, else the detected one (orders whose carrier is neither are
 * not tracked). `since` is the earliest `updatedAt` of the orders with the number.
 */
function targetsOf(userId: string, timeZone: string, orders: Order[]): TrackTarget[] {
  const byKey = new Map<string, TrackTarget>();
  for (const order of orders) {
    const key = trackingKey(order.trackingNumber!);
    if (!key) continue;
    const since = Date.parse(order.updatedAt);
    const known = byKey.get(key);
    if (known) {
      known.since = Math.min(known.since!, since);
      continue;
    }
    const detected = detectCarrier(key);
    const carrier = (CARRIER_KEYS as readonly string[]).includes(order.carrier ?? "")
      ? order.carrier as CarrierKey
      : detected.valid
      ? detected.carrier
      : null;
    if (!carrier) continue;
    const form = detected.valid && detected.carrier === carrier ? detected.form : undefined;
    byKey.set(key, { userId, timeZone, key, query: { carrier, trackingNumber: key, form }, since });
  }
  return [...byKey.values()];
}

/** Looks up one API's due numbers in order until its allowance or something else stops it. */
async function drain(
  deps: TrackerDeps,
  api: ApiKey,
  queue: Candidate[],
  { now, stop, concurrency }: { now: number; stop: () => boolean; concurrency: number },
  report: TrackerReport,
): Promise<ApiReport> {
  const out: ApiReport = { due: queue.length, looked: 0, failed: 0, calls: 0, allowance: 0 };
  if (!deps.carriers.configured(queue[0].query.carrier)) {
    return { ...out, stopped: "not_configured" };
  }
  const spent = await callsSpent(deps.kv, api, budgetDay(now), "tracker");
  const share = deps.carriers.share("tracker");
  out.allowance = passAllowance(share, spent, now, deps.config.tracking.pollMinutes);
  const tracking = { kv: deps.kv, carriers: deps.carriers, bus: deps.events.bus, now: deps.now };
  const callsBefore = deps.carriers.callsMade(api, "tracker");
  const made = () => deps.carriers.callsMade(api, "tracker") - callsBefore;
  let next = 0;
  let failuresInRow = 0;
  // Every lookup started makes at least one call, so counting starts keeps lookups under way
  // within the allowance; a token request may still add one.
  const worker = async () => {
    while (!out.stopped && next < queue.length) {
      if (Math.max(made(), next) >= out.allowance) out.stopped = "allowance";
      else if (stop()) out.stopped = "deadline";
      if (out.stopped) break;
      const target = queue[next++];
      try {
        const outcome = await liveLookup(tracking, target, "tracker");
        if (!outcome.ok) {
          out.stopped ??= outcome.reason === "budget_spent" ? "budget" : "not_configured";
          break;
        }
        out.looked++;
        report.ordersUpdated += outcome.ordersUpdated;
        failuresInRow = 0;
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        out.failed++;
        // Paused (a 429, or failures in a row): the number stays first in line for next time.
        if (err.details.retryAfterSeconds !== undefined) {
          out.stopped ??= "paused";
          break;
        }
        await recordFailure(tracking, target);
        if (++failuresInRow >= MAX_FAILURES_PER_PASS) out.stopped ??= "failures";
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  out.calls = deps.carriers.callsMade(api, "tracker") - callsBefore;
  return out;
}
