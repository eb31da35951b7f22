/** ISO 8601 UTC with millisecond precision, the format of every timestamp field. */
export function isoNow(clock: () => number = Date.now): string {
  return new Date(clock()).toISOString();
}
