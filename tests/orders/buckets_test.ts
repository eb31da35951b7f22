import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { BUCKET_LEVELS_MS, bucketsOf, planRange } from "../../src/domain/orders/buckets.ts";

const Q = BUCKET_LEVELS_MS[0];
const DAY = BUCKET_LEVELS_MS[1];
const BLOCK = BUCKET_LEVELS_MS[2];

/** The ms ranges a plan covers, sorted. */
function covered(plan: ReturnType<typeof planRange>): Array<[number, number]> {
  const ranges: Array<[number, number]> = [
    ...plan.buckets.map((b): [number, number] => [
      b.from * BUCKET_LEVELS_MS[b.level],
      b.to * BUCKET_LEVELS_MS[b.level],
    ]),
    ...plan.raw,
  ];
  return ranges.sort((a, b) => a[0] - b[0]);
}

Deno.test("a plan tiles the range exactly, without gaps or overlaps", () => {
  const cases: Array<[number, number]> = [
    [0, 1],
    [5, 7],
    [Q, 2 * Q],
    [Q - 1, 3 * Q + 5],
    [DAY + 45 * 60_000, 5 * DAY + 15 * 60_000],
    [-3 * DAY - 7, 200 * DAY + 11],
    [1_700_000_000_123, 1_760_000_000_456],
  ];
  for (const [a, b] of cases) {
    const ranges = covered(planRange(a, b));
    equal(ranges[0][0], a);
    equal(ranges.at(-1)![1], b);
    for (let i = 1; i < ranges.length; i++) equal(ranges[i][0], ranges[i - 1][1]);
  }
});

Deno.test("aligned ranges need no raw reads and few bucket reads", () => {
  // A local day in a +05:45 zone starts on a 15-minute boundary.
  const start = 20_000 * DAY - (5 * 60 + 45) * 60_000;
  const plan = planRange(start, start + 30 * DAY);
  eq(plan.raw, []);
  equal(plan.buckets.length <= 5, true);
  // Ten years: a handful of ranges whatever the length.
  const long = planRange(0, 3650 * DAY);
  eq(long.raw, []);
  equal(long.buckets[0].level, 2);
  equal(long.buckets[0].to - long.buckets[0].from, Math.floor(3650 * DAY / BLOCK));
});

Deno.test("an empty or inverted range has no parts", () => {
  eq(planRange(10, 10), { buckets: [], raw: [] });
  eq(planRange(10, 5), { buckets: [], raw: [] });
});

Deno.test("bucketsOf gives one bucket per level", () => {
  eq(bucketsOf(DAY + Q + 1), [97, 1, 0]);
  eq(bucketsOf(-1), [-1, -1, -1]);
});
