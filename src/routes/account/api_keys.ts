import { createRoute, z } from "@hono/zod-openapi";
import { API_KEY_LIMIT } from "../../domain/account/api_key.ts";
import { ApiError } from "../../http/errors.ts";
import { found, resourceParam } from "../../http/scope.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { ApiKeyNameField, ApiKeyRecordSchema } from "../../schemas/account/account.ts";
import * as apiKeyStore from "../../store/account/api_keys.ts";

const NOT_FOUND = "API key not found";

const CreatedSchema = z.object({
  key: z.string().openapi({
    description: "The raw key (`sk_` + 43 characters): shown this once, only its hash is kept",
  }),
  record: ApiKeyRecordSchema,
}).openapi("ApiKeyCreated");

const createApiKeyRoute = createRoute({
  method: "post",
  path: "/",
  tags: ["API keys"],
  summary: "Create an API key",
  description: `At most ${API_KEY_LIMIT} keys per account; the next one gets 429. An API key ` +
    "can create further keys. Rotate by creating a new key, deploying it, then revoking the old.",
  ...authed,
  request: { body: jsonBody(z.object({ name: ApiKeyNameField }).openapi("CreateApiKeyRequest")) },
  responses: {
    201: jsonResponse(CreatedSchema, "The key (once) and its record"),
    ...errors(400, 401, 413, 429),
  },
});

const listApiKeysRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["API keys"],
  summary: "List API keys",
  description: "Newest first; never the keys themselves or their hashes.",
  ...authed,
  responses: {
    200: jsonResponse(z.object({ items: z.array(ApiKeyRecordSchema) }), "The account's keys"),
    ...errors(401),
  },
});

const deleteApiKeyRoute = createRoute({
  method: "delete",
  path: "/{id}",
  tags: ["API keys"],
  summary: "Revoke an API key",
  description: "The next request with the key gets 401.",
  ...authed,
  request: {
    params: resourceParam("id", NOT_FOUND, { example: "key_01j9zq0000abcdefghjkmnpq" }),
  },
  responses: {
    200: jsonResponse(OkSchema, "Revoked"),
    ...errors(401, 404, 413),
  },
});

export const createApiKey: AppRouteHandler<typeof createApiKeyRoute> = async (c) => {
  const { kv, now } = c.var.deps;
  const created = await apiKeyStore.createApiKey(
    kv,
    c.var.auth.userId,
    c.req.valid("json").name,
    now(),
  );
  if (!created.ok) {
    throw new ApiError(429, `API key limit reached (${created.limit} per account)`);
  }
  return c.json({ key: created.key, record: created.record }, 201);
};

export const listApiKeys: AppRouteHandler<typeof listApiKeysRoute> = async (c) => {
  const { kv, apiKeyUse } = c.var.deps;
  return c.json({ items: await apiKeyStore.listApiKeys(kv, c.var.auth.userId, apiKeyUse) }, 200);
};

export const deleteApiKey: AppRouteHandler<typeof deleteApiKeyRoute> = async (c) => {
  found(
    await apiKeyStore.revokeApiKey(c.var.deps.kv, c.var.auth.userId, c.req.valid("param").id),
    NOT_FOUND,
  );
  return c.json({ ok: true as const }, 200);
};

export const apiKeyRoutes = createRouter()
  .openapi(createApiKeyRoute, createApiKey)
  .openapi(listApiKeysRoute, listApiKeys)
  .openapi(deleteApiKeyRoute, deleteApiKey);
