import { createRoute } from "@hono/zod-openapi";
import { RECURRING_COSTS_MAX, type RecurringCost } from "../../domain/insights/recurring_costs.ts";
import { currentUser } from "../../http/auth.ts";
import { ApiError, unauthorized } from "../../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { pageOf, PagingQuery, parsePaging } from "../../http/paging.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { newId } from "../../lib/ids.ts";
import { localDate, safeTimeZone } from "../../lib/timezone.ts";
import {
  CreateRecurringCostBody,
  PatchRecurringCostBody,
  RecurringCostEnvelope,
  RecurringCostPage,
} from "../../schemas/insights/insights.ts";
import { changeItem, createItem, deleteItem, getItem } from "../../store/insights/collection.ts";
import { listRecurringCosts, RECURRING_COSTS } from "../../store/insights/recurring_costs.ts";

const TAGS = ["Recurring costs"];
const NOT_FOUND = "Recurring cost not found";
const IdParam = resourceParam("id", NOT_FOUND, { example: "sub_01jq4w5v2x8c9d0e1f2g3h4j5k" });

const listSubscriptionsRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "List recurring costs",
  description: "Paging envelope, oldest first (the spec guarantees no order).",
  request: { query: PagingQuery },
  responses: { 200: jsonResponse(RecurringCostPage, "A page of costs"), ...errors(401) },
});

const getSubscriptionRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}",
  tags: TAGS,
  summary: "One recurring cost",
  request: { params: IdParam },
  responses: { 200: jsonResponse(RecurringCostEnvelope, "The cost"), ...errors(401, 404) },
});

const createSubscriptionRoute = createRoute({
  ...authed,
  method: "post",
  path: "/",
  tags: TAGS,
  summary: "Add a recurring cost",
  description: "A cost the reseller pays on a schedule (software, storage, fees), counted by " +
    `profitability once per due date. At most ${RECURRING_COSTS_MAX} per account (429).`,
  request: { body: jsonBody(CreateRecurringCostBody) },
  responses: {
    201: jsonResponse(RecurringCostEnvelope, "Created"),
    ...errors(400, 401, 413, 429),
  },
});

const updateSubscriptionRoute = createRoute({
  ...authed,
  method: "patch",
  path: "/{id}",
  tags: TAGS,
  summary: "Change a recurring cost",
  description: "Only the fields sent, validated as on create.",
  request: { params: IdParam, body: jsonBody(PatchRecurringCostBody) },
  responses: {
    200: jsonResponse(RecurringCostEnvelope, "The changed cost"),
    ...errors(400, 401, 404, 413),
  },
});

const deleteSubscriptionRoute = createRoute({
  ...authed,
  method: "delete",
  path: "/{id}",
  tags: TAGS,
  summary: "Delete a recurring cost",
  request: { params: IdParam },
  responses: { 200: jsonResponse(OkSchema, "Deleted"), ...errors(401, 404) },
});

export const listSubscriptions: AppRouteHandler<typeof listSubscriptionsRoute> = async (c) => {
  const all = await listRecurringCosts(c.var.deps.kv, c.var.auth.userId);
  return c.json(pageOf(all, parsePaging(c.req.valid("query"))), 200);
};

export const getSubscription: AppRouteHandler<typeof getSubscriptionRoute> = async (c) => {
  const { kv } = c.var.deps;
  const cost = await getItem(kv, RECURRING_COSTS, c.var.auth.userId, c.req.valid("param").id);
  return c.json({ subscription: found(cost, NOT_FOUND) }, 200);
};

export const createSubscription: AppRouteHandler<typeof createSubscriptionRoute> = async (c) => {
  const { kv, now } = c.var.deps;
  const body = c.req.valid("json");
  const user = await currentUser(c);
  const at = now();
  const stamp = new Date(at).toISOString();
  const cost: RecurringCost = {
    id: newId("sub", at),
    name: body.name,
    costCents: body.costCents,
    frequency: body.frequency,
    startDate: body.startDate ?? localDate(at, safeTimeZone(user.timezone)),
    active: body.active ?? true,
    createdAt: stamp,
    updatedAt: stamp,
  };
  const outcome = await createItem(kv, RECURRING_COSTS, user.id, cost.id, cost);
  if (outcome === "account_gone") throw unauthorized();
  if (outcome === "limit") {
    throw new ApiError(429, `Recurring cost limit reached (${RECURRING_COSTS_MAX} per account)`);
  }
  return c.json({ subscription: cost }, 201);
};

export const updateSubscription: AppRouteHandler<typeof updateSubscriptionRoute> = async (c) => {
  const { kv, now } = c.var.deps;
  const body = c.req.valid("json");
  const updatedAt = new Date(now()).toISOString();
  const changed = await changeItem(
    kv,
    RECURRING_COSTS,
    c.var.auth.userId,
    c.req.valid("param").id,
    (cost) => ({ ...cost, ...body, updatedAt }),
  );
  return c.json({ subscription: found(changed, NOT_FOUND) }, 200);
};

export const deleteSubscription: AppRouteHandler<typeof deleteSubscriptionRoute> = async (c) => {
  const { kv } = c.var.deps;
  found(
    await deleteItem(kv, RECURRING_COSTS, c.var.auth.userId, c.req.valid("param").id),
    NOT_FOUND,
  );
  return c.json({ ok: true as const }, 200);
};

export const recurringCostRoutes = createRouter()
  .openapi(listSubscriptionsRoute, listSubscriptions)
  .openapi(getSubscriptionRoute, getSubscription)
  .openapi(createSubscriptionRoute, createSubscription)
  .openapi(updateSubscriptionRoute, updateSubscription)
  .openapi(deleteSubscriptionRoute, deleteSubscription);
