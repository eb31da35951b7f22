/**
 * The billing provider through its official client (`stripe`), pointed at `STRIPE_API_BASE`
 * (host, port and protocol of the client; the real API by default). Calls are bounded (5 s,
 * no retries); a failure is an `UpstreamError`. Webhook bodies are checked with
 * `STRIPE_WEBHOOK_SECRET` by the client's own signature check and read into `BillingEvent`s.
 */
// @ts-types="./stripe_api.d.ts"
import type Stripe from "stripe";
import type { CheckoutSessionObject, StripeEvent, SubscriptionObject } from "./stripe_api.d.ts";
import type { Config } from "../config.ts";
import type { BillingEvent } from "../domain/billing/provider.ts";
import { UpstreamError } from "../errors.ts";
import { UPSTREAM_TIMEOUT_MS } from "./upstream.ts";

const SERVICE = "billing";

export interface CheckoutInput {
  customerId: string;
  userId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
}

export class BillingClient {
  #client: Promise<Stripe> | undefined;

  constructor(private readonly config: Config["stripe"] & { secretKey: string }) {}

  /**
   * The client, its package imported at the first call: the package is a few MB of live heap,
   * and what an isolate keeps live is multiplied in its peak memory (docs/benchmarks.md, "Email
   * intake memory"), so a deployment that bills nobody at the moment does not carry it.
   */
  get #stripe(): Promise<Stripe> {
    return this.#client ??= import("stripe").then(({ default: Client }) => {
      const base = new URL(this.config.apiBase);
      return new (Client as unknown as typeof Stripe)(this.config.secretKey, {
        host: base.hostname,
        port: base.port || (base.protocol === "http:" ? 80 : 443),
        protocol: base.protocol === "http:" ? "http" : "https",
        maxNetworkRetries: 0,
        timeout: UPSTREAM_TIMEOUT_MS,
        telemetry: false,
      });
    });
  }

  async #call<T>(what: (stripe: Stripe) => Promise<T>): Promise<T> {
    try {
      return await what(await this.#stripe);
    } catch {
      throw new UpstreamError(SERVICE, "The billing provider did not answer; try again");
    }
  }

  /** A customer for the account (its email, our user id in the metadata); its id. */
  createCustomer(email: string, userId: string): Promise<string> {
    return this.#call(async (stripe) =>
      (await stripe.customers.create({ email, metadata: { userId } })).id
    );
  }

  /** A subscription-mode Checkout Session for the price; its URL. */
  createCheckout(input: CheckoutInput): Promise<string> {
    return this.#call(async (stripe) => {
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        customer: input.customerId,
        client_reference_id: input.userId,
        line_items: [{ price: input.priceId, quantity: 1 }],
        subscription_data: { metadata: { userId: input.userId } },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      });
      if (!session.url) throw new Error("no url");
      return session.url;
    });
  }

  /** A billing portal session for the customer; its URL. */
  createPortal(customerId: string, returnUrl: string): Promise<string> {
    return this.#call(async (stripe) =>
      (await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      })).url
    );
  }

  /**
   * The event of a signed webhook body, or null when `Stripe-Signature` does not match the
   * body under `STRIPE_WEBHOOK_SECRET` (or is too old, or missing).
   */
  async readEvent(body: string, signature: string | undefined): Promise<BillingEvent | null> {
    const secret = this.config.webhookSecret;
    if (!secret || !signature) return null;
    const stripe = await this.#stripe;
    let event: StripeEvent;
    try {
      event = await stripe.webhooks.constructEventAsync(body, signature, secret);
    } catch {
      return null;
    }
    return billingEventOf(event);
  }
}

const idOf = (v: string | { id: string } | null | undefined) => typeof v === "string" ? v : v?.id;

/** The facts of a provider event this service acts on. */
export function billingEventOf(event: StripeEvent): BillingEvent {
  const { id, created } = event;
  if (event.type === "checkout.session.completed") {
    const session = event.data.object as CheckoutSessionObject;
    return {
      kind: "checkout_completed",
      id,
      created,
      userId: session.client_reference_id ?? undefined,
      customerId: idOf(session.customer),
    };
  }
  if (
    event.type === "customer.subscription.created" ||
    event.type === "customer.subscription.updated" ||
    event.type === "customer.subscription.deleted"
  ) {
    const sub = event.data.object as SubscriptionObject;
    const item = sub.items?.data?.[0];
    return {
      kind: "subscription",
      id,
      created,
      type: event.type.slice("customer.subscription.".length) as "created" | "updated" | "deleted",
      customerId: idOf(sub.customer)!,
      userId: sub.metadata?.userId,
      status: sub.status,
      // The period moved from the subscription to its items in recent API versions.
      periodEnd: item?.current_period_end ?? sub.current_period_end,
      priceId: item?.price?.id,
      priceIds: (sub.items?.data ?? []).flatMap((i) => i.price?.id ? [i.price.id] : []),
    };
  }
  return { kind: "ignored", id, created };
}

/** The client when `STRIPE_SECRET_KEY` is set, else null (billing answers 503). */
export function createBillingClient(config: Config["stripe"]): BillingClient | null {
  return config.secretKey ? new BillingClient({ ...config, secretKey: config.secretKey }) : null;
}
