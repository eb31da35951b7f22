import { createRoute, z } from "@hono/zod-openapi";
import { authed, errors, jsonResponse } from "../../http/openapi.ts";
import { logLimitQuery, type PageBounds, parsePaging } from "../../http/paging.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { WebhookLogSchema } from "../../schemas/webhooks/subscriptions.ts";
import { listWebhookLogs } from "../../store/webhooks/logs.ts";

const BOUNDS: PageBounds = { defaultLimit: 100, maxLimit: 500 };

const getWebhookLogsRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: ["Webhook subscriptions"],
  summary: "Webhook delivery log, newest first",
  description: "One entry per delivery attempt, test deliveries included, kept 7 days.",
  request: { query: logLimitQuery(BOUNDS) },
  responses: {
    200: jsonResponse(z.object({ logs: z.array(WebhookLogSchema) }), "The newest entries"),
    ...errors(401),
  },
});

export const getWebhookLogs: AppRouteHandler<typeof getWebhookLogsRoute> = async (c) => {
  const { limit } = parsePaging(c.req.valid("query"), BOUNDS);
  return c.json({ logs: await listWebhookLogs(c.var.deps.kv, c.var.auth.userId, limit) }, 200);
};

export const webhookLogRoutes = createRouter().openapi(getWebhookLogsRoute, getWebhookLogs);
