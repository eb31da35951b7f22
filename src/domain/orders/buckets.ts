/**
 * Time-bucket counters that make "how many orders between two instants" cheap: every order
 * counts +1 in one bucket per level, and a range is summed from whole buckets of the coarsest
 * level that fits, finer levels towards its ends, and raw entries only for what is left.
 *
 * The finest level is 15 minutes because every timezone offset in use is a multiple of it, so
 * a local calendar day always starts on a bucket boundary and the raw remainder is empty.
 */
export const BUCKET_LEVELS_MS = [15 * 60_000, 86_400_000, 64 * 86_400_000] as const;

/** The bucket an instant falls in, per level. */
export function bucketsOf(ms: number): number[] {
  return BUCKET_LEVELS_MS.map((size) => Math.floor(ms / size));
}

export interface BucketRange {
  level: number;
  /** First bucket, inclusive. */
  from: number;
  /** Last bucket, exclusive. */
  to: number;
}

export interface RangePlan {
  buckets: BucketRange[];
  /** Sub-ranges `[from, to)` in ms no bucket covers: counted from the entries themselves. */
  raw: Array<[number, number]>;
}

/** Splits `[fromMs, toMs)` into whole buckets (coarsest first) and raw remainders. */
export function planRange(fromMs: number, toMs: number): RangePlan {
  const plan: RangePlan = { buckets: [], raw: [] };
  const split = (a: number, b: number, level: number) => {
    if (a >= b) return;
    if (level < 0) {
      plan.raw.push([a, b]);
      return;
    }
    const size = BUCKET_LEVELS_MS[level];
    const lo = Math.ceil(a / size);
    const hi = Math.floor(b / size);
    if (lo >= hi) return split(a, b, level - 1);
    plan.buckets.push({ level, from: lo, to: hi });
    split(a, lo * size, level - 1);
    split(hi * size, b, level - 1);
  };
  split(fromMs, toMs, BUCKET_LEVELS_MS.length - 1);
  return plan;
}
