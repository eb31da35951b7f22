import { createRoute, z } from "@hono/zod-openapi";
import { receiveChatPost } from "../../intake/chat_post.ts";
import { userscript } from "../../chat/userscript.ts";
import type { AppDeps } from "../../deps.ts";
import { AccountGoneError } from "../../errors.ts";
import { unauthorized } from "../../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse } from "../../http/openapi.ts";
import { takeOrRefuse } from "../../http/rate_limit.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { MAX_ID_LENGTH } from "../../lib/ids.ts";
import { CopierConfigSchema, CopierSubmitBody } from "../../schemas/chat/chat.ts";
import { ChatAnswerSchema } from "../../schemas/intake/chat_posts.ts";
import {
  type CopierRecord,
  findCopierUser,
  getCopier,
  rotateCopier,
} from "../../store/chat/embed_copier.ts";

const TAGS = ["Embed copier"];
const SUBMISSIONS = { name: "embed-copier", limit: 30, message: "Too many submissions" };

const getEmbedCopierConfigRoute = createRoute({
  ...authed,
  method: "get",
  path: "/config",
  operationId: "getEmbedCopierConfig",
  tags: TAGS,
  summary: "The embed copier's submission URL",
  description: "For bots that post only inside the chat platform: the user script " +
    "(`GET /api/embed-copier/userscript.js`) copies their embeds to `submitUrl`. " +
    "`enabled` is false, and `submitUrl` absent, until the first rotate issues a URL.",
  responses: {
    200: jsonResponse(CopierConfigSchema, "The configuration"),
    ...errors(401),
  },
});

const rotateEmbedCopierUrlRoute = createRoute({
  ...authed,
  method: "post",
  path: "/rotate",
  operationId: "rotateEmbedCopierUrl",
  tags: TAGS,
  summary: "Issue a new submission URL",
  description: "The first call issues the URL; later calls replace it, and the old one " +
    "answers 401 at once.",
  responses: {
    200: jsonResponse(CopierConfigSchema, "The new URL"),
    ...errors(401),
  },
});

const submitEmbedsRoute = createRoute({
  method: "post",
  path: "/submit/{token}",
  operationId: "submitEmbeds",
  tags: TAGS,
  summary: "Embed copier submission",
  description: "The embeds of one chat message, as the user script read them: the same " +
    "answers as chat intake, and a `messageId` sent before answers `{ok: true, duplicate: " +
    "true}` with no new order. The URL is the credential (401 when unknown or rotated). " +
    "30 per minute per workspace (429 `Too many submissions`).",
  request: {
    params: z.object({
      token: z.string().openapi({ example: "p3Kx9QwZ2mN5vB7cX1aL4sD6fG8hJ0kE" }),
    }),
    body: jsonBody(CopierSubmitBody),
  },
  responses: {
    202: jsonResponse(ChatAnswerSchema, "Processed"),
    ...errors(400, 401, 413, 429),
  },
});

const getEmbedCopierUserScriptRoute = createRoute({
  method: "get",
  path: "/userscript.js",
  operationId: "getEmbedCopierUserScript",
  tags: TAGS,
  summary: "The embed copier's user script",
  description: "Install it in a user-script manager (Tampermonkey, Violentmonkey); it asks for " +
    "the submission URL, and copies embeds from the channels you switch on. See docs/intake.md.",
  responses: {
    200: {
      content: { "text/javascript": { schema: z.string() } },
      description: "The script",
    },
  },
});

function configView(deps: AppDeps, record: CopierRecord | null) {
  return record
    ? { submitUrl: `${deps.config.baseUrl}/api/embed-copier/submit/${record.token}`, enabled: true }
    : { enabled: false };
}

export const getEmbedCopierConfig: AppRouteHandler<typeof getEmbedCopierConfigRoute> = async (
  c,
) => {
  const deps = c.var.deps;
  return c.json(configView(deps, await getCopier(deps.kv, c.var.auth.userId)), 200);
};

export const rotateEmbedCopierUrl: AppRouteHandler<typeof rotateEmbedCopierUrlRoute> = async (
  c,
) => {
  const deps = c.var.deps;
  const record = await rotateCopier(deps.kv, c.var.auth.userId, deps.now());
  if (!record) throw new AccountGoneError();
  return c.json(configView(deps, record), 200);
};

export const submitEmbeds: AppRouteHandler<typeof submitEmbedsRoute> = async (c) => {
  const deps = c.var.deps;
  const { token } = c.req.valid("param");
  const userId = token.length > MAX_ID_LENGTH ? null : await findCopierUser(deps.kv, token);
  if (!userId) throw unauthorized();
  takeOrRefuse(c, SUBMISSIONS, userId);
  const { embeds, messageId } = c.req.valid("json");
  const body = embeds === undefined ? {} : { embeds };
  const answer = await receiveChatPost(deps, {
    userId,
    body,
    json: JSON.stringify(body),
    identity: messageId,
  });
  if (answer === "account_gone") throw unauthorized();
  return c.json(answer, 202);
};

export const getEmbedCopierUserScript: AppRouteHandler<typeof getEmbedCopierUserScriptRoute> = (
  c,
) => {
  c.header("content-type", "text/javascript; charset=utf-8");
  return c.body(userscript(c.var.deps.config.baseUrl), 200);
};

/** `/embed-copier`: the copier's submission URL and its submissions. */
export const embedCopierRoutes = createRouter()
  .openapi(getEmbedCopierConfigRoute, getEmbedCopierConfig)
  .openapi(rotateEmbedCopierUrlRoute, rotateEmbedCopierUrl)
  .openapi(submitEmbedsRoute, submitEmbeds);

/**
 * `/embed-copier/userscript.js`, the script itself: mounted after the samples, where the API
 * document lists it.
 */
export const embedUserScriptRoutes = createRouter()
  .openapi(getEmbedCopierUserScriptRoute, getEmbedCopierUserScript);
