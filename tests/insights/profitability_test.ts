import { deepEqual, equal } from "node:assert/strict";
import {
  monthsOf,
  orderProfitSums,
  periodStart,
  profitability,
  type ProfitReading,
  type ProfitSums,
  zeroSums,
} from "../../src/domain/insights/profitability.ts";
import {
  calendarMonth,
  insightContributions,
  isCalendarMonth,
} from "../../src/domain/insights/sums.ts";
import { newOrder, type Order } from "../../src/domain/orders/order.ts";
import {
  leaderboardContributions,
  rank,
  windowStart,
} from "../../src/domain/insights/leaderboard.ts";

const sums = (orders: number, spent: number, revenue = 0, soldCost = 0): ProfitSums => ({
  orders,
  spentCents: spent,
  revenueCents: revenue,
  soldCostCents: soldCost,
});

function order(fields: Partial<Order> & { receivedAt: string }): Order {
  return { ...newOrder("ord_1", { itemSummary: "x" }, {}, "manual", 0), ...fields };
}

Deno.test("periods: month, quarter and year start in the account's current date", () => {
  equal(periodStart("month", "2025-05-17"), "2025-05-01");
  equal(periodStart("quarter", "2025-05-17"), "2025-04-01");
  equal(periodStart("quarter", "2025-12-31"), "2025-10-01");
  equal(periodStart("quarter", "2025-01-01"), "2025-01-01");
  equal(periodStart("year", "2024-02-29"), "2024-01-01");
  deepEqual(monthsOf("2024-11-30", "2025-02-01"), ["2024-11", "2024-12", "2025-01", "2025-02"]);
});

Deno.test("an order counts in the month of its local day: 23:30 on the 31st in New York", () => {
  const late = order({ receivedAt: "2025-02-01T04:30:00.000Z", costCents: 1000 });
  const parts = insightContributions(late, "America/New_York").map((c) => c.part.join(" "));
  deepEqual(parts, [
    "m 2025-01 orders",
    "d 2025-01-31 orders",
    "m 2025-01 spentCents",
    "d 2025-01-31 spentCents",
    "cal 2025-01-31 ordered",
  ]);
  // In UTC the same instant is February.
  equal(insightContributions(late, "UTC")[0].part[1], "2025-02");
  // And at a year's end: 23:30 on 31 December in New York is 2025-01-01 in UTC.
  const newYear = order({ receivedAt: "2025-01-01T04:30:00.000Z" });
  equal(insightContributions(newYear, "America/New_York")[0].part[1], "2024-12");
});

Deno.test("canceled orders add no money but stay on the calendar; shipped and delivery days", () => {
  equal(orderProfitSums(order({ receivedAt: "2025-01-01T00:00:00Z", status: "canceled" })), null);
  deepEqual(
    orderProfitSums(order({ receivedAt: "2025-01-01T00:00:00Z", costCents: 500 })),
    sums(1, 500),
  );
  deepEqual(
    orderProfitSums(
      order({ receivedAt: "2025-01-01T00:00:00Z", costCents: 500, salePriceCents: 900 }),
    ),
    sums(1, 500, 900, 500),
  );
  const traveled = order({
    receivedAt: "2025-03-09T12:00:00.000Z",
    status: "canceled",
    shippedAt: "2025-03-10T03:00:00.000Z",
    actualDelivery: "2025-03-12",
    estimatedDelivery: "2025-03-11",
  });
  deepEqual(insightContributions(traveled, "America/Los_Angeles").map((c) => c.part.join(" ")), [
    "cal 2025-03-09 ordered",
    "cal 2025-03-09 shipped",
    "cal 2025-03-12 delivered",
    "cal 2025-03-11 expected",
  ]);
});

Deno.test("profitability of the month: orders up to today, recurring costs due up to today", () => {
  const reading: ProfitReading = {
    // March whole: 1 and 15 March (3 orders), 16 March after today (5 orders, taken off).
    months: {
      "2025-01": sums(9, 9000),
      "2025-02": sums(99, 99),
      "2025-03": sums(8, 8700, 14000, 7000),
    },
    later: sums(5, 5000, 9000, 5000),
    firstDay: null,
  };
  const costs = [
    { frequency: "monthly" as const, startDate: "2024-12-10", active: true, costCents: 1500 },
    { frequency: "monthly" as const, startDate: "2024-12-20", active: true, costCents: 100 },
  ];
  deepEqual(profitability("month", "2025-03-15", reading, costs), {
    range: "month",
    from: "2025-03-01",
    to: "2025-03-15",
    orders: 3,
    spentCents: 3700,
    revenueCents: 5000,
    soldCostCents: 2000,
    recurringCents: 1500,
    profitCents: 1500,
    byMonth: [{ month: "2025-03", spentCents: 3700, revenueCents: 5000, profitCents: 1500 }],
  });
});

