import { createHmac } from "node:crypto";
import { webhookHandlers } from "../../src/webhooks/delivery.ts";
import type { AppDeps } from "../../src/deps.ts";
import {
  type QueueHandlers,
  type QueueListener,
  startQueueListener,
} from "../../src/events/queue.ts";
import { newOrder } from "../../src/domain/orders/order.ts";
import {
  buildEvent,
  type EventEnvelope,
  type OrderEventData,
} from "../../src/domain/events/envelope.ts";
import type { Resolver } from "../../src/net/resolver.ts";
import { call, testApp, type TestContext } from "../helpers.ts";

export interface WebhookContext extends TestContext {
  queue?: QueueListener;
}

/** Names the tests resolve; anything else does not resolve. */
export const testResolver = (table: Record<string, string[]> = {}): Resolver => ({
  resolve: (host) => Promise.resolve(table[host] ?? []),
});

/**
 * An app whose outbound requests may reach 127.0.0.1 (`ALLOWED_PRIVATE_ADDRESSES`, as
 * CONTRACT.md allows for tests), with the process's queue listener running unless
 * `listen: false`. Closing drains the handlers, closes KV, then awaits the listener.
 */
export async function webhookApp(
  options: {
    listen?: boolean;
    resolver?: Resolver;
    timeoutMs?: number;
    now?: () => number;
    env?: Record<string, string>;
    /** How committed events travel (default: the queue of the in-memory KV). */
    events?: "queue" | "outbox";
    /** The queue handlers to listen with (default: webhook delivery's). */
    handlers?: (deps: AppDeps) => QueueHandlers;
  } = {},
): Promise<WebhookContext> {
  const ctx = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1", ...options.env }, {
    now: options.now,
    deps: {
      outbound: { resolver: options.resolver ?? testResolver(), timeoutMs: options.timeoutMs },
      events: options.events,
    },
  });
  const queue = options.listen === false
    ? undefined
    : startQueueListener(ctx.deps, (options.handlers ?? webhookHandlers)(ctx.deps));
  const close = async () => {
    await queue?.drain();
    await ctx.close();
    await queue?.close();
  };
  return { ...ctx, queue, close, [Symbol.asyncDispose]: close };
}

export interface CreatedSubscription {
  id: string;
  secret: string;
  [field: string]: unknown;
}

/** Creates a subscription through the API; fails the test unless it answers 201. */
export async function subscribe(
  ctx: TestContext,
  token: string,
  body: Record<string, unknown>,
): Promise<CreatedSubscription> {
  const res = await call<CreatedSubscription>(ctx, "POST", "/api/webhook-subscriptions", {
    token,
    body: { eventTypes: ["order.created"], ...body },
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The `data` of an order event, about a new manual order. */
export function orderEventData(now = Date.now()): OrderEventData {
  const order = newOrder("ord_test", { itemSummary: "Lamp" }, {}, "manual", now);
  return { order, source: "manual" };
}

/** Commits an event the way the orders capability does: log entry and hand-off at once. */
export async function commitEvent(
  ctx: TestContext,
  userId: string,
  type: "order.created" | "order.shipped" = "order.created",
): Promise<EventEnvelope> {
  const event = buildEvent(type, userId, orderEventData());
  const res = await ctx.deps.events.bus.commit(ctx.kv.atomic(), [event]);
  if (!res.ok) throw new Error("event commit failed");
  return event;
}

/** `sha256=<hex>` computed independently of the service's own code. */
export function expectedSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

/** Polls until `check` returns a value other than undefined/false (fails after `ms`). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 5000,
): Promise<T> {
  const until = Date.now() + ms;
  while (true) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
