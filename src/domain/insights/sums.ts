/**
 * What each order adds to the maintained insight sums, and the calendar built from them.
 * The store writes every order change as the difference of these contributions (before and
 * after), so the sums are exact whatever the order of changes. Days and months are those of the
 * account's timezone at write time; the store rebuilds the sums when the timezone changes.
 */
import { localDate } from "../../lib/timezone.ts";
import { orderProfitSums, PROFIT_METRICS } from "./profitability.ts";
import type { Order } from "../orders/order.ts";
import { daysInMonth } from "./recurring_costs.ts";

/**
 * Which insight sums an account's orders are in: the generation (a key prefix, new on every
 * timezone change) and, while it is being rebuilt, the last order id summed so far (orders
 * with ids up to `upTo` are in; a change to a later order leaves the sums to the rebuild).
 */
export interface InsightState {
  generation: string;
  upTo?: string;
}

/** An account without a state predates the sums: everything is left to a rebuild. */
export const LEGACY_STATE: InsightState = { generation: "0", upTo: "" };

/** The state of a new account: nothing to rebuild. */
export const FRESH_STATE: InsightState = { generation: "0" };

/** Whether an order is in the sums of a state. */
export const isSummed = (state: InsightState, orderId: string) =>
  state.upTo === undefined || orderId <= state.upTo;

/** What a changed account holds: a new generation to rebuild when its timezone changed. */
export function afterTimezoneChange<T extends { timezone: string; insights?: InsightState }>(
  before: T,
  after: T,
  newGeneration: string,
): T {
  if (before.timezone === after.timezone) return after;
  return { ...after, insights: { generation: newGeneration, upTo: "" } };
}

export const CALENDAR_KINDS = ["ordered", "shipped", "delivered", "expected"] as const;
export type CalendarKind = typeof CALENDAR_KINDS[number];

/**
 * One sum an order adds to: `["m", "YYYY-MM", metric]` and `["d", "YYYY-MM-DD", metric]` for
 * the money sums (canceled orders add none), `["cal", "YYYY-MM-DD", kind]` for the calendar.
 */
export type InsightPart = readonly [kind: "m" | "d" | "cal", bucket: string, name: string];

export interface Contribution<P> {
  part: P;
  amount: number;
}

/** The sums `order` adds to, in the zone `timeZone`. */
export function insightContributions(order: Order, timeZone: string): Contribution<InsightPart>[] {
  const out: Contribution<InsightPart>[] = [];
  const day = localDate(Date.parse(order.receivedAt), timeZone);
  const money = orderProfitSums(order);
  if (money) {
    for (const metric of PROFIT_METRICS) {
      if (!money[metric]) continue;
      out.push({ part: ["m", day.slice(0, 7), metric], amount: money[metric] });
      out.push({ part: ["d", day, metric], amount: money[metric] });
    }
  }
  out.push({ part: ["cal", day, "ordered"], amount: 1 });
  if (order.shippedAt) {
    const shipped = localDate(Date.parse(order.shippedAt), timeZone);
    out.push({ part: ["cal", shipped, "shipped"], amount: 1 });
  }
  if (order.actualDelivery) {
    out.push({ part: ["cal", order.actualDelivery, "delivered"], amount: 1 });
  }
  if (order.estimatedDelivery) {
    out.push({ part: ["cal", order.estimatedDelivery, "expected"], amount: 1 });
  }
  return out;
}

/** `YYYY-MM` with a real month. */
export function isCalendarMonth(value: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}

export type CalendarDay = { date: string } & Record<CalendarKind, number>;

/** One entry per day of `month`, each kind's count from `counts` (by date), zero when absent. */
export function calendarMonth(
  month: string,
  counts: Record<string, Partial<Record<CalendarKind, number>>>,
): { month: string; days: CalendarDay[] } {
  const [y, m] = month.split("-").map(Number);
  const days: CalendarDay[] = [];
  for (let d = 1; d <= daysInMonth(y, m); d++) {
    const date = `${month}-${String(d).padStart(2, "0")}`;
    const c = counts[date] ?? {};
    days.push({
      date,
      ordered: c.ordered ?? 0,
      shipped: c.shipped ?? 0,
      delivered: c.delivered ?? 0,
      expected: c.expected ?? 0,
    });
  }
  return { month, days };
}
