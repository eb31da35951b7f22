/**
 * Request and response bodies of chat posts becoming orders: a bot's execute-webhook post (JSON
 * or multipart), the answer, and the embed samples of ignored posts.
 */
import { z } from "@hono/zod-openapi";

/** A body value read leniently: a part of another type is ignored, never an error. */
export const loose = (type: "string" | "array", description: string) =>
  z.unknown().optional().openapi({ type, description });

export const EMBEDS = "Up to 10 embeds: `title`, `description`, `url`, `author {name}`, `footer " +
  "{text}`, `thumbnail {url}`, `image {url}`, `fields [{name, value}]`. Read leniently: " +
  "a part of the wrong type is ignored, text is cut to the platform's limits.";

export const ChatPostBody = z.looseObject({
  content: loose("string", "Message text"),
  username: loose("string", "The sender name the bot uses"),
  avatar_url: loose("string", "Ignored"),
  embeds: loose("array", EMBEDS),
}).openapi("ChatPost", {
  description: "The chat platform's execute-webhook body. Other keys are accepted and ignored.",
});

export const ChatPostForm = z.looseObject({
  payload_json: loose("string", "The execute-webhook body as JSON text (a part or a file)"),
  content: loose("string", "Without `payload_json`: the message text"),
  username: loose("string", "Without `payload_json`: the sender name"),
}).openapi("ChatPostForm", {
  description: "Attached files (`files[n]`) are ignored; they count toward the 2 MiB limit.",
});

export const ChatAnswerSchema = z.object({
  ok: z.literal(true),
  orderId: z.string().optional().openapi({ description: "The order made or merged into" }),
  merged: z.boolean().optional(),
  ignored: z.literal(true).optional().openapi({
    description: "No checkout in the post: logged, no order",
  }),
  rejected: z.literal(true).optional().openapi({
    description: "The free plan's monthly cap blocks a new order",
  }),
  reason: z.literal("plan_limit_reached").optional(),
  cap: z.number().int().optional(),
  used: z.number().int().optional(),
  duplicate: z.literal(true).optional().openapi({
    description: "Embed copier only: this `messageId` was submitted before; no new order",
  }),
}).openapi("ChatIntakeAnswer");

export const EmbedSampleSchema = z.object({
  id: z.string().openapi({ description: "The post's log entry id" }),
  receivedAt: z.string(),
  botId: z.string().optional(),
  why: z.string().optional().openapi({ example: 'decline: header says "declined"' }),
  embed: z.record(z.string(), z.unknown()).openapi({
    description: "The embed that decided it, private values (emails, profiles, proxies) removed",
  }),
}).openapi("EmbedSample");
