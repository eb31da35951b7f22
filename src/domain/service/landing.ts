/**
 * The landing page's platform figures. Read live, the public order count and summed cost moved
 * by exactly one order's cost when any account made an order, so anyone polling them around a
 * known purchase learned what it cost. They are shown as a snapshot taken at most once per UTC
 * hour, each figure rounded down to two significant digits.
 */

const HOUR_MS = 3_600_000;

/** Whether a snapshot taken at `takenAt` still serves at `now`: the same UTC hour. */
export function snapshotServes(takenAt: number, now: number): boolean {
  return Math.floor(takenAt / HOUR_MS) === Math.floor(now / HOUR_MS);
}

/** A count as the landing page shows it: down to two significant digits (1234 -> 1200). */
export function roughly(n: number): number {
  const whole = Math.max(0, Math.trunc(n));
  const unit = 10 ** Math.max(0, String(whole).length - 2);
  return Math.floor(whole / unit) * unit;
}
