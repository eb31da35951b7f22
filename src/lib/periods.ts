/**
 * Whether the minute `now` falls in is one of a job's configured passes, every `minutes`
 * (a divisor of 60, or whole hours dividing 24, counted from 00:00 UTC; 0 is never). Jobs
 * whose period is configuration tick every minute and run on these minutes, since the cron
 * schedule itself must be fixed before the configuration is read.
 */
export function everyMinutes(now: number, minutes: number): boolean {
  return minutes > 0 && Math.floor(now / 60_000) % minutes === 0;
}
