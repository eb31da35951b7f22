import { createRoute, z } from "@hono/zod-openapi";
import { authed, errors, jsonBody, jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { reparseOrders } from "../../intake/reparse.ts";
import { IntakeEntrySchema } from "../../schemas/intake/email.ts";
import { listIntakeLog } from "../../store/intake/log.ts";
import { getOrder } from "../../store/orders/orders.ts";

const TAGS = ["Orders"];
const ORDER_NOT_FOUND = "Order not found";
/** An order's history lists at most this many messages, newest first. */
const MAX_HISTORY = 500;

const reparseRoute = createRoute({
  ...authed,
  method: "post",
  path: "/reparse",
  tags: TAGS,
  summary: "Re-read orders' stored messages with today's templates",
  description: "Reads the stored source messages of the orders named (none: every order " +
    "with a stored message) again with today's readers and templates, oldest first, and " +
    "corrects every field they give that is not in `userEdited`. Fires no events. " +
    "`reparsed` counts orders re-read, `changed` those that changed.",
  request: {
    body: jsonBody(
      z.object({
        orderIds: z.array(z.string().max(64)).max(1000).optional().openapi({
          description: "The orders to re-read; missing: every order with a stored message",
        }),
      }).openapi("Reparse"),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({
        ok: z.literal(true),
        reparsed: z.number().int(),
        changed: z.number().int(),
      }).openapi("ReparseResult"),
      "Counts of orders re-read and of orders changed",
    ),
    ...errors(400, 401, 413),
  },
});

const getOrderMessagesRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}/messages",
  tags: TAGS,
  summary: "The messages merged into an order, newest first",
  description: "Every email and chat post that created or merged into the order, with " +
    "`setFields`: the order fields each one set, so every value's origin can be seen.",
  request: { params: resourceParam("id", ORDER_NOT_FOUND, { example: "ord_01jq4w5v2x8c9d0e" }) },
  responses: {
    200: jsonResponse(
      z.object({ items: z.array(IntakeEntrySchema) }).openapi("OrderMessages"),
      "The order's messages",
    ),
    ...errors(401, 404),
  },
});

export const reparse: AppRouteHandler<typeof reparseRoute> = async (c) => {
  const { kv, now, emailReader } = c.var.deps;
  const { orderIds } = c.req.valid("json");
  const counts = await reparseOrders(kv, c.var.auth.userId, orderIds, now(), emailReader);
  return c.json({ ok: true as const, ...counts }, 200);
};

export const getOrderMessages: AppRouteHandler<typeof getOrderMessagesRoute> = async (c) => {
  const { kv } = c.var.deps;
  const userId = c.var.auth.userId;
  const { id } = c.req.valid("param");
  found(await getOrder(kv, userId, id), ORDER_NOT_FOUND);
  const { items } = await listIntakeLog(kv, userId, { orderId: id, limit: MAX_HISTORY });
  return c.json({ items }, 200);
};

export const orderIntakeRoutes = createRouter()
  .openapi(reparseRoute, reparse)
  .openapi(getOrderMessagesRoute, getOrderMessages);
