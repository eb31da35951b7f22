/**
 * The free plan's monthly cap on new orders. Months are calendar months of the account's
 * timezone; merges never count; a deleted order does not give its place back.
 */
import { localMonth, safeTimeZone, startOfNextMonth } from "../../lib/timezone.ts";

export interface BillingSettings {
  billingEnabled: boolean;
  freePlanMonthlyOrders: number;
}

export interface PlanHolder {
  plan: string;
  timezone: string;
}

/** New orders allowed this month, or null for no cap (paid plans, billing off). */
export function monthlyCap(user: PlanHolder, billing: BillingSettings): number | null {
  if (!billing.billingEnabled || user.plan !== "free") return null;
  return billing.freePlanMonthlyOrders;
}

/** The month (`YYYY-MM`, account timezone) a new order made at `now` counts in. */
export function usageMonth(user: PlanHolder, now: number): string {
  return localMonth(now, safeTimeZone(user.timezone));
}

/** When the current month's count starts again from zero (ISO 8601 UTC). */
export function usageResetsAt(user: PlanHolder, now: number): string {
  return new Date(startOfNextMonth(now, safeTimeZone(user.timezone))).toISOString();
}

export interface PlanLimit {
  reason: "plan_limit_reached";
  cap: number;
  used: number;
}

export function planLimitMessage(cap: number): string {
  return `Free plan limit reached: ${cap} new orders per month. Upgrade or wait for next month.`;
}
