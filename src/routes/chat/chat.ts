import { createRoute, z } from "@hono/zod-openapi";
import { sendDigest } from "../../chat/digest.ts";
import { installUrl } from "../../domain/chat/outgoing.ts";
import { AccountGoneError } from "../../errors.ts";
import { ApiError } from "../../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { compact } from "../../lib/compact.ts";
import { ChatSettingsSchema, DigestCadenceSchema } from "../../schemas/chat/chat.ts";
import { type DigestRecord, getDigest, setDigest } from "../../store/chat/digest.ts";

const TAGS = ["Chat"];

const getChatInstallUrlRoute = createRoute({
  ...authed,
  method: "get",
  path: "/install",
  operationId: "getChatInstallUrl",
  tags: TAGS,
  summary: "Where to add the service's chat bot to a server",
  description: "503 when the deployment has no chat-platform application (`DISCORD_CLIENT_ID`).",
  responses: {
    200: jsonResponse(
      z.object({
        installUrl: z.string().openapi({
          example: "https://discord.com/oauth2/authorize?client_id=123",
        }),
      }),
      "The chat platform's authorisation page for the bot",
    ),
    ...errors(401, 503),
  },
});

const updateChatSettingsRoute = createRoute({
  ...authed,
  method: "patch",
  path: "/settings",
  operationId: "updateChatSettings",
  tags: TAGS,
  summary: "Choose the digest",
  description: "`daily` or `weekly` posts a summary of the period's orders to the workspace's " +
    "`updatesWebhook` every day (or week) from now; `off` stops it. Setting the cadence the " +
    "workspace already has keeps its schedule.",
  request: {
    body: jsonBody(z.object({ digest: DigestCadenceSchema }).openapi("ChatSettingsChange")),
  },
  responses: {
    200: jsonResponse(z.object({ settings: ChatSettingsSchema }), "The chat settings"),
    ...errors(400, 401, 413),
  },
});

const sendChatDigestRoute = createRoute({
  ...authed,
  method: "post",
  path: "/digest",
  operationId: "sendChatDigest",
  tags: TAGS,
  summary: "Post a digest now",
  description: "Posts a summary of the last day's orders (the last week's with a weekly " +
    "digest) to `updatesWebhook` now. 409 when no `updatesWebhook` is set; 502 when it does " +
    "not answer 2xx within 5 s.",
  responses: {
    200: jsonResponse(OkSchema, "Posted"),
    ...errors(401, 409, 502),
  },
});

function settingsView(record: DigestRecord) {
  return compact({
    digest: record.digest,
    nextDigestAt: record.nextAt === undefined ? undefined : new Date(record.nextAt).toISOString(),
    lastDigestAt: record.lastSentAt,
    updatedAt: record.updatedAt,
  });
}

export const getChatInstallUrl: AppRouteHandler<typeof getChatInstallUrlRoute> = (c) => {
  const { clientId, apiBase } = c.var.deps.config.discord;
  if (!clientId) {
    throw new ApiError(
      503,
      "The chat bot is not configured on this deployment (set DISCORD_CLIENT_ID)",
    );
  }
  return c.json({ installUrl: installUrl(clientId, apiBase) }, 200);
};

export const updateChatSettings: AppRouteHandler<typeof updateChatSettingsRoute> = async (c) => {
  const deps = c.var.deps;
  const { digest } = c.req.valid("json");
  const record = await setDigest(deps.kv, c.var.auth.userId, digest, deps.now());
  if (!record) throw new AccountGoneError();
  return c.json({ settings: settingsView(record) }, 200);
};

export const sendChatDigest: AppRouteHandler<typeof sendChatDigestRoute> = async (c) => {
  const deps = c.var.deps;
  const { userId } = c.var.auth;
  const { digest: cadence } = await getDigest(deps.kv, userId);
  const sent = await sendDigest(deps, userId, cadence === "weekly" ? "weekly" : "daily");
  if (sent === "no_webhook") {
    throw new ApiError(409, "No updatesWebhook is set (POST /api/settings)");
  }
  if (!sent.ok) throw new ApiError(502, `updatesWebhook did not take the digest: ${sent.error}`);
  return c.json({ ok: true as const }, 200);
};

export const chatRoutes = createRouter()
  .openapi(getChatInstallUrlRoute, getChatInstallUrl)
  .openapi(updateChatSettingsRoute, updateChatSettings)
  .openapi(sendChatDigestRoute, sendChatDigest);
