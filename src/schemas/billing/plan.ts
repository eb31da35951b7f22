import { z } from "@hono/zod-openapi";
import { json } from "../../http/openapi.ts";

/** The 429 (402, 202 `rejected`) body when the free plan's monthly cap is used up. */
export const PlanLimitErrorSchema = z.object({
  error: z.string(),
  reason: z.literal("plan_limit_reached"),
  cap: z.number().int().openapi({ description: "New orders allowed per month" }),
  used: z.number().int().openapi({ description: "New orders created this month" }),
}).openapi("PlanLimitError");

export const planLimitResponse = {
  content: json(PlanLimitErrorSchema),
  description: "The free plan's monthly new-order cap is used up (merges are never blocked)",
};

export const UsageSchema = z.object({
  plan: z.string().openapi({ example: "free" }),
  used: z.number().int().openapi({
    description: "New orders created this calendar month (account timezone); merges and " +
      "deletions do not change it",
  }),
  cap: z.number().int().nullable().openapi({ description: "Monthly cap; null means unlimited" }),
  resetsAt: z.string().openapi({
    description: "Start of next month in the account's timezone (ISO 8601 UTC)",
  }),
  billingEnabled: z.boolean(),
}).openapi("Usage");
