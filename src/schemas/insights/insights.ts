/** Request and response bodies of the money and insight endpoints. */
import { z } from "@hono/zod-openapi";
import { CALENDAR_KINDS } from "../../domain/insights/sums.ts";
import { LEADERBOARD_SIZE, TIMEFRAMES } from "../../domain/insights/leaderboard.ts";
import { PROFIT_RANGES } from "../../domain/insights/profitability.ts";
import {
  FREQUENCIES,
  RECURRING_COSTS_MAX,
  RECURRING_NAME_MAX,
  type RecurringCost,
  START_DATE_MAX,
  START_DATE_MIN,
} from "../../domain/insights/recurring_costs.ts";
import { pageSchema } from "../../http/paging.ts";
import type { Same } from "../../lib/types.ts";

/** The largest amount of one recurring cost, so sums of many due dates stay exact. */
export const COST_CENTS_MAX = 1_000_000_000_000;

const date = z.iso.date().openapi({ description: "Calendar date, YYYY-MM-DD" });

const recurringFields = {
  name: z.string().trim().min(1, "must not be empty").max(RECURRING_NAME_MAX).openapi({
    description: `1 to ${RECURRING_NAME_MAX} characters, trimmed`,
    example: "Reseller software",
  }),
  costCents: z.number().int().min(0).max(COST_CENTS_MAX).openapi({
    description: "Integer cents, >= 0, charged on every due date",
    example: 2999,
  }),
  frequency: z.enum(FREQUENCIES).openapi({
    description: "Due on `startDate` and then every week, month, quarter (3 months) or year; " +
      "a start on the 29th to 31st falls on the last day of shorter months",
  }),
  startDate: date.refine((d) => d >= START_DATE_MIN && d <= START_DATE_MAX, {
    message: `must be from ${START_DATE_MIN}`,
  }).openapi({
    description: "First due date (YYYY-MM-DD, from 1970); default today in the account's " +
      "timezone",
    example: "2025-01-15",
  }),
  active: z.boolean().openapi({ description: "Inactive costs count nothing; default true" }),
};

export const RecurringCostSchema = z.object({
  id: z.string().openapi({ example: "sub_01jq4w5v2x8c9d0e1f2g3h4j5k" }),
  name: z.string(),
  costCents: z.number().int(),
  frequency: z.enum(FREQUENCIES),
  startDate: z.string().openapi({ description: "YYYY-MM-DD" }),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
}).openapi("RecurringCost");
const _costShape: Same<z.infer<typeof RecurringCostSchema>, RecurringCost> = true;

export const CreateRecurringCostBody = z.object(recurringFields)
  .partial({ startDate: true, active: true })
  .openapi("CreateRecurringCost", {
    description: `At most ${RECURRING_COSTS_MAX} per account (429 beyond)`,
  });
export const PatchRecurringCostBody = z.object(recurringFields).partial()
  .openapi("PatchRecurringCost");
export const RecurringCostEnvelope = z.object({ subscription: RecurringCostSchema })
  .openapi("RecurringCostEnvelope");
export const RecurringCostPage = pageSchema(RecurringCostSchema, "RecurringCostPage");

const cents = (description: string) => z.number().int().openapi({ description });

export const ProfitRangeQuery = z.object({
  range: z.enum(PROFIT_RANGES).default("month").openapi({
    description: "`month`, `quarter`, `year` (the current calendar period of the account's " +
      "timezone) or `all` (from the first order); default `month`",
  }),
});

export const ProfitabilitySchema = z.object({
  range: z.enum(PROFIT_RANGES),
  from: z.string().openapi({ description: "First day (YYYY-MM-DD); for `all` the first order's" }),
  to: z.string().openapi({ description: "Today in the account's timezone (YYYY-MM-DD)" }),
  orders: z.number().int().openapi({
    description: "Orders received in the range, canceled left out",
  }),
  spentCents: cents("Sum of `costCents`"),
  revenueCents: cents("Sum of `salePriceCents`"),
  soldCostCents: cents("Sum of `costCents` of the orders that have a `salePriceCents`"),
  recurringCents: cents("Each active recurring cost once per due date from `from` to today"),
  profitCents: cents("`revenueCents - soldCostCents - recurringCents`"),
  byMonth: z.array(z.object({
    month: z.string().openapi({ example: "2025-03" }),
    spentCents: z.number().int(),
    revenueCents: z.number().int(),
    profitCents: z.number().int(),
  })).openapi({ description: "Every calendar month from `from` to `to`, ascending" }),
}).openapi("Profitability");

export const CalendarQuery = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be YYYY-MM").optional().openapi({
    description: "YYYY-MM; default this month in the account's timezone",
    example: "2025-03",
  }),
});

export const CalendarSchema = z.object({
  month: z.string(),
  days: z.array(z.object({
    date: z.string(),
    ...Object.fromEntries(CALENDAR_KINDS.map((k) => [k, z.number().int()])) as Record<
      typeof CALENDAR_KINDS[number],
      z.ZodNumber
    >,
  })).openapi({
    description: "One entry per day: orders received (account timezone), orders that moved " +
      "to shipped (`shippedAt`, account timezone), `actualDelivery` and `estimatedDelivery` " +
      "dates; canceled orders included",
  }),
}).openapi("Calendar");

export const LeaderboardQuery = z.object({
  timeframe: z.enum(TIMEFRAMES).default("week").openapi({
    description: "`week` (today and the 6 days before, UTC days), `month` (the last 30 UTC " +
      "days) or `all`; default `week`",
  }),
});

export const LeaderboardSchema = z.object({
  timeframe: z.enum(TIMEFRAMES),
  entries: z.array(z.object({
    rank: z.number().int(),
    username: z.string(),
    displayName: z.string().optional(),
    orders: z.number().int(),
    valueCents: z.number().int().openapi({ description: "Sum of `costCents` in the timeframe" }),
  })).openapi({
    description: `At most ${LEADERBOARD_SIZE}: accounts with public stats, a username and an ` +
      "order in the timeframe; ranked by orders, then `valueCents`, then username",
  }),
}).openapi("Leaderboard");
