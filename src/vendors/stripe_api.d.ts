/**
 * The part of the `stripe` client this service uses, typed here: the package's own
 * declarations pull Node's type definitions into the whole program, which changes the Web
 * Crypto types every other module sees.
 */

export interface StripeConfig {
  host?: string;
  port?: number | string;
  protocol?: "http" | "https";
  maxNetworkRetries?: number;
  timeout?: number;
  telemetry?: boolean;
}

type Expandable = string | { id: string } | null;

export interface CheckoutSessionObject {
  id: string;
  url: string | null;
  client_reference_id: string | null;
  customer: Expandable;
}

export interface SubscriptionObject {
  id: string;
  customer: Expandable;
  status: string;
  metadata?: Record<string, string>;
  current_period_end?: number;
  items?: { data?: { current_period_end?: number; price?: { id: string } }[] };
}

export interface StripeEvent {
  id: string;
  type: string;
  created: number;
  data: { object: unknown };
}

export default class Stripe {
  constructor(apiKey: string, config?: StripeConfig);
  customers: {
    create(params: { email: string; metadata: Record<string, string> }): Promise<{ id: string }>;
  };
  checkout: {
    sessions: {
      create(params: {
        mode: "subscription";
        customer: string;
        client_reference_id: string;
        line_items: { price: string; quantity: number }[];
        subscription_data: { metadata: Record<string, string> };
        success_url: string;
        cancel_url: string;
      }): Promise<CheckoutSessionObject>;
    };
  };
  billingPortal: {
    sessions: {
      create(params: { customer: string; return_url: string }): Promise<{ url: string }>;
    };
  };
  webhooks: {
    constructEventAsync(payload: string, header: string, secret: string): Promise<StripeEvent>;
  };
}
