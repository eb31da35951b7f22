/**
 * Checkout bots (CONTRACT.md "Bots and chat intake"): a bot is a named intake URL,
 * `<BASE_URL>/api/webhooks/chat/<webhookHandle>/<slug>`, whose path is the credential. Pure
 * rules: the stored record, the views the API, the snapshot and the export show, and changes.
 */
import { hostOf } from "./outgoing.ts";
import type { IntakeLogEntry } from "../intake/reading.ts";

export const BOT_NAME_MAX = 80;

/** A bot as stored: its handle is the account's (never changes), `slug` the secret half. */
export interface StoredBot {
  id: string;
  userId: string;
  name: string;
  handle: string;
  slug: string;
  active: boolean;
  outputWebhook?: string;
  createdAt: string;
  updatedAt?: string;
}

/** What `GET /api/bots/:id` shows. */
export interface BotView {
  id: string;
  name: string;
  slug: string;
  url: string;
  active: boolean;
  outputWebhook?: string;
  createdAt: string;
}

/** Posts that created an order, merged into one, or met the plan cap; the newest post. */
export interface BotStats {
  orders: number;
  merged: number;
  rejected: number;
  lastPostAt?: string;
}

/** The path of a bot's intake URL under `/api`. */
export const intakePath = (handle: string, slug: string) => `/webhooks/chat/${handle}/${slug}`;

export function botView(bot: StoredBot, baseUrl: string): BotView {
  return {
    id: bot.id,
    name: bot.name,
    slug: bot.slug,
    url: `${baseUrl}/api${intakePath(bot.handle, bot.slug)}`,
    active: bot.active,
    ...(bot.outputWebhook ? { outputWebhook: bot.outputWebhook } : {}),
    createdAt: bot.createdAt,
  };
}

/** The export's bot: no slug, and its URLs cut to their host. */
export function exportedBot(bot: StoredBot, baseUrl: string) {
  const { slug: _, url, outputWebhook, ...rest } = botView(bot, baseUrl);
  const output = hostOf(outputWebhook);
  return { ...rest, url: hostOf(url), ...(output ? { outputWebhook: output } : {}) };
}

/** A PATCH: `outputWebhook` null clears it; undefined leaves a field alone. */
export interface BotChanges {
  name?: string;
  outputWebhook?: string | null;
  active?: boolean;
}

export function applyBotChanges(bot: StoredBot, changes: BotChanges, now: number): StoredBot {
  const next: StoredBot = { ...bot, updatedAt: new Date(now).toISOString() };
  if (changes.name !== undefined) next.name = changes.name;
  if (changes.active !== undefined) next.active = changes.active;
  if (changes.outputWebhook === null) delete next.outputWebhook;
  else if (changes.outputWebhook !== undefined) next.outputWebhook = changes.outputWebhook;
  return next;
}

/** The outcomes a bot's log shows (chat posts are never duplicates, blocked or unreadable). */
export const BOT_LOG_OUTCOMES = ["created", "merged", "rejected", "ignored"] as const;
export type BotLogOutcome = typeof BOT_LOG_OUTCOMES[number];

/** A bot log entry: the intake log entry as the contract names its fields. */
export function botLogEntry(entry: IntakeLogEntry) {
  return {
    id: entry.id,
    botId: entry.sourceId!,
    receivedAt: entry.receivedAt,
    outcome: entry.outcome as BotLogOutcome,
    ...(entry.orderId ? { orderId: entry.orderId } : {}),
    ...(entry.itemSummary ? { itemSummary: entry.itemSummary } : {}),
    ...(entry.store ? { store: entry.store } : {}),
  };
}

/** How many of a bot's newest orders the snapshot shows. */
export const RECENT_ORDERS = 5;

/** The snapshot's `recentOrders`: the newest posts that made or merged an order, one per order. */
export function recentOrdersOf(entries: IntakeLogEntry[]) {
  const seen = new Set<string>();
  const out = [];
  for (const e of entries) {
    if (!e.orderId || seen.has(e.orderId)) continue;
    seen.add(e.orderId);
    out.push({
      orderId: e.orderId,
      receivedAt: e.receivedAt,
      outcome: e.outcome as "created" | "merged",
      ...(e.itemSummary ? { itemSummary: e.itemSummary } : {}),
      ...(e.store ? { store: e.store } : {}),
    });
    if (out.length === RECENT_ORDERS) break;
  }
  return out;
}
