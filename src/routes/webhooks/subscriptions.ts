import { createRoute } from "@hono/zod-openapi";
import {
  applyChanges,
  MAX_SUBSCRIPTIONS,
  publicSubscription,
} from "../../domain/webhooks/subscription.ts";
import { sendTestEvent } from "../../webhooks/send.ts";
import type { AppDeps } from "../../deps.ts";
import { ApiError } from "../../http/errors.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { pageOf, pageSchema, PagingQuery, parsePaging } from "../../http/paging.ts";
import { checkedReceiverUrl } from "../../http/receiver_url.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import type { SecretBox } from "../../lib/secret_box.ts";
import {
  CreateSubscriptionBody,
  PatchSubscriptionBody,
  TestBody,
  TestResultSchema,
  WebhookSubscriptionSchema,
  WebhookSubscriptionWithSecretSchema,
} from "../../schemas/webhooks/subscriptions.ts";
import {
  changeSubscription,
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  rotateSecret,
} from "../../store/webhooks/subscriptions.ts";

const TAGS = ["Webhook subscriptions"];
const NOT_FOUND = "Webhook subscription not found";

const IdParam = resourceParam("id", NOT_FOUND, { example: "whsub_01j9z3k8q2" });

/** Secrets are stored encrypted; where no key can exist, creating or rotating one is 503. */
function secretBox(deps: AppDeps): SecretBox {
  if (deps.secrets) return deps.secrets;
  throw new ApiError(
    503,
    "Webhook secret encryption is not configured on this deployment (set SECRETS_KEY)",
  );
}

const listWebhookSubscriptionsRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "List webhook subscriptions, newest first",
  request: { query: PagingQuery },
  responses: {
    200: jsonResponse(
      pageSchema(WebhookSubscriptionSchema, "WebhookSubscriptionPage"),
      "A page of subscriptions (by `createdAt`, newest first)",
    ),
    ...errors(401),
  },
});

const getWebhookSubscriptionRoute = createRoute({
  ...authed,
  method: "get",
  path: "/{id}",
  tags: TAGS,
  summary: "One webhook subscription",
  request: { params: IdParam },
  responses: {
    200: jsonResponse(WebhookSubscriptionSchema, "The subscription (without its secret)"),
    ...errors(401, 404),
  },
});

const createWebhookSubscriptionRoute = createRoute({
  ...authed,
  method: "post",
  path: "/",
  tags: TAGS,
  summary: "Create a webhook subscription",
  description: `Returns the signing secret once. At most ${MAX_SUBSCRIPTIONS} per account ` +
    "(429 beyond). 503 when the deployment cannot encrypt secrets (a remote KV without " +
    "`SECRETS_KEY`).",
  request: { body: jsonBody(CreateSubscriptionBody) },
  responses: {
    201: jsonResponse(WebhookSubscriptionWithSecretSchema, "Created; `secret` shown only here"),
    ...errors(400, 401, 413, 429, 503),
  },
});

const updateWebhookSubscriptionRoute = createRoute({
  ...authed,
  method: "patch",
  path: "/{id}",
  tags: TAGS,
  summary: "Change a webhook subscription",
  description: "Changes only the fields sent, validated as on create. `active: true` also " +
    "resets `failureCount` to 0.",
  request: { params: IdParam, body: jsonBody(PatchSubscriptionBody) },
  responses: {
    200: jsonResponse(WebhookSubscriptionSchema, "The changed subscription"),
    ...errors(400, 401, 404, 413),
  },
});

const deleteWebhookSubscriptionRoute = createRoute({
  ...authed,
  method: "delete",
  path: "/{id}",
  tags: TAGS,
  summary: "Delete a webhook subscription",
  request: { params: IdParam },
  responses: { 200: jsonResponse(OkSchema, "Deleted"), ...errors(401, 404) },
});

const testWebhookSubscriptionRoute = createRoute({
  ...authed,
  method: "post",
  path: "/{id}/test",
  tags: TAGS,
  summary: "Send a test event now",
  description: "Sends a signed envelope with an `evt_test_` id, `data: {test: true}` and " +
    "`X-Service-Test: true` (no `X-Service-Delivery`), paused subscriptions included. The " +
    "result is 200 either way; a test never changes `failureCount`, `lastError` or " +
    "`lastFiredAt`, and is written to the webhook log.",
  request: { params: IdParam, body: jsonBody(TestBody) },
  responses: {
    200: jsonResponse(TestResultSchema, "`{ok: true, status}` or `{ok: false, status?, error}`"),
    ...errors(400, 401, 404, 413),
  },
});