Deno.test("profitability of the quarter and the year: whole past months, each cost in its month", () => {
  const reading: ProfitReading = {
    months: {
      "2024-12": sums(1, 100),
      "2025-01": sums(2, 1000, 1500, 1000),
      "2025-02": sums(1, 400),
      "2025-03": sums(1, 50, 80, 50),
    },
    later: zeroSums(),
    firstDay: null,
  };
  const weekly = [{
    frequency: "weekly" as const,
    startDate: "2025-02-24",
    active: true,
    costCents: 10,
  }];
  const q = profitability("quarter", "2025-03-05", reading, weekly);
  equal(q.from, "2025-01-01");
  equal(q.orders, 4);
  equal(q.spentCents, 1450);
  // Due 2025-02-24 and 2025-03-03 (2025-03-10 is after today).
  equal(q.recurringCents, 20);
  deepEqual(q.byMonth, [
    { month: "2025-01", spentCents: 1000, revenueCents: 1500, profitCents: 500 },
    { month: "2025-02", spentCents: 400, revenueCents: 0, profitCents: -10 },
    { month: "2025-03", spentCents: 50, revenueCents: 80, profitCents: 20 },
  ]);
  equal(q.profitCents, 510);
  const y = profitability("year", "2025-03-05", reading, []);
  equal(y.from, "2025-01-01");
  equal(y.byMonth.length, 3);
});

Deno.test("profitability of all: from the first order's day, leap day included", () => {
  const reading: ProfitReading = {
    months: { "2024-02": sums(1, 200), "2024-03": sums(0, 0), "2024-04": sums(1, 1) },
    later: zeroSums(),
    firstDay: "2024-02-29",
  };
  const all = profitability("all", "2024-04-10", reading, [
    { frequency: "yearly", startDate: "2023-02-28", active: true, costCents: 1000 },
    { frequency: "monthly", startDate: "2024-02-29", active: true, costCents: 7 },
  ]);
  equal(all.from, "2024-02-29");
  equal(all.orders, 2);
  equal(all.spentCents, 201);
  // Monthly due 02-29, 03-29; yearly (2024-02-28) is before `from`.
  equal(all.recurringCents, 14);
  deepEqual(all.byMonth.map((m) => m.month), ["2024-02", "2024-03", "2024-04"]);
  // No orders at all: the range is today alone.
  const empty = { months: {}, later: zeroSums(), firstDay: null };
  const none = profitability("all", "2024-04-10", empty, []);
  equal(none.from, "2024-04-10");
  deepEqual(none.byMonth, [{ month: "2024-04", spentCents: 0, revenueCents: 0, profitCents: 0 }]);
});

Deno.test("calendar: one entry per day, leap February", () => {
  equal(isCalendarMonth("2024-02"), true);
  equal(isCalendarMonth("2024-13"), false);
  equal(isCalendarMonth("2024-2"), false);
  const feb = calendarMonth("2024-02", { "2024-02-29": { ordered: 2, expected: 1 } });
  equal(feb.days.length, 29);
  deepEqual(feb.days[28], {
    date: "2024-02-29",
    ordered: 2,
    shipped: 0,
    delivered: 0,
    expected: 1,
  });
  equal(calendarMonth("2023-02", {}).days.length, 28);
});

Deno.test("leaderboard: UTC day windows, canceled left out, ranks by orders, value, username", () => {
  equal(windowStart("week", Date.parse("2025-03-01T10:00:00Z")), "2025-02-23");
  // 30 days ending 1 March of a leap year start on 1 February (29 + 1).
  equal(windowStart("month", Date.parse("2024-03-01T10:00:00Z")), "2024-02-01");
  equal(windowStart("month", Date.parse("2025-03-01T10:00:00Z")), "2025-01-31");
  deepEqual(
    leaderboardContributions(order({ receivedAt: "2025-01-01T00:00:00Z", status: "canceled" })),
    [],
  );
  deepEqual(
    leaderboardContributions(order({ receivedAt: "2025-01-01T23:59:00Z", costCents: 5 })).map((c) =>
      `${c.part.join(" ")}=${c.amount}`
    ),
    [
      "day 2025-01-01 orders=1",
      "total orders=1",
      "day 2025-01-01 valueCents=5",
      "total valueCents=5",
    ],
  );
  deepEqual(
    rank([
      { username: "b", orders: 3, valueCents: 10 },
      { username: "a", orders: 3, valueCents: 10, displayName: "A" },
      { username: "c", orders: 3, valueCents: 99 },
      { username: "d", orders: 5, valueCents: 0 },
      { username: "e", orders: 0, valueCents: 0 },
    ]),
    [
      { rank: 1, username: "d", orders: 5, valueCents: 0 },
      { rank: 2, username: "c", orders: 3, valueCents: 99 },
      { rank: 3, username: "a", orders: 3, valueCents: 10, displayName: "A" },
      { rank: 4, username: "b", orders: 3, valueCents: 10 },
    ],
  );
});
