import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { isOrderStatus, type OrderPatch } from "../../domain/orders/order.ts";
import { normaliseQuery } from "../../domain/orders/search_terms.ts";
import { planLimitMessage } from "../../domain/billing/plan.ts";
import { currentUser } from "../../http/auth.ts";
import type { AppEnv } from "../../http/env.ts";
import { ApiError, badRequest, notFound, unauthorized } from "../../http/errors.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { envelope, parsePaging } from "../../http/paging.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { learnAfterEdit } from "../../intake/learn.ts";
import { receiveOptions } from "../../intake/receive.ts";
import { dayRange, safeTimeZone } from "../../lib/timezone.ts";
import { planLimitResponse } from "../../schemas/billing/plan.ts";
import {
  CreateOrderBody,
  ListOrdersQuery,
  OrderEnvelope,
  OrderPageSchema,
  OrderResultSchema,
  PatchOrderBody,
} from "../../schemas/orders/orders.ts";
import * as orderList from "../../store/orders/list.ts";
import * as orderStore from "../../store/orders/orders.ts";

const ORDER_NOT_FOUND = "Order not found";
const OrderIdParam = resourceParam("id", ORDER_NOT_FOUND, { example: "ord_01jq4w5v2x" });
const tags = ["Orders"];

const createOrderRoute = createRoute({
  ...authed,
  method: "post",
  path: "/",
  tags,
  summary: "Create an order, or merge into the one with the same order number",
  description:
    "Creates an order (201, `merged: false`, fires `order.created`). When `orderNumber` " +
    "matches an order of the workspace (ignoring surrounding spaces, case and a leading `#`) " +
    "the fields are merged into it instead (200, `merged: true`, fires `order.merged`, then " +
    "`order.shipped` / `order.delivered` when the status moved). Merging fills fields the " +
    "order lacks, refreshes tracking number, carrier and delivery dates, never overwrites a " +
    "field listed in `userEdited`, and never moves an order backwards. Without a status, a " +
    "new order with a tracking number starts as `shipped`. With billing enabled, a free " +
    "account's new orders per calendar month are capped (429); merges are never blocked.",
  request: { body: jsonBody(CreateOrderBody) },
  responses: {
    201: jsonResponse(OrderResultSchema, "Created"),
    200: jsonResponse(OrderResultSchema, "Merged into the order with this number"),
    ...errors(400, 401, 413),
    429: planLimitResponse,
  },
});

const listOrdersRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags,
  summary: "List orders, newest received first",
  description: "Paginated. Filters combine; `total` counts every match before paging. " +
    "`from`/`to` are calendar dates in the account's timezone, both inclusive.",
  request: { query: ListOrdersQuery },
  responses: {
    200: jsonResponse(OrderPageSchema, "A page of orders"),
    ...errors(400, 401),
  },
});

const getOrderRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}",
  tags,
  summary: "One order",
  request: { params: OrderIdParam },
  responses: {
    200: jsonResponse(OrderEnvelope, "The order"),
    ...errors(401, 404),
  },
});

const updateOrderRoute = createRoute({
  ...authed,
  method: "patch",
  path: "/{id}",
  tags,
  summary: "Edit an order",
  description:
    "Sets the fields sent (at least one) and records each in `userEdited`, so later messages " +
    "never overwrite them. `salePriceCents: null` clears the sale price. A tracking number " +
    "sent for an order still `ordered` moves it to `shipped` (unless `status` is sent too). " +
    "Fires `order.updated` with `data.patch` (the fields applied, `status` when the tracking " +
    "number moved the order, and the new `userEdited`), then `order.shipped` / " +
    "`order.delivered` when the status moved there. A new `orderNumber` must not belong to " +
    "another order (409). After the edit is committed, a changed intake field of an email " +
    "order whose newest message shows the new value teaches the reader: the sender's learned " +
    "template (see Templates) reads it from that sender's next mails; the answer is unchanged.",
  request: { params: OrderIdParam, body: jsonBody(PatchOrderBody) },
  responses: {
    200: jsonResponse(OrderEnvelope, "The order after the edit"),
    ...errors(400, 401, 404, 409, 413),
  },
});

