/** Request and response bodies of bots, chat settings and the embed copier. */
import { z } from "@hono/zod-openapi";
import { BOT_LOG_OUTCOMES, BOT_NAME_MAX } from "../../domain/chat/bot.ts";
import { DIGEST_CADENCES } from "../../domain/chat/outgoing.ts";
import { EMBEDS, loose } from "../intake/chat_posts.ts";
import { ReceiverUrl } from "../webhooks/subscriptions.ts";

const URL_RULE = "Receiver URL under the private-address rule (`https:`, no private or " +
  "internal address; errors start with `outputWebhook: `).";

export const BotSchema = z.object({
  id: z.string().openapi({ example: "bot_01j9z3k8q2m4n6p8r0t2v4x6z8" }),
  name: z.string().openapi({ example: "Cybersole" }),
  slug: z.string().openapi({ description: "The secret half of `url`; changed by rotate" }),
  url: z.string().openapi({
    description: "Where the bot posts: `<BASE_URL>/api/webhooks/chat/<webhookHandle>/<slug>`. " +
      "The URL is the credential: keep it secret.",
    example: "https://tracker.example/api/webhooks/chat/Zx9aQ2bW7kLm/4fJ2...",
  }),
  active: z.boolean().openapi({ description: "An inactive bot's URL answers 401" }),
  outputWebhook: z.string().optional().openapi({
    description: "Where this bot's posts are forwarded (else the workspace's `outputWebhook`)",
  }),
  createdAt: z.string(),
}).openapi("Bot");

export const BotStatsSchema = z.object({
  orders: z.number().int().openapi({ description: "Posts that created an order" }),
  merged: z.number().int().openapi({ description: "Posts merged into an existing order" }),
  rejected: z.number().int().openapi({ description: "Posts refused by the plan cap" }),
  lastPostAt: z.string().optional().openapi({ description: "The newest post, any outcome" }),
}).openapi("BotStats");

export const BotWithStatsSchema = BotSchema.extend({ stats: BotStatsSchema })
  .openapi("BotWithStats");

export const BotName = z.string().trim().min(1).max(BOT_NAME_MAX);

export const CreateBotBody = z.object({
  name: BotName.openapi({ description: `1 to ${BOT_NAME_MAX} characters`, example: "Kodai" }),
  outputWebhook: ReceiverUrl.optional().openapi({ description: URL_RULE }),
  active: z.boolean().optional().openapi({ description: "Default true" }),
}).openapi("BotCreate");

export const PatchBotBody = z.object({
  name: BotName.optional(),
  outputWebhook: z.union([ReceiverUrl, z.literal(""), z.null()]).optional().openapi({
    description: `${URL_RULE} An empty string or null clears it.`,
  }),
  active: z.boolean().optional(),
}).openapi("BotChange");

export const BotLogSchema = z.object({
  id: z.string().openapi({ example: "log_01j9z3k8q2m4n6p8r0t2v4x6z8" }),
  botId: z.string(),
  receivedAt: z.string(),
  outcome: z.enum(BOT_LOG_OUTCOMES),
  orderId: z.string().optional(),
  itemSummary: z.string().optional(),
  store: z.string().optional(),
}).openapi("BotLogEntry");

export const CopierSubmitBody = z.object({
  embeds: loose("array", EMBEDS),
  messageId: z.string().trim().min(1).max(100).optional().openapi({
    description: "The chat message's id: a repeat answers `duplicate: true`",
    example: "1312345678901234567",
  }),
}).openapi("EmbedCopierSubmission");

export const CopierConfigSchema = z.object({
  submitUrl: z.string().optional().openapi({
    description: "Where the user script sends embeds (`<BASE_URL>/api/embed-copier/submit/" +
      "<token>`); absent until the first rotate",
  }),
  enabled: z.boolean().openapi({ description: "Whether a submission URL has been issued" }),
}).openapi("EmbedCopierConfig");

export const DigestCadenceSchema = z.enum(DIGEST_CADENCES);

export const ChatSettingsSchema = z.object({
  digest: DigestCadenceSchema,
  nextDigestAt: z.string().optional().openapi({ description: "When the next digest is due" }),
  lastDigestAt: z.string().optional(),
  updatedAt: z.string(),
}).openapi("ChatSettings");
