/**
 * Recurring costs (`/api/subscriptions`, ids `sub_`): what one is, and the dates it falls due.
 * A cost is due on its start date and then every whole period after it; a monthly cost that
 * starts on the 31st is due on the last day of shorter months (always counted from the start,
 * so it comes back to the 31st). Dates are calendar dates `YYYY-MM-DD` of the account.
 */

export const FREQUENCIES = ["weekly", "monthly", "quarterly", "yearly"] as const;
export type Frequency = typeof FREQUENCIES[number];

/** Most recurring costs an account can hold (a bound on every profitability computation). */
export const RECURRING_COSTS_MAX = 100;
export const RECURRING_NAME_MAX = 120;
/** Earliest and latest start dates accepted: due dates are enumerated from the start. */
export const START_DATE_MIN = "1970-01-01";
export const START_DATE_MAX = "9999-12-31";

export interface RecurringCost {
  id: string;
  name: string;
  costCents: number;
  frequency: Frequency;
  startDate: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Months per period of the month-based frequencies. */
const MONTHS: Record<Exclude<Frequency, "weekly">, number> = {
  monthly: 1,
  quarterly: 3,
  yearly: 12,
};

interface Ymd {
  y: number;
  m: number;
  d: number;
}

const parse = (date: string): Ymd => {
  const [y, m, d] = date.split("-").map(Number);
  return { y, m, d };
};
const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const format = ({ y, m, d }: Ymd) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** Days in a month (1-12) of a proleptic Gregorian year. */
export function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** Day number (days since 1970-01-01) of a date, and back. */
export function dayNumber(date: string): number {
  const { y, m, d } = parse(date);
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}
export function fromDayNumber(n: number): string {
  const t = new Date(n * 86_400_000);
  return format({ y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() });
}

/** `date` plus `months` whole months, the day clamped to the end of a shorter month. */
export function addMonths(date: string, months: number): string {
  const { y, m, d } = parse(date);
  const index = y * 12 + (m - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = index - ny * 12 + 1;
  return format({ y: ny, m: nm, d: Math.min(d, daysInMonth(ny, nm)) });
}

/** Whole months from the month of `a` to the month of `b`. */
function monthsBetween(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  return (pb.y - pa.y) * 12 + (pb.m - pa.m);
}

/**
 * The dates in `[from, to]` (inclusive) a cost falls due, ascending: its start date plus whole
 * periods. Work is proportional to the number of dates returned.
 */
export function dueDates(
  cost: Pick<RecurringCost, "frequency" | "startDate">,
  from: string,
  to: string,
): string[] {
  const out: string[] = [];
  if (to < from || to < cost.startDate) return out;
  if (cost.frequency === "weekly") {
    const start = dayNumber(cost.startDate);
    const last = dayNumber(to);
    const k0 = Math.max(0, Math.ceil((dayNumber(from) - start) / 7));
    for (let n = start + 7 * k0; n <= last; n += 7) out.push(fromDayNumber(n));
    return out;
  }
  const step = MONTHS[cost.frequency];
  // The first period that can reach `from` (a clamped date never moves to a later month).
  let k = Math.max(0, Math.floor(monthsBetween(cost.startDate, from) / step));
  for (;; k++) {
    const date = addMonths(cost.startDate, k * step);
    if (date > to) break;
    if (date >= from) out.push(date);
  }
  return out;
}

/** Every due date in `[from, to]` of the active costs, with each one's amount. */
export function dueAmounts(
  costs: Pick<RecurringCost, "frequency" | "startDate" | "active" | "costCents">[],
  from: string,
  to: string,
): { date: string; cents: number }[] {
  return costs.filter((c) => c.active).flatMap((cost) =>
    dueDates(cost, from, to).map((date) => ({ date, cents: cost.costCents }))
  );
}

const monthIndex = ({ y, m }: Ymd) => y * 12 + (m - 1);
const monthOfIndex = (i: number) => ({ y: Math.floor(i / 12), m: (i % 12) + 1 });

/**
 * The cents of the active costs due in `[from, to]`, by month (`YYYY-MM`): what summing
 * {@link dueAmounts} by month gives, counted per month instead of per date (a weekly cost over
 * years would list hundreds of dates per request).
 */
export function dueByMonth(
  costs: Pick<RecurringCost, "frequency" | "startDate" | "active" | "costCents">[],
  from: string,
  to: string,
): Map<string, number> {
  const out = new Map<string, number>();
  if (to < from) return out;
  const [first, last] = [monthIndex(parse(from)), monthIndex(parse(to))];
  const [fromDay, toDay] = [dayNumber(from), dayNumber(to)];
  const add = (i: number, cents: number) => {
    const { y, m } = monthOfIndex(i);
    const key = `${pad(y, 4)}-${pad(m)}`;
    out.set(key, (out.get(key) ?? 0) + cents);
  };
  for (const cost of costs) {
    if (!cost.active || to < cost.startDate) continue;
    const start = parse(cost.startDate);
    if (cost.frequency === "weekly") {
      const startDay = dayNumber(cost.startDate);
      for (let i = Math.max(first, monthIndex(start)); i <= last; i++) {
        const { y, m } = monthOfIndex(i);
        const monthStart = Math.round(Date.UTC(y, m - 1, 1) / 86_400_000);
        const lo = Math.max(monthStart, fromDay, startDay);
        const hi = Math.min(monthStart + daysInMonth(y, m) - 1, toDay);
        // Days startDay + 7k in [lo, hi] (lo is never before startDay).
        const count = hi < lo
          ? 0
          : Math.floor((hi - startDay) / 7) - Math.floor((lo - 1 - startDay) / 7);
        if (count) add(i, count * cost.costCents);
      }
      continue;
    }
    const step = MONTHS[cost.frequency];
    const startIndex = monthIndex(start);
    for (let k = Math.max(0, Math.floor((first - startIndex) / step));; k++) {
      const i = startIndex + k * step;
      if (i > last) break;
      const { y, m } = monthOfIndex(i);
      const date = format({ y, m, d: Math.min(start.d, daysInMonth(y, m)) });
      if (date > to) break;
      if (date >= from) add(i, cost.costCents);
    }
  }
  return out;
}
