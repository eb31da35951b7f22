import { createRoute, z } from "@hono/zod-openapi";
import { botLogEntry, botView, type StoredBot } from "../../domain/chat/bot.ts";
import type { AppDeps } from "../../deps.ts";
import { AccountGoneError } from "../../errors.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import {
  envelope,
  logLimitQuery,
  type PageBounds,
  pageSchema,
  PagingQuery,
  parsePaging,
} from "../../http/paging.ts";
import { receiverUrlChange } from "../../http/receiver_url.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import {
  BotLogSchema,
  BotSchema,
  BotWithStatsSchema,
  CreateBotBody,
  PatchBotBody,
} from "../../schemas/chat/chat.ts";
import * as botStore from "../../store/chat/bots.ts";
import { latestIntakeEntries } from "../../store/intake/log.ts";
import { getUser } from "../../store/account/users.ts";

const TAGS = ["Bots"];
const NOT_FOUND = "Bot not found";
const IdParam = resourceParam("id", NOT_FOUND, { example: "bot_01j9z3k8q2m4n6p8r0t2v4x6z8" });
const LOG_BOUNDS: PageBounds = { defaultLimit: 200, maxLimit: 500 };

const listBotsRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "List bots, newest first",
  request: { query: PagingQuery },
  responses: {
    200: jsonResponse(pageSchema(BotSchema, "BotPage"), "A page of bots"),
    ...errors(401),
  },
});

const getBotRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}",
  tags: TAGS,
  summary: "One bot with its stats",
  request: { params: IdParam },
  responses: {
    200: jsonResponse(z.object({ bot: BotWithStatsSchema }), "The bot"),
    ...errors(401, 404),
  },
});

const createBotRoute = createRoute({
  ...authed,
  method: "post",
  path: "/",
  tags: TAGS,
  summary: "Create a bot (a chat intake URL)",
  description: "Point a checkout bot's chat webhook at the new bot's `url`.",
  request: { body: jsonBody(CreateBotBody) },
  responses: {
    201: jsonResponse(z.object({ bot: BotSchema }), "Created"),
    ...errors(400, 401, 413),
  },
});

const updateBotRoute = createRoute({
  ...authed,
  method: "patch",
  path: "/{id}",
  tags: TAGS,
  summary: "Change a bot",
  description: "Changes only the fields sent. `active: false` makes its URL answer 401.",
  request: { params: IdParam, body: jsonBody(PatchBotBody) },
  responses: {
    200: jsonResponse(z.object({ bot: BotSchema }), "The changed bot"),
    ...errors(400, 401, 404, 413),
  },
});

const deleteBotRoute = createRoute({
  ...authed,
  method: "delete",
  path: "/{id}",
  tags: TAGS,
  summary: "Delete a bot",
  description: "Its URL answers 401 at once. Its log entries stay with the orders they made.",
  request: { params: IdParam },
  responses: { 200: jsonResponse(OkSchema, "Deleted"), ...errors(401, 404) },
});

const rotateBotRoute = createRoute({
  ...authed,
  method: "post",
  path: "/{id}/rotate",
  tags: TAGS,
  summary: "Give a bot a new URL",
  description: "A new `slug` and `url`; the old URL answers 401 at once.",
  request: { params: IdParam },
  responses: {
    200: jsonResponse(z.object({ bot: BotSchema }), "The bot with its new URL"),
    ...errors(401, 404),
  },
});

const getBotLogsRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}/logs",
  tags: TAGS,
  summary: "A bot's posts, newest first",
  request: { params: IdParam, query: logLimitQuery(LOG_BOUNDS) },
  responses: {
    200: jsonResponse(z.object({ logs: z.array(BotLogSchema) }), "The newest posts"),
    ...errors(401, 404),
  },
});

const view = (deps: AppDeps, bot: StoredBot) => botView(bot, deps.config.baseUrl);

export const listBots: AppRouteHandler<typeof listBotsRoute> = async (c) => {
  const deps = c.var.deps;
  const paging = parsePaging(c.req.valid("query"));
  const { items, total } = await botStore.listBots(deps.kv, c.var.auth.userId, paging);
  return c.json(envelope(items.map((bot) => view(deps, bot)), total, paging), 200);
};

export const getBot: AppRouteHandler<typeof getBotRoute> = async (c) => {
  const deps = c.var.deps;
  const { userId } = c.var.auth;
  const bot = found(await botStore.getBot(deps.kv, userId, c.req.valid("param").id), NOT_FOUND);
  const stats = await botStore.botStats(deps.kv, userId, bot.id);
  return c.json({ bot: { ...view(deps, bot), stats } }, 200);
};

export const createBot: AppRouteHandler<typeof createBotRoute> = async (c) => {
  const deps = c.var.deps;
  const body = c.req.valid("json");
  const user = await getUser(deps.kv, c.var.auth.userId);
  if (!user) throw new AccountGoneError();
  const bot = await botStore.createBot(deps.kv, user, {
    name: body.name,
    outputWebhook: await receiverUrlChange(deps, "outputWebhook", body.outputWebhook) ?? undefined,
    active: body.active ?? true,
  }, deps.now());
  if (!bot) throw new AccountGoneError();
  return c.json({ bot: view(deps, bot) }, 201);
};

export const updateBot: AppRouteHandler<typeof updateBotRoute> = async (c) => {
  const deps = c.var.deps;
  const body = c.req.valid("json");
  const { userId } = c.var.auth;
  const { id } = c.req.valid("param");
  found(await botStore.getBot(deps.kv, userId, id), NOT_FOUND);
  const bot = found(
    await botStore.updateBot(deps.kv, userId, id, {
      name: body.name,
      active: body.active,
      outputWebhook: await receiverUrlChange(deps, "outputWebhook", body.outputWebhook),
    }, deps.now()),
    NOT_FOUND,
  );
  return c.json({ bot: view(deps, bot) }, 200);
};

export const deleteBot: AppRouteHandler<typeof deleteBotRoute> = async (c) => {
  found(
    await botStore.deleteBot(c.var.deps.kv, c.var.auth.userId, c.req.valid("param").id),
    NOT_FOUND,
  );
  return c.json({ ok: true as const }, 200);
};

export const rotateBot: AppRouteHandler<typeof rotateBotRoute> = async (c) => {
  const deps = c.var.deps;
  const { id } = c.req.valid("param");
  const bot = found(
    await botStore.rotateBotSlug(deps.kv, c.var.auth.userId, id, deps.now()),
    NOT_FOUND,
  );
  return c.json({ bot: view(deps, bot) }, 200);
};

export const getBotLogs: AppRouteHandler<typeof getBotLogsRoute> = async (c) => {
  const { kv } = c.var.deps;
  const { userId } = c.var.auth;
  const bot = found(await botStore.getBot(kv, userId, c.req.valid("param").id), NOT_FOUND);
  const { limit } = parsePaging(c.req.valid("query"), LOG_BOUNDS);
  const entries = await latestIntakeEntries(kv, userId, { sourceId: bot.id }, limit);
  return c.json({ logs: entries.map(botLogEntry) }, 200);
};

export const botRoutes = createRouter()
  .openapi(listBotsRoute, listBots)
  .openapi(getBotRoute, getBot)
  .openapi(createBotRoute, createBot)
  .openapi(updateBotRoute, updateBot)
  .openapi(deleteBotRoute, deleteBot)
  .openapi(rotateBotRoute, rotateBot)
  .openapi(getBotLogsRoute, getBotLogs);
