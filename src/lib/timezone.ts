/**
 * Calendar arithmetic in an account's IANA timezone, through Intl (no tz database of our own).
 * Calendar dates are `YYYY-MM-DD` strings; instants are epoch milliseconds.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone itself when Intl knows it, else UTC: a bad stored value never breaks a request. */
export function safeTimeZone(timeZone: string | undefined): string {
  if (!timeZone) return "UTC";
  try {
    formatter(timeZone);
    return timeZone;
  } catch {
    return "UTC";
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(ms: number, timeZone: string): WallClock {
  const out: Record<string, number> = {};
  let beforeCommonEra = false;
  for (const p of formatter(timeZone).formatToParts(ms)) {
    if (p.type === "era") beforeCommonEra = p.value === "BC";
    else if (p.type !== "literal") out[p.type] = Number(p.value);
  }
  // Intl counts years before the Common Era backwards from 1 BC; ISO years go 0, -1, ...
  if (beforeCommonEra) out.year = 1 - out.year;
  return out as unknown as WallClock;
}

/**
 * Date.UTC for any year: Date.UTC itself reads years 0 to 99 as 1900 to 1999. Out-of-range
 * months and days roll over as in Date.UTC.
 */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0) {
  return new Date(Date.UTC(2000, 0, 1, hour, minute, second)).setUTCFullYear(
    year,
    month - 1,
    day,
  );
}

/** Local time minus UTC at an instant, in milliseconds. */
export function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const local = utc(w.year, w.month, w.day, w.hour, w.minute, w.second);
  return local - (ms - (((ms % 1000) + 1000) % 1000));
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `YYYY-MM-DD`; years past 9999 take more digits, years before 0 a minus sign. */
function calendarDate(year: number, month: number, day: number): string {
  return `${year < 0 ? "-" : ""}${pad(Math.abs(year), 4)}-${pad(month)}-${pad(day)}`;
}

/** The calendar date of an instant in UTC. */
function utcDate(ms: number): string {
  const t = new Date(ms);
  return calendarDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** The calendar date of an instant in the zone. */
export function localDate(ms: number, timeZone: string): string {
  const w = wallClock(ms, timeZone);
  return calendarDate(w.year, w.month, w.day);
}

/** The calendar month (`YYYY-MM`) of an instant in the zone. */
export function localMonth(ms: number, timeZone: string): string {
  return localDate(ms, timeZone).slice(0, 7);
}

/** A valid `YYYY-MM-DD` plus `days` (may be negative). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return utcDate(utc(y, m, d + days));
}

/**
 * The first instant of a calendar date in the zone. Where a DST change skips local midnight,
 * the day starts at the first local time that exists.
 */
export function startOfDay(date: string, timeZone: string): number {
  const [y, m, d] = date.split("-").map(Number);
  const wall = utc(y, m, d);
  const first = wall - offsetAt(wall, timeZone);
  const candidates = [first, wall - offsetAt(first, timeZone)];
  const valid = candidates.filter((t) => localDate(t, timeZone) === date);
  return valid.length ? Math.min(...valid) : first;
}

/**
 * Calendar dates `from`..`to` of the zone, both inclusive and either open, as the instants
 * `[fromMs, toMs)`.
 */
export function dayRange(
  from: string | undefined,
  to: string | undefined,
  timeZone: string,
): { fromMs?: number; toMs?: number } {
  return {
    fromMs: from ? startOfDay(from, timeZone) : undefined,
    toMs: to ? startOfDay(addDays(to, 1), timeZone) : undefined,
  };
}

/** The first instant of the calendar month after the one `ms` falls in, in the zone. */
export function startOfNextMonth(ms: number, timeZone: string): number {
  const [y, m] = localMonth(ms, timeZone).split("-").map(Number);
  return startOfDay(utcDate(utc(y, m + 1, 1)), timeZone);
}
