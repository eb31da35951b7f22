/**
 * Which known name an unknown one was probably meant to be: `cost` for `costCents`,
 * `tracking` or `tracking_number` for `trackingNumber`, `itemSumary` for `itemSummary`.
 * Pure and bounded: names are compared case-insensitively without `_`/`-`, and only the first
 * 64 characters of each count.
 */

const fold = (name: string) => name.slice(0, 64).toLowerCase().replace(/[_-]/g, "");

/** Edit distance, stopping early once it exceeds `max`. */
function distanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      best = Math.min(best, row[j]);
    }
    if (best > max) return false;
    previous = row;
  }
  return previous[b.length] <= max;
}

/** The known names `unknown` is close to (several when it is ambiguous), or none. */
export function nearNames(unknown: string, known: readonly string[]): string[] {
  const u = fold(unknown);
  if (u.length < 3) return [];
  const exact = known.filter((k) => fold(k) === u);
  if (exact.length > 0) return exact;
  // A known name that starts with the unknown one (`cost` -> `costCents`), or the reverse.
  const prefixed = known.filter((k) => fold(k).startsWith(u) || u.startsWith(fold(k)));
  if (prefixed.length > 0) return prefixed.slice(0, 3);
  return known.filter((k) => distanceAtMost(u, fold(k), u.length < 6 ? 1 : 2)).slice(0, 3);
}
