/**
 * Profitability (CONTRACT.md "Money and insights") as pure functions over maintained sums.
 * Orders count by the calendar day of `receivedAt` in the account's timezone; canceled ones are
 * left out. The store keeps these sums per month and per day (`orderProfitSums` is what one order
 * adds); this module turns them, with the recurring costs, into the answer.
 */
import type { Order } from "../orders/order.ts";
import { addMonths, dueByMonth, type RecurringCost } from "./recurring_costs.ts";

export const PROFIT_RANGES = ["month", "quarter", "year", "all"] as const;
export type ProfitRange = typeof PROFIT_RANGES[number];

/** The sums kept per month and per day. */
export const PROFIT_METRICS = ["orders", "spentCents", "revenueCents", "soldCostCents"] as const;
export type ProfitMetric = typeof PROFIT_METRICS[number];
export type ProfitSums = Record<ProfitMetric, number>;

export const zeroSums = (): ProfitSums => ({
  orders: 0,
  spentCents: 0,
  revenueCents: 0,
  soldCostCents: 0,
});

/** What one order adds to the sums of its day: nothing when canceled. */
export function orderProfitSums(order: Order): ProfitSums | null {
  if (order.status === "canceled") return null;
  const cost = order.costCents ?? 0;
  const sold = order.salePriceCents !== undefined;
  return {
    orders: 1,
    spentCents: cost,
    revenueCents: order.salePriceCents ?? 0,
    soldCostCents: sold ? cost : 0,
  };
}

export function addSums(into: ProfitSums, more: Partial<ProfitSums>): ProfitSums {
  for (const m of PROFIT_METRICS) into[m] += more[m] ?? 0;
  return into;
}

export interface MonthProfit {
  month: string;
  spentCents: number;
  revenueCents: number;
  profitCents: number;
}

export interface Profitability {
  range: ProfitRange;
  from: string;
  to: string;
  orders: number;
  spentCents: number;
  revenueCents: number;
  soldCostCents: number;
  recurringCents: number;
  profitCents: number;
  byMonth: MonthProfit[];
}

/** The first day of the range's period (`all` is handled by the caller: the first order). */
export function periodStart(range: Exclude<ProfitRange, "all">, today: string): string {
  const m = Number(today.slice(5, 7));
  const month = range === "month" ? m : range === "quarter" ? m - ((m - 1) % 3) : 1;
  return `${today.slice(0, 4)}-${String(month).padStart(2, "0")}-01`;
}

/** Every calendar month `YYYY-MM` from the month of `from` to the month of `to`, ascending. */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = `${from.slice(0, 7)}-01`; d.slice(0, 7) <= to.slice(0, 7); d = addMonths(d, 1)) {
    out.push(d.slice(0, 7));
  }
  return out;
}

/**
 * What the store read: the sums of whole months (`YYYY-MM`; the current month whole, later
 * days included), the sums of the current month's days after today (taken off it: orders
 * received after today are not counted yet), and for `all` the first day up to today with a
 * counted order (null when there is none).
 */
export interface ProfitReading {
  months: Record<string, ProfitSums>;
  later: ProfitSums;
  firstDay: string | null;
}

/**
 * The profitability of a range on `today` (the account's date). Orders of the current month
 * count up to and including today; recurring costs count for due dates from `from` through
 * today, each in the month of its due date.
 */
export function profitability(
  range: ProfitRange,
  today: string,
  reading: ProfitReading,
  costs: Pick<RecurringCost, "frequency" | "startDate" | "active" | "costCents">[],
): Profitability {
  const from = range === "all" ? reading.firstDay ?? today : periodStart(range, today);
  const thisMonth = today.slice(0, 7);
  const perMonth = new Map<string, ProfitSums & { recurringCents: number }>();
  for (const month of monthsOf(from, today)) {
    const sums = { ...zeroSums(), ...reading.months[month] };
    if (month === thisMonth) {
      for (const m of PROFIT_METRICS) sums[m] -= reading.later[m];
    }
    perMonth.set(month, { ...sums, recurringCents: 0 });
  }
  for (const [month, cents] of dueByMonth(costs, from, today)) {
    perMonth.get(month)!.recurringCents += cents;
  }
  const total = { ...zeroSums(), recurringCents: 0 };
  const byMonth: MonthProfit[] = [];
  for (const [month, m] of perMonth) {
    addSums(total, m);
    total.recurringCents += m.recurringCents;
    byMonth.push({
      month,
      spentCents: m.spentCents,
      revenueCents: m.revenueCents,
      profitCents: m.revenueCents - m.soldCostCents - m.recurringCents,
    });
  }
  return {
    range,
    from,
    to: today,
    orders: total.orders,
    spentCents: total.spentCents,
    revenueCents: total.revenueCents,
    soldCostCents: total.soldCostCents,
    recurringCents: total.recurringCents,
    profitCents: total.revenueCents - total.soldCostCents - total.recurringCents,
    byMonth,
  };
}
