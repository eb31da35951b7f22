/**
 * Posts to the workspace's own chat webhooks (URLs a user gave, so through `deps.outbound`: the
 * private-address rule at send time, one 5 s deadline, no retries): a checkout post forwarded
 * to `outputWebhook`, an order's shipped or delivered move announced to `updatesWebhook`, and
 * the digest. A failed relay never fails what caused it; it is logged with the URL's host only
 * (a chat webhook URL's path is its credential).
 */
import { z } from "@hono/zod-openapi";
import { hostOf, updatePost } from "../domain/chat/outgoing.ts";
import type { Order } from "../domain/orders/order.ts";
import type { Logger } from "../lib/log.ts";
import type { Outbound } from "../net/outbound.ts";
import type { QueueHandlers } from "../events/queue.ts";
import { claimRelay } from "../store/chat/relays.ts";
import { getSettings } from "../store/account/settings.ts";
import { MAX_DELIVERY_AGE_MS } from "../store/webhooks/attempts.ts";
import { VERSION } from "../version.ts";

/** What the chat wing uses of the app's services. */
export interface ChatDeps {
  kv: Deno.Kv;
  log: Logger;
  now: () => number;
  outbound: Outbound;
}

export const RELAY_USER_AGENT = `order-tracker-chat/${VERSION}`;

export type RelayKind = "forward" | "update" | "digest";

export type RelayResult = { ok: true; status: number } | { ok: false; error: string };

/** POSTs an execute-webhook body; never throws. Failures are logged. */
export async function relay(
  deps: ChatDeps,
  kind: RelayKind,
  url: string,
  body: string,
  context: Record<string, unknown> = {},
): Promise<RelayResult> {
  const result = await deps.outbound.request(url, {
    body: new TextEncoder().encode(body),
    headers: { "Content-Type": "application/json", "User-Agent": RELAY_USER_AGENT },
  });
  const fields = { kind, host: hostOf(url), durationMs: result.durationMs, ...context };
  if ("status" in result && result.status >= 200 && result.status <= 299) {
    deps.log.debug("chat relay sent", { ...fields, status: result.status });
    return { ok: true, status: result.status };
  }
  const error = "status" in result ? `HTTP ${result.status}` : result.error;
  deps.log.warn("chat relay failed", { ...fields, error });
  return { ok: false, error };
}

// The fields of an order event the announcement reads; anything else in a queue message is
// ignored, and a message without them is dropped.
const OrderEvent = z.object({
  kind: z.literal("event"),
  event: z.object({
    id: z.string(),
    type: z.enum(["order.shipped", "order.delivered"]),
    createdAt: z.string(),
    userId: z.string(),
    data: z.object({
      order: z.looseObject({ id: z.string(), itemSummary: z.string() }),
    }),
  }),
});

/**
 * The `event` handler of update relays: an `order.shipped` or `order.delivered` event, whatever
 * made it (chat, email, a carrier lookup, a PATCH), is posted to the workspace's
 * `updatesWebhook` as one embed. Each event is claimed first, so its copies announce it once.
 * Throws only when storage fails (the transport then delivers the event again).
 */
export function relayHandlers(deps: ChatDeps): QueueHandlers {
  return {
    event: async (raw) => {
      const parsed = OrderEvent.safeParse(raw);
      if (!parsed.success) return;
      const { event } = parsed.data;
      if (deps.now() - Date.parse(event.createdAt) > MAX_DELIVERY_AGE_MS) return;
      const { updatesWebhook } = await getSettings(deps.kv, event.userId);
      if (!updatesWebhook) return;
      if (!await claimRelay(deps.kv, event.userId, event.id, deps.now())) return;
      const move = event.type === "order.shipped" ? "shipped" : "delivered";
      const body = JSON.stringify(
        updatePost(move, event.data.order as unknown as Order, deps.now()),
      );
      await relay(deps, "update", updatesWebhook, body, {
        userId: event.userId,
        eventId: event.id,
      });
    },
  };
}
