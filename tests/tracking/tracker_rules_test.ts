import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import {
  afterAnswer,
  afterFailure,
  BASE_INTERVAL_MS,
  budgetDay,
  budgetShares,
  dueAt,
  givenUp,
  MAX_INTERVAL_MS,
  passAllowance,
  scanSignature,
  STOP_AFTER_MS,
  untilBudgetReset,
} from "../../src/domain/tracking/tracker.ts";
import type { TrackingResult } from "../../src/domain/tracking/answer.ts";

const HOUR = 3_600_000;
const T0 = Date.parse("2025-03-10T06:00:00Z");

const answer = (eventCount: number, newest?: string): TrackingResult => ({
  carrier: "fedex",
  trackingNumber: "700000000032",
  found: true,
  status: "in_transit",
  events: newest ? [{ time: newest, description: `scan ${eventCount}` }] : [],
  eventCount,
});

Deno.test("a first answer is due again after the base interval; its last change is its newest scan", () => {
  const s = afterAnswer(undefined, answer(2, "2025-03-09T20:00:00.000Z"), T0, T0 - 48 * HOUR);
  eq(s, {
    checkedAt: T0,
    signature: scanSignature(answer(2, "2025-03-09T20:00:00.000Z")),
    lastChangeAt: Date.parse("2025-03-09T20:00:00Z"),
    intervalMs: BASE_INTERVAL_MS,
    dueAt: T0 + BASE_INTERVAL_MS,
  });
  // Without scans, it counts from when tracking began.
  equal(afterAnswer(undefined, answer(0), T0, T0 - HOUR).lastChangeAt, T0 - HOUR);
  // A local time without zone is read as UTC; a scan "in the future" is clamped to now.
  equal(
    afterAnswer(undefined, answer(1, "2025-03-09T20:00:00"), T0, T0).lastChangeAt,
    T0 - 10 * HOUR,
  );
  equal(afterAnswer(undefined, answer(1, "2025-03-11T20:00:00.000Z"), T0, T0).lastChangeAt, T0);
});

Deno.test("the same scans double the wait up to a day; a change starts again", () => {
  let s = afterAnswer(undefined, answer(2, "2025-03-10T05:00:00.000Z"), T0, T0);
  const waits = [];
  for (let i = 1; i <= 5; i++) {
    s = afterAnswer(s, answer(2, "2025-03-10T05:00:00.000Z"), T0 + i * HOUR, T0);
    waits.push(s.intervalMs / HOUR);
  }
  eq(waits, [6, 12, 24, 24, 24]);
  equal(s.lastChangeAt, Date.parse("2025-03-10T05:00:00Z"));
  s = afterAnswer(s, answer(3, "2025-03-10T10:30:00.000Z"), T0 + 6 * HOUR, T0);
  equal(s.intervalMs, BASE_INTERVAL_MS);
  equal(s.lastChangeAt, Date.parse("2025-03-10T10:30:00Z"));
  equal(MAX_INTERVAL_MS, 24 * HOUR);
});

Deno.test("a failure backs off like an unchanged answer and keeps what was known", () => {
  const first = afterFailure(undefined, T0, T0 - HOUR);
  eq(first, {
    checkedAt: T0,
    signature: "",
    lastChangeAt: T0 - HOUR,
    intervalMs: BASE_INTERVAL_MS,
    dueAt: T0 + BASE_INTERVAL_MS,
  });
  const known = afterAnswer(undefined, answer(1, "2025-03-10T05:00:00.000Z"), T0, T0);
  const failed = afterFailure(known, T0 + HOUR, T0);
  equal(failed.signature, known.signature);
  equal(failed.lastChangeAt, known.lastChangeAt);
  equal(failed.intervalMs, 2 * BASE_INTERVAL_MS);
  // The next real answer with the same scans is not a change.
  equal(
    afterAnswer(failed, answer(1, "2025-03-10T05:00:00.000Z"), T0 + 2 * HOUR, T0).intervalMs,
    4 * BASE_INTERVAL_MS,
  );
});

Deno.test("due: as scheduled, or since tracking began; given up 60 days after the last change", () => {
  equal(dueAt(undefined, T0 - HOUR), T0 - HOUR);
  const s = afterAnswer(undefined, answer(1, "2025-03-10T05:00:00.000Z"), T0, T0);
  equal(dueAt(s, 0), T0 + BASE_INTERVAL_MS);
  const changed = Date.parse("2025-03-10T05:00:00Z");
  equal(givenUp(undefined, T0 + 10 * STOP_AFTER_MS), false);
  equal(givenUp(s, changed + STOP_AFTER_MS - 1), false);
  equal(givenUp(s, changed + STOP_AFTER_MS), true);
  equal(STOP_AFTER_MS, 60 * 24 * HOUR);
});

Deno.test("budget: the tracker's share and the lookups' share sum to the budget", () => {
  eq(budgetShares(1000), { tracker: 800, lookup: 200 });
  eq(budgetShares(7), { tracker: 5, lookup: 2 });
  eq(budgetShares(0), { tracker: 0, lookup: 0 });
  equal(budgetDay(Date.parse("2025-03-10T23:59:59.999Z")), "2025-03-10");
  equal(untilBudgetReset(Date.parse("2025-03-10T23:00:00Z")), HOUR);
  equal(untilBudgetReset(Date.parse("2025-03-10T00:00:00Z")), 24 * HOUR);
});

Deno.test("pass allowance: what is left, spread over the passes left in the UTC day", () => {
  const midnight = Date.parse("2025-03-10T00:00:00Z");
  // 800 over 48 half-hour passes: 17 each (rounded up).
  equal(passAllowance(800, 0, midnight, 30), 17);
  // Half the day gone and nothing spent: 800 over 24 passes.
  equal(passAllowance(800, 0, midnight + 12 * HOUR, 30), 34);
  // The last pass of the day takes everything left.
  equal(passAllowance(800, 790, midnight + 23.75 * HOUR, 30), 10);
  equal(passAllowance(800, 800, midnight, 30), 0);
  equal(passAllowance(800, 900, midnight, 30), 0);
  // Every pass over a whole day never spends more than the share.
  let spent = 0;
  for (let t = midnight; t < midnight + 24 * HOUR; t += 30 * 60_000) {
    spent += passAllowance(800, spent, t, 30);
  }
  equal(spent, 800);
  ok(passAllowance(3, 0, midnight, 30) === 1);
});
