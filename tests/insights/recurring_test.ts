import { deepEqual, equal } from "node:assert/strict";
import {
  addMonths,
  daysInMonth,
  dueAmounts,
  dueByMonth,
  dueDates,
  FREQUENCIES,
  type Frequency,
} from "../../src/domain/insights/recurring_costs.ts";

Deno.test("months and leap years", () => {
  equal(daysInMonth(2024, 2), 29);
  equal(daysInMonth(2023, 2), 28);
  equal(daysInMonth(1900, 2), 28);
  equal(daysInMonth(2000, 2), 29);
  equal(daysInMonth(2025, 4), 30);
  equal(addMonths("2024-01-31", 1), "2024-02-29");
  equal(addMonths("2023-01-31", 1), "2023-02-28");
  equal(addMonths("2024-02-29", 12), "2025-02-28");
  equal(addMonths("2024-11-15", 3), "2025-02-15");
  equal(addMonths("2025-03-31", -1), "2025-02-28");
});

Deno.test("weekly: the start date and every 7 days, from a mid-week start", () => {
  const cost = { frequency: "weekly" as const, startDate: "2025-01-29" };
  deepEqual(dueDates(cost, "2025-02-01", "2025-02-28"), [
    "2025-02-05",
    "2025-02-12",
    "2025-02-19",
    "2025-02-26",
  ]);
  // The start date itself counts; nothing before it.
  deepEqual(dueDates(cost, "2025-01-01", "2025-02-04"), ["2025-01-29"]);
  // Across a leap day.
  deepEqual(
    dueDates({ frequency: "weekly", startDate: "2024-02-22" }, "2024-02-23", "2024-03-08"),
    [
      "2024-02-29",
      "2024-03-07",
    ],
  );
});

Deno.test("monthly from the 31st: clamped in short months, back to the 31st after", () => {
  const cost = { frequency: "monthly" as const, startDate: "2024-01-31" };
  deepEqual(dueDates(cost, "2024-01-01", "2024-05-31"), [
    "2024-01-31",
    "2024-02-29",
    "2024-03-31",
    "2024-04-30",
    "2024-05-31",
  ]);
  deepEqual(dueDates(cost, "2025-02-01", "2025-03-30"), ["2025-02-28"]);
  // Range entirely before the start: nothing.
  deepEqual(dueDates(cost, "2023-01-01", "2024-01-30"), []);
});

Deno.test("quarterly and yearly from mid-period starts", () => {
  const quarterly = { frequency: "quarterly" as const, startDate: "2024-11-30" };
  deepEqual(dueDates(quarterly, "2024-01-01", "2025-12-31"), [
    "2024-11-30",
    "2025-02-28",
    "2025-05-30",
    "2025-08-30",
    "2025-11-30",
  ]);
  deepEqual(dueDates(quarterly, "2025-03-01", "2025-05-29"), []);
  const yearly = { frequency: "yearly" as const, startDate: "2024-02-29" };
  deepEqual(dueDates(yearly, "2024-01-01", "2028-12-31"), [
    "2024-02-29",
    "2025-02-28",
    "2026-02-28",
    "2027-02-28",
    "2028-02-29",
  ]);
});

Deno.test("dueAmounts leaves inactive costs out", () => {
  const costs = [
    { frequency: "monthly" as const, startDate: "2025-01-15", active: true, costCents: 999 },
    { frequency: "weekly" as const, startDate: "2025-01-01", active: false, costCents: 100 },
  ];
  deepEqual(dueAmounts(costs, "2025-01-01", "2025-02-20"), [
    { date: "2025-01-15", cents: 999 },
    { date: "2025-02-15", cents: 999 },
  ]);
});

Deno.test("dueByMonth is dueAmounts summed by month, for every frequency and start", () => {
  // A fixed pseudo-random walk over starts, ranges and frequencies (leap days, month ends).
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const date = (y0: number) => {
    const y = y0 + next(4);
    const m = 1 + next(12);
    return `${y}-${String(m).padStart(2, "0")}-${
      String(1 + next(daysInMonth(y, m))).padStart(2, "0")
    }`;
  };
  for (let round = 0; round < 300; round++) {
    const costs = Array.from({ length: 1 + next(5) }, () => ({
      frequency: FREQUENCIES[next(4)] as Frequency,
      startDate: date(2022),
      active: next(5) > 0,
      costCents: 1 + next(1000),
    }));
    const [a, b] = [date(2022), date(2023)].sort();
    const expected = new Map<string, number>();
    for (const { date, cents } of dueAmounts(costs, a, b)) {
      expected.set(date.slice(0, 7), (expected.get(date.slice(0, 7)) ?? 0) + cents);
    }
    deepEqual(
      new Map([...dueByMonth(costs, a, b)].sort()),
      new Map([...expected].sort()),
      JSON.stringify({ costs, a, b }),
    );
  }
  deepEqual(dueByMonth([], "2025-02-01", "2025-01-01"), new Map());
});
