/**
 * Plans from the billing provider's subscription events (CONTRACT.md "Billing"): `pro` while
 * a subscription to the deployment's price (`STRIPE_PRICE_ID`) is active or trialing; any
 * other subscription of the provider account (another product, a cheaper price made by hand)
 * is recorded but grants nothing. Events may arrive late or out of order, so each is
 * placed by its own `created` time (then by kind: created < updated < deleted for events of
 * the same second); an event older than the last one applied changes nothing.
 */
import type { UserRecord } from "../account/user.ts";

export const PAID_STATUSES = ["active", "trialing"] as const;

export const isPaid = (status: string | undefined) =>
  (PAID_STATUSES as readonly (string | undefined)[]).includes(status);

/** The provider's events this service acts on, read into plain facts. */
export type BillingEvent =
  | {
    kind: "checkout_completed";
    id: string;
    created: number;
    /** `client_reference_id`: the account that started the checkout. */
    userId?: string;
    customerId?: string;
  }
  | {
    kind: "subscription";
    id: string;
    /** Seconds since the epoch, as the provider stamps events. */
    created: number;
    type: "created" | "updated" | "deleted";
    customerId: string;
    /** The account named in the subscription's metadata (set by our checkout). */
    userId?: string;
    status: string;
    /** End of the current period, seconds since the epoch. */
    periodEnd?: number;
    /** The first item's price (what `subscriptionPriceId` shows). */
    priceId?: string;
    /** Every item's price. */
    priceIds?: string[];
  }
  | { kind: "ignored"; id: string; created: number };

const RANK = { created: 0, updated: 1, deleted: 2 } as const;

/** Where an event sits in a subscription's history: `created`, then kind. */
export const eventOrder = (e: { created: number; type: keyof typeof RANK }) =>
  e.created * 4 + RANK[e.type];

export type SubscriptionFields = Pick<
  UserRecord,
  | "plan"
  | "subscriptionStatus"
  | "subscriptionPeriodEnd"
  | "subscriptionPriceId"
  | "subscriptionEventAt"
>;

/**
 * The account's subscription fields after an event; null when the event is older than the last
 * applied. `planPriceId`: the price that is the paid plan (none configured: no plan is granted).
 */
export function afterSubscriptionEvent(
  user: Pick<UserRecord, "subscriptionEventAt">,
  event: Extract<BillingEvent, { kind: "subscription" }>,
  planPriceId: string | undefined,
): SubscriptionFields | null {
  const order = eventOrder(event);
  if (user.subscriptionEventAt !== undefined && order < user.subscriptionEventAt) return null;
  const status = event.type === "deleted" ? "canceled" : event.status;
  const prices = event.priceIds ?? (event.priceId ? [event.priceId] : []);
  const forPlan = planPriceId !== undefined && prices.includes(planPriceId);
  return {
    plan: isPaid(status) && forPlan ? "pro" : "free",
    subscriptionStatus: status,
    subscriptionPeriodEnd: event.periodEnd === undefined
      ? undefined
      : new Date(event.periodEnd * 1000).toISOString(),
    subscriptionPriceId: event.priceId,
    subscriptionEventAt: order,
  };
}
