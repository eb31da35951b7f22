/**
 * A chat post (a bot's execute-webhook body, or embeds the embed copier sends) becomes an
 * order: read by `readChatPost`, then logged and stored through `receiveMessage` with the bot's
 * tallies (and, for an ignored post, its embed sample) in the log entry's commit. After a post
 * that created or merged an order, the post is forwarded to the bot's or the workspace's
 * `outputWebhook` when `forwardOn` is set, and a new order of a workspace with public stats is
 * mirrored to the community feed; both run after the answer and never fail the intake.
 */
import type { StoredBot } from "../domain/chat/bot.ts";
import type { Reading } from "../domain/intake/reading.ts";
import type { IntakeDeps } from "./deps.ts";
import { readChatPost } from "./chat/read.ts";
import { receiveMessage, receiveOptions } from "./receive.ts";
import { tallyPost } from "../store/chat/bots.ts";
import { sampleWrites } from "../store/intake/embed_samples.ts";
import { settingsRead, type WorkspaceSettings } from "../store/account/settings.ts";
import { getUser } from "../store/account/users.ts";
import { postToCommunityFeed } from "../vendors/community_feed.ts";
import type { FeedItem } from "../domain/chat/outgoing.ts";
import { relay } from "../chat/relay.ts";

export interface ChatPost {
  userId: string;
  /** The bot whose URL it came to; absent for the embed copier. */
  bot?: StoredBot;
  /** The execute-webhook body (a JSON object). */
  body: Record<string, unknown>;
  /** The body as JSON text: stored as the message's raw copy, and what is forwarded. */
  json: string;
  /** What makes two copies one message (the embed copier's message id); absent: no dedupe. */
  identity?: string;
}

/** The 202 answers of chat intake (CONTRACT.md), and a deleted account. */
export type ChatAnswer =
  | { ok: true; orderId: string; merged: boolean }
  | { ok: true; ignored: true }
  | { ok: true; rejected: true; reason: "plan_limit_reached"; cap: number; used: number }
  | { ok: true; duplicate: true }
  | "account_gone";

/** Chat logs know `ignored`, not `unreadable` (a success post without a product, say). */
function chatReading(reading: Reading, bot: StoredBot | undefined): Reading {
  if (reading.kind === "unreadable") return { kind: "ignored", why: reading.why };
  if (reading.kind === "order" && bot) {
    return { ...reading, fields: { ...reading.fields, sourceId: bot.id } };
  }
  return reading;
}

export async function receiveChatPost(deps: IntakeDeps, post: ChatPost): Promise<ChatAnswer> {
  const { userId, bot } = post;
  const read = readChatPost(post.body);
  // Forwarding needs the settings: read with the order's own read, not in a trip of their own.
  let settings: WorkspaceSettings | undefined;
  const received = await receiveMessage(deps.kv, {
    userId,
    channel: "chat",
    sourceId: bot?.id,
    identity: post.identity,
    raw: new TextEncoder().encode(post.json),
    facts: read.facts,
    reading: chatReading(read.reading, bot),
    alsoRead: settingsRead(userId, (read) => settings = read),
    alsoWrite: (op, entry) => {
      tallyPost(op, userId, entry);
      if (entry.outcome === "ignored" && read.embed) sampleWrites(op, userId, entry, read.embed);
    },
  }, receiveOptions(deps));
  switch (received.outcome) {
    case "created":
    case "merged":
      afterOrder(deps, post, settings!, received.outcome === "created" ? read.feed : undefined);
      return { ok: true, orderId: received.orderId, merged: received.outcome === "merged" };
    case "rejected":
      return { ok: true, rejected: true, ...received.limit };
    case "duplicate":
      return { ok: true, duplicate: true };
    case "account_gone":
      return "account_gone";
    default:
      return { ok: true, ignored: true };
  }
}

/** The relays of a post that made or merged an order; `feed` only for a new order. */
function afterOrder(
  deps: IntakeDeps,
  post: ChatPost,
  settings: WorkspaceSettings,
  feed: FeedItem | undefined,
) {
  const target = post.bot?.outputWebhook ?? settings.outputWebhook;
  if (settings.forwardOn && target) {
    deps.background.run("chat forward", async () => {
      await relay(deps, "forward", target, post.json, {
        userId: post.userId,
        ...(post.bot ? { botId: post.bot.id } : {}),
      });
    });
  }
  const feedConfig = deps.config.communityFeed;
  if (!feed || !feedConfig.url) return;
  deps.background.run("community feed", async () => {
    // Read just before sending: turning public stats off stops the mirroring at once.
    if (!(await getUser(deps.kv, post.userId))?.publicStats) return;
    try {
      await postToCommunityFeed(feedConfig, feed);
    } catch (err) {
      deps.log.warn("community feed post failed", {
        error: err instanceof Error ? err.message : String(err),
      });
    }
  });
}
