import { deepStrictEqual as eq } from "node:assert/strict";
import { deriveOperationId, operationIdOf } from "../../src/http/operation_ids.ts";

const PATHS = [
  "/api/orders",
  "/api/orders/{id}",
  "/api/account/api-keys",
  "/api/account/api-keys/{id}",
  "/api/bots",
  "/api/bots/{id}",
  "/api/bots/{id}/logs",
  "/api/email-sources",
  "/api/email-sources/{id}",
  "/api/email-sources/{id}/sync",
  "/api/webhook-subscriptions/{id}/rotate-secret",
  "/api/addresses",
  "/api/addresses/{id}",
  "/api/categories",
  "/api/categories/{id}",
  "/api/auth/register",
  "/api/auth/me",
  "/api/billing/usage",
  "/api/settings",
];

Deno.test("operationIds are derived from the method and the path", () => {
  const cases: [string, string, string][] = [
    ["get", "/api/orders", "listOrders"],
    ["post", "/api/orders", "createOrder"],
    ["get", "/api/orders/{id}", "getOrder"],
    ["patch", "/api/orders/{id}", "updateOrder"],
    ["put", "/api/orders/{id}", "replaceOrder"],
    ["delete", "/api/orders/{id}", "deleteOrder"],
    ["get", "/api/account/api-keys", "listApiKeys"],
    ["post", "/api/account/api-keys", "createApiKey"],
    ["delete", "/api/account/api-keys/{id}", "deleteApiKey"],
    ["get", "/api/bots/{id}/logs", "getBotLogs"],
    ["post", "/api/email-sources/{id}/sync", "syncEmailSource"],
    ["post", "/api/webhook-subscriptions/{id}/rotate-secret", "rotateWebhookSubscriptionSecret"],
    ["post", "/api/addresses", "createAddress"],
    ["get", "/api/categories/{id}", "getCategory"],
    ["post", "/api/auth/register", "register"],
    ["get", "/api/auth/me", "getMe"],
    ["get", "/api/billing/usage", "getUsage"],
    ["patch", "/api/settings", "updateSettings"],
    ["delete", "/api/orders", "deleteOrders"],
  ];
  eq(cases.map(([method, path]) => deriveOperationId(method, path, PATHS)), cases.map((c) => c[2]));
});

Deno.test("an override wins over the derived name", () => {
  eq(deriveOperationId("post", "/api/account/username", PATHS), "username");
  eq(operationIdOf("post", "/api/account/username", PATHS), "setUsername");
  eq(operationIdOf("get", "/api/openapi.json", PATHS), "getOpenApiDocument");
});
