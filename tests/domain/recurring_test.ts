import { deepEqual, equal } from "node:assert/strict";
import { addMonths, daysInMonth, dueAmounts, dueDates } from "../../src/domain/recurring.ts";

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
