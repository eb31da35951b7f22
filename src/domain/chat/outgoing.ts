/**
 * What the service posts to chat-platform webhooks, as pure data (execute-webhook bodies): the
 * community feed's mirrored checkout, an order's shipped or delivered announcement, and the
 * digest; and the digest's schedule.
 */
import type { Order } from "../orders/order.ts";

/** The platform's limits on what a post may hold (longer text is cut, never refused). */
const LIMITS = { title: 256, description: 4096, fieldValue: 1024 };

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 2);
  // One character less than the limit plus an ellipsis, never half a surrogate pair.
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 2 : max - 1) + "…";
}

/**
 * A URL cut down to its host (`discord.com`): how the export shows chat webhook URLs, whose
 * path is a credential. Not a URL at all: nothing.
 */
export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

export interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

/** Fields with a value; each value cut to the platform's limit. */
function fields(pairs: [string, string | number | undefined][], inline?: boolean): EmbedField[] {
  return pairs.flatMap(([name, value]) =>
    value === undefined || value === "" ? [] : [{
      name,
      value: cut(String(value), LIMITS.fieldValue),
      ...(inline === undefined ? {} : { inline }),
    }]
  );
}

/** What the community feed may show of a checkout, and nothing else. */
export interface FeedItem {
  itemSummary: string;
  store?: string;
  price?: string;
  imageUrl?: string;
}

/**
 * The community feed's post (CONTRACT.md): the sender name, the item as the title, store and
 * price fields when known, the product image. Built from the four values alone, so nothing
 * else of the checkout can be in it.
 */
export function feedPost(item: FeedItem, senderName: string) {
  return {
    username: senderName,
    embeds: [{
      title: cut(item.itemSummary, LIMITS.title),
      fields: fields([["Store", item.store], ["Price", item.price]]),
      ...(item.imageUrl ? { thumbnail: { url: item.imageUrl } } : {}),
    }],
  };
}

/** Blue for shipped, green for delivered (the platform's embed colour, 0xRRGGBB). */
const UPDATE_COLOUR = { shipped: 0x3b82f6, delivered: 0x22c55e } as const;

/**
 * An order's move to shipped or delivered, for the workspace's own `updatesWebhook`: one embed
 * with the item, its store, numbers, carrier and dates, linking the tracking page.
 */
export function updatePost(move: "shipped" | "delivered", order: Order, now: number) {
  const delivered = move === "delivered";
  return {
    embeds: [{
      title: delivered ? "Order delivered" : "Order shipped",
      description: cut(order.itemSummary, LIMITS.description),
      color: UPDATE_COLOUR[move],
      ...(order.trackingUrl ? { url: order.trackingUrl } : {}),
      fields: fields([
        ["Store", order.store],
        ["Order", order.orderNumber],
        ["Carrier", order.carrier],
        ["Tracking", order.trackingNumber],
        delivered
          ? ["Delivered", order.actualDelivery]
          : ["Estimated delivery", order.estimatedDelivery],
      ], true),
      ...(order.imageUrl ? { thumbnail: { url: order.imageUrl } } : {}),
      timestamp: new Date(now).toISOString(),
    }],
  };
}

export const DIGEST_CADENCES = ["off", "daily", "weekly"] as const;
export type DigestCadence = typeof DIGEST_CADENCES[number];

export const DIGEST_PERIOD_MS = { daily: 86_400_000, weekly: 7 * 86_400_000 } as const;

/** The first due time after `now` on the schedule `due + k * period`. */
export function nextDue(due: number, period: number, now: number): number {
  if (due > now) return due;
  return due + (Math.floor((now - due) / period) + 1) * period;
}

/** What a digest reports: orders received in the period, by where they are now. */
export interface DigestSummary {
  cadence: "daily" | "weekly";
  received: number;
  shipped: number;
  delivered: number;
  /** The newest orders of the period. */
  latest: Pick<Order, "itemSummary" | "store" | "status">[];
}

/** How many of the newest orders a digest lists. */
export const DIGEST_LATEST = 5;

export function digestPost(summary: DigestSummary, now: number) {
  const period = summary.cadence === "daily" ? "day" : "week";
  const lines = summary.latest.map((o) =>
    `• ${cut(o.itemSummary, 120)}${o.store ? ` (${o.store})` : ""}: ${o.status}`
  );
  return {
    embeds: [{
      title: summary.cadence === "daily" ? "Daily digest" : "Weekly digest",
      description: summary.received === 0
        ? `No new orders in the last ${period}.`
        : `${summary.received} new order${
          summary.received === 1 ? "" : "s"
        } in the last ${period}.`,
      fields: [
        ...fields([
          ["Received", summary.received],
          ["Now shipped", summary.shipped],
          ["Now delivered", summary.delivered],
        ], true),
        ...fields([["Latest", lines.length ? lines.join("\n") : undefined]], false),
      ],
      timestamp: new Date(now).toISOString(),
    }],
  };
}

/** Send Messages, Embed Links and View Channel: what the chat bot needs to post embeds. */
const BOT_PERMISSIONS = 2048 + 16384 + 1024;

/** The chat platform's page that adds the service's bot to a server. */
export function installUrl(clientId: string, apiBase: string): string {
  const url = new URL("/oauth2/authorize", new URL(apiBase).origin);
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("scope", "bot applications.commands");
  url.searchParams.set("permissions", String(BOT_PERMISSIONS));
  return url.href;
}