const deleteOrderRoute = createRoute({
  ...authed,
  method: "delete",
  path: "/{id}",
  tags,
  summary: "Delete an order",
  description: "Fires no event. The plan's monthly count of new orders is not given back.",
  request: { params: OrderIdParam },
  responses: {
    200: jsonResponse(OkSchema, "Deleted"),
    ...errors(401, 404, 413),
  },
});

/** The answer when the seam stored nothing: the plan cap's 429, or the gone account's 401. */
function notCreated(result: orderStore.NotStored): ApiError {
  if (result.reason === "plan_limit") {
    return new ApiError(429, planLimitMessage(result.limit.cap), { ...result.limit });
  }
  return unauthorized();
}

/** The `from`/`to` calendar dates in the account's timezone. */
async function receivedRange(
  c: Context<AppEnv>,
  from: string | undefined,
  to: string | undefined,
): Promise<Pick<orderList.OrderQuery, "fromMs" | "toMs">> {
  if (!from && !to) return {};
  const user = await currentUser(c);
  return dayRange(from, to, safeTimeZone(user.timezone));
}

export const createOrder: AppRouteHandler<typeof createOrderRoute> = async (c) => {
  const { deps, auth } = c.var;
  const result = await orderStore.ingestOrder(
    deps.kv,
    { userId: auth.userId, source: "manual", fields: c.req.valid("json") },
    receiveOptions(deps),
  );
  if (!result.ok) throw notCreated(result);
  const body = { order: result.order, merged: result.merged };
  return result.merged ? c.json(body, 200) : c.json(body, 201);
};

export const listOrders: AppRouteHandler<typeof listOrdersRoute> = async (c) => {
  const { deps, auth } = c.var;
  const query = c.req.valid("query");
  const paging = parsePaging(query);
  const range = await receivedRange(c, query.from, query.to);
  const { items, total } = await orderList.listOrders(deps.kv, auth.userId, {
    status: isOrderStatus(query.status) ? query.status : undefined,
    q: normaliseQuery(query.q),
    ...range,
  }, paging);
  return c.json(envelope(items, total, paging), 200);
};

export const getOrder: AppRouteHandler<typeof getOrderRoute> = async (c) => {
  const { deps, auth } = c.var;
  const order = found(
    await orderStore.getOrder(deps.kv, auth.userId, c.req.valid("param").id),
    ORDER_NOT_FOUND,
  );
  return c.json({ order }, 200);
};

export const updateOrder: AppRouteHandler<typeof updateOrderRoute> = async (c) => {
  const { deps, auth } = c.var;
  const patch: OrderPatch = c.req.valid("json");
  if (Object.values(patch).every((v) => v === undefined)) {
    throw badRequest("Send at least one editable field");
  }
  const result = await orderStore.updateOrder(
    deps.kv,
    auth.userId,
    c.req.valid("param").id,
    patch,
    { now: deps.now(), events: deps.events.bus },
  );
  if (!result.ok && result.reason === "not_found") throw notFound(ORDER_NOT_FOUND);
  if (!result.ok) throw new ApiError(409, "Another order already has this order number");
  // Committed: the correction may teach the reader (in the background, never failing this).
  learnAfterEdit(deps, auth.userId, result.order.id, patch);
  return c.json({ order: result.order }, 200);
};

export const deleteOrder: AppRouteHandler<typeof deleteOrderRoute> = async (c) => {
  const { deps, auth } = c.var;
  found(
    await orderStore.deleteOrder(deps.kv, auth.userId, c.req.valid("param").id),
    ORDER_NOT_FOUND,
  );
  return c.json({ ok: true as const }, 200);
};

export const orderRoutes = createRouter()
  .openapi(createOrderRoute, createOrder)
  .openapi(listOrdersRoute, listOrders)
  .openapi(getOrderRoute, getOrder)
  .openapi(updateOrderRoute, updateOrder)
  .openapi(deleteOrderRoute, deleteOrder);
