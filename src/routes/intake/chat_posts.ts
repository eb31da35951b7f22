/**
 * Chat intake: `POST /api/webhooks/chat/{handle}/{slug}`, the arrival path of chat posts (the
 * inbound twin of the mail arrival path, not the outbound webhook delivery of `webhooks/`). A
 * bot's URL takes the execute-webhook body a chat platform sends (JSON, or multipart unwrapped by
 * `intake/chat_form.ts`) and hands it to `receiveChatPost`.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { receiveChatPost } from "../../intake/chat_post.ts";
import { badRequest, unauthorized } from "../../http/errors.ts";
import { clientIp } from "../../http/client_ip.ts";
import type { AppEnv } from "../../http/env.ts";
import { errors, json, jsonResponse } from "../../http/openapi.ts";
import { rateLimit } from "../../http/rate_limit.ts";
import { chatPostOfForm } from "../../intake/chat_form.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { MAX_ID_LENGTH } from "../../lib/ids.ts";
import { ChatAnswerSchema, ChatPostBody, ChatPostForm } from "../../schemas/intake/chat_posts.ts";
import { findBotByUrl } from "../../store/chat/bots.ts";

/** The spec's chat intake limits: per client IP across all bots, then per bot URL. */
const PER_IP = {
  name: "chat-intake-ip",
  limit: 60,
  message: "Ingest rate exceeded (60/min per IP)",
  key: clientIp,
};
const PER_BOT = {
  name: "chat-intake-bot",
  limit: 60,
  message: "Ingest rate exceeded for this bot (60/min)",
  key: (c: Context<AppEnv>) => `${c.req.param("handle")}/${c.req.param("slug")}`,
};

const Params = z.object({
  handle: z.string().openapi({
    description: "The account's `webhookHandle`",
    example: "Zx9aQ2bW7kLm",
  }),
  slug: z.string().openapi({
    description: "The bot's `slug`",
    example: "4fJ2kQ9wX1pLm3nB5vC7xZ8a",
  }),
});

const postChatIntakeRoute = createRoute({
  method: "post",
  path: "/chat/{handle}/{slug}",
  operationId: "postChatIntake",
  tags: ["Bots"],
  summary: "Chat intake: a checkout bot's post",
  description: "The chat platform's execute-webhook body, as JSON or as `multipart/form-data` " +
    "with a `payload_json` part (attached files are ignored but count toward the 2 MiB " +
    "limit). The URL is the credential: an unknown handle or slug, or a rotated, deleted or " +
    "inactive bot, all answer the same 401. A post with a checkout creates or merges an " +
    "order; anything else (a decline, a restock monitor, chatter) is logged as `ignored`. " +
    "Posts are not deduplicated (posts sharing an order number merge). Query parameters " +
    "(`wait`, `thread_id`) are accepted and ignored. Limits: 60 posts per minute per client " +
    "IP across all bots, and 60 per minute per bot URL (429, `Retry-After: 60`).",
  middleware: [rateLimit(PER_IP, PER_BOT)],
  request: {
    params: Params,
    query: z.looseObject({
      wait: z.string().optional().openapi({ description: "Accepted, ignored" }),
      thread_id: z.string().optional().openapi({ description: "Accepted, ignored" }),
    }),
    body: {
      content: { ...json(ChatPostBody), "multipart/form-data": { schema: ChatPostForm } },
      required: false,
    },
  },
  responses: {
    202: jsonResponse(
      ChatAnswerSchema,
      "Processed: `{ok, orderId, merged}`, `{ok, ignored: true}`, or `{ok, rejected: true, " +
        "reason, cap, used}` at the plan cap",
    ),
    ...errors(400, 401, 413, 429),
  },
});

export const postChatIntake: AppRouteHandler<typeof postChatIntakeRoute> = async (c) => {
  const deps = c.var.deps;
  const { handle, slug } = c.req.valid("param");
  // Longer than any handle or slug: names nothing, like any wrong URL.
  if (handle.length > MAX_ID_LENGTH || slug.length > MAX_ID_LENGTH) throw unauthorized();
  const bot = await findBotByUrl(deps.kv, handle, slug);
  if (!bot) throw unauthorized();
  const multipart = c.req.header("content-type")?.toLowerCase().startsWith("multipart/");
  if (!multipart && c.var.rawBody !== undefined) {
    throw badRequest("body: must be a JSON object (the execute-webhook body)");
  }
  const form = multipart
    ? await chatPostOfForm(c.req.valid("form") as Record<string, unknown>)
    : null;
  if (form && !form.ok) throw badRequest(form.error);
  const body = form ? form.body : c.req.valid("json") as Record<string, unknown>;
  const answer = await receiveChatPost(deps, {
    userId: bot.userId,
    bot,
    body,
    json: JSON.stringify(body),
  });
  if (answer === "account_gone") throw unauthorized();
  return c.json(answer, 202);
};

export const chatPostRoutes = createRouter().openapi(postChatIntakeRoute, postChatIntake);