const rotateWebhookSubscriptionSecretRoute = createRoute({
  ...authed,
  method: "post",
  path: "/{id}/rotate-secret",
  tags: TAGS,
  summary: "Issue a new signing secret",
  description: "The old secret stops working at once (no overlap). Also sets `active: true`, " +
    "`failureCount: 0`, clears `lastError` and `needsSecretRotation`.",
  request: { params: IdParam },
  responses: {
    200: jsonResponse(WebhookSubscriptionWithSecretSchema, "New `secret` shown only here"),
    ...errors(401, 404, 503),
  },
});

export const listWebhookSubscriptions: AppRouteHandler<typeof listWebhookSubscriptionsRoute> =
  async (c) => {
    const { kv } = c.var.deps;
    const subs = await listSubscriptions(kv, c.var.auth.userId);
    return c.json(pageOf(subs.map(publicSubscription), parsePaging(c.req.valid("query"))), 200);
  };

export const getWebhookSubscription: AppRouteHandler<typeof getWebhookSubscriptionRoute> = async (
  c,
) => {
  const sub = found(
    await getSubscription(c.var.deps.kv, c.var.auth.userId, c.req.valid("param").id),
    NOT_FOUND,
  );
  return c.json(publicSubscription(sub), 200);
};

export const createWebhookSubscription: AppRouteHandler<typeof createWebhookSubscriptionRoute> =
  async (c) => {
    const deps = c.var.deps;
    const body = c.req.valid("json");
    const box = secretBox(deps);
    const url = await checkedReceiverUrl(deps, "url", body.url);
    const result = await createSubscription(deps.kv, box, {
      userId: c.var.auth.userId,
      url,
      eventTypes: body.eventTypes,
      active: body.active ?? true,
    }, deps.now());
    if (!result.ok) {
      throw new ApiError(429, `Webhook subscription limit reached (${MAX_SUBSCRIPTIONS})`);
    }
    return c.json({ ...publicSubscription(result.sub), secret: result.secret }, 201);
  };

export const updateWebhookSubscription: AppRouteHandler<typeof updateWebhookSubscriptionRoute> =
  async (c) => {
    const deps = c.var.deps;
    const body = c.req.valid("json");
    const { id } = c.req.valid("param");
    const userId = c.var.auth.userId;
    found(await getSubscription(deps.kv, userId, id), NOT_FOUND);
    const url = body.url === undefined
      ? undefined
      : await checkedReceiverUrl(deps, "url", body.url);
    const sub = found(
      await changeSubscription(
        deps.kv,
        userId,
        id,
        (current) =>
          applyChanges(current, { url, eventTypes: body.eventTypes, active: body.active }),
      ),
      NOT_FOUND,
    );
    return c.json(publicSubscription(sub), 200);
  };

export const deleteWebhookSubscription: AppRouteHandler<typeof deleteWebhookSubscriptionRoute> =
  async (c) => {
    found(
      await deleteSubscription(c.var.deps.kv, c.var.auth.userId, c.req.valid("param").id),
      NOT_FOUND,
    );
    return c.json({ ok: true as const }, 200);
  };

export const testWebhookSubscription: AppRouteHandler<typeof testWebhookSubscriptionRoute> = async (
  c,
) => {
  const deps = c.var.deps;
  const { eventType } = c.req.valid("json");
  const sub = found(
    await getSubscription(deps.kv, c.var.auth.userId, c.req.valid("param").id),
    NOT_FOUND,
  );
  return c.json(await sendTestEvent(deps, sub, eventType ?? sub.eventTypes[0]), 200);
};

export const rotateWebhookSubscriptionSecret: AppRouteHandler<
  typeof rotateWebhookSubscriptionSecretRoute
> = async (c) => {
  const deps = c.var.deps;
  const userId = c.var.auth.userId;
  const { id } = c.req.valid("param");
  found(await getSubscription(deps.kv, userId, id), NOT_FOUND);
  const rotated = found(await rotateSecret(deps.kv, secretBox(deps), userId, id), NOT_FOUND);
  return c.json({ ...publicSubscription(rotated.sub), secret: rotated.secret }, 200);
};

export const webhookSubscriptionRoutes = createRouter()
  .openapi(listWebhookSubscriptionsRoute, listWebhookSubscriptions)
  .openapi(getWebhookSubscriptionRoute, getWebhookSubscription)
  .openapi(createWebhookSubscriptionRoute, createWebhookSubscription)
  .openapi(updateWebhookSubscriptionRoute, updateWebhookSubscription)
  .openapi(deleteWebhookSubscriptionRoute, deleteWebhookSubscription)
  .openapi(testWebhookSubscriptionRoute, testWebhookSubscription)
  .openapi(rotateWebhookSubscriptionSecretRoute, rotateWebhookSubscriptionSecret);
