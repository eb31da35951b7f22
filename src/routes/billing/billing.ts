import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { isPaid } from "../../domain/billing/provider.ts";
import { monthlyCap, usageResetsAt } from "../../domain/billing/plan.ts";
import { currentUser, requireAuth } from "../../http/auth.ts";
import type { AppEnv } from "../../http/env.ts";
import { ApiError, badRequest, unauthorized } from "../../http/errors.ts";
import { authed, errors, jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { UsageSchema } from "../../schemas/billing/plan.ts";
import { applyBillingEvent, linkCustomer } from "../../store/billing/provider.ts";
import { ordersCreatedThisMonth } from "../../store/orders/list.ts";

const TAGS = ["Billing"];

const getUsageRoute = createRoute({
  ...authed,
  method: "get",
  path: "/usage",
  tags: TAGS,
  summary: "New orders this month and the plan's cap",
  description: "Months are calendar months of the account's timezone. `cap` is null when " +
    "unlimited: paid plans, or a deployment without billing. A plan change by the billing " +
    "webhook shows here at once.",
  responses: {
    200: jsonResponse(UsageSchema, "Usage of the current month"),
    ...errors(401),
  },
});

/**
 * 503 before any other check when the deployment lacks what the endpoint needs: the secret
 * key always, the price for checkout, the signing secret for the webhook.
 */
function billingConfigured(need: "priceId" | "webhookSecret" | null): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { stripe } = c.var.deps.config;
    if (!c.var.deps.billing || (need && !stripe[need])) {
      throw new ApiError(503, "Billing is not configured on this deployment");
    }
    await next();
  };
}

const UrlSchema = z.object({
  url: z.string().openapi({ description: "Send the user's browser there" }),
}).openapi("BillingRedirect");

const checkoutRoute = createRoute({
  method: "post",
  path: "/checkout",
  tags: TAGS,
  summary: "Start a subscription checkout",
  description: "A Checkout Session of the billing provider for `STRIPE_PRICE_ID` in " +
    "subscription mode, for the caller's account (`client_reference_id`). 403 with " +
    "`reason: email_unverified` until the account email is verified; 409 while a " +
    "subscription is `active` or `trialing`; 503 (before any other check) without " +
    "`STRIPE_SECRET_KEY` and `STRIPE_PRICE_ID`; 502 when the provider does not answer.",
  security: authed.security,
  middleware: [billingConfigured("priceId"), requireAuth],
  responses: {
    200: jsonResponse(UrlSchema, "The checkout page"),
    ...errors(401, 403, 409, 413, 502, 503),
  },
});

const portalRoute = createRoute({
  method: "post",
  path: "/portal",
  tags: TAGS,
  summary: "Open the billing portal",
  description: "A billing-portal session of the provider for the account's customer (to " +
    "change or cancel the subscription). 409 before the account has a billing customer (its " +
    "first checkout creates one); 503 (before any other check) without `STRIPE_SECRET_KEY`.",
  security: authed.security,
  middleware: [billingConfigured(null), requireAuth],
  responses: {
    200: jsonResponse(UrlSchema, "The portal page"),
    ...errors(401, 409, 413, 502, 503),
  },
});

const webhookRoute = createRoute({
  method: "post",
  path: "/webhook",
  tags: TAGS,
  summary: "The billing provider's signed events",
  description: "Public: the provider's event JSON, signed in `Stripe-Signature` " +
    '(`t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under STRIPE_WEBHOOK_SECRET>`, at ' +
    "most 5 minutes old); 400 when it does not match. Handled: " +
    "`checkout.session.completed` (links the customer to the account of " +
    "`client_reference_id`) and `customer.subscription.created`/`updated`/`deleted` (set " +
    "`plan`: `pro` while active or trialing and one of its items is STRIPE_PRICE_ID (any " +
    "other subscription grants nothing), `subscriptionStatus`, `subscriptionPeriodEnd`, " +
    "`subscriptionPriceId`); others are acknowledged and ignored. Each event id is applied " +
    "once; an event older (by its own `created`) than the last one applied changes nothing. " +
    "503 (before any other check) without `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`.",
  security: [],
  middleware: [billingConfigured("webhookSecret")],
  request: {
    headers: z.object({
      "stripe-signature": z.string().optional().openapi({
        description: "The provider's signature of the body",
        example: "t=1767225600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
      }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        received: z.literal(true),
        outcome: z.enum(["applied", "duplicate", "stale", "unknown_account", "ignored"]),
      }).openapi("BillingWebhookAnswer"),
      "Accepted (applied now, or earlier, or nothing to do)",
    ),
    ...errors(400, 413, 503),
  },
});

export const getUsage: AppRouteHandler<typeof getUsageRoute> = async (c) => {
  const { deps } = c.var;
  const user = await currentUser(c);
  const now = deps.now();
  return c.json({
    plan: user.plan,
    used: await ordersCreatedThisMonth(deps.kv, user, now),
    cap: monthlyCap(user, deps.config),
    resetsAt: usageResetsAt(user, now),
    billingEnabled: deps.config.billingEnabled,
  }, 200);
};

export const checkout: AppRouteHandler<typeof checkoutRoute> = async (c) => {
  const { kv, config } = c.var.deps;
  const billing = c.var.deps.billing!;
  const user = await currentUser(c);
  if (!user.emailVerified) {
    throw new ApiError(403, "Verify the account email before subscribing", {
      reason: "email_unverified",
    });
  }
  if (isPaid(user.subscriptionStatus)) {
    throw new ApiError(409, "The account already has a subscription; use the billing portal");
  }
  const customerId = user.billingCustomerId ??
    await linkCustomer(kv, user.id, await billing.createCustomer(user.email, user.id));
  if (!customerId) throw unauthorized();
  const url = await billing.createCheckout({
    customerId,
    userId: user.id,
    priceId: config.stripe.priceId!,
    successUrl: `${config.baseUrl}/billing?checkout=success`,
    cancelUrl: `${config.baseUrl}/billing?checkout=canceled`,
  });
  return c.json({ url }, 200);
};

export const portal: AppRouteHandler<typeof portalRoute> = async (c) => {
  const { config } = c.var.deps;
  const user = await currentUser(c);
  if (!user.billingCustomerId) {
    throw new ApiError(409, "The account has no billing customer yet; subscribe first");
  }
  const url = await c.var.deps.billing!.createPortal(
    user.billingCustomerId,
    `${config.baseUrl}/billing`,
  );
  return c.json({ url }, 200);
};

export const webhook: AppRouteHandler<typeof webhookRoute> = async (c) => {
  const { kv, now, billing, config } = c.var.deps;
  const event = await billing!.readEvent(
    c.var.bodyText ?? "",
    c.req.valid("header")["stripe-signature"],
  );
  if (!event) throw badRequest("Stripe-Signature does not match the body");
  const outcome = await applyBillingEvent(kv, event, now(), config.stripe.priceId);
  return c.json({ received: true as const, outcome }, 200);
};

export const billingRoutes = createRouter()
  .openapi(getUsageRoute, getUsage)
  .openapi(checkoutRoute, checkout)
  .openapi(portalRoute, portal)
  .openapi(webhookRoute, webhook);
