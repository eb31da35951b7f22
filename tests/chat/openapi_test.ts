import { deepStrictEqual as eq, ok } from "node:assert/strict";
import { call, testApp } from "../helpers.ts";

/** Every chat endpoint with the statuses it documents (413 with a body, and 500, on every one). */
const DOCUMENTED: [string, string, string[]][] = [
  ["get", "/api/bots", ["200", "401", "500"]],
  ["post", "/api/bots", ["201", "400", "401", "413", "500"]],
  ["get", "/api/bots/{id}", ["200", "401", "404", "500"]],
  ["patch", "/api/bots/{id}", ["200", "400", "401", "404", "413", "500"]],
  ["delete", "/api/bots/{id}", ["200", "401", "404", "413", "500"]],
  ["post", "/api/bots/{id}/rotate", ["200", "401", "404", "413", "500"]],
  ["get", "/api/bots/{id}/logs", ["200", "401", "404", "500"]],
  ["post", "/api/webhooks/chat/{handle}/{slug}", ["202", "400", "401", "413", "429", "500"]],
  ["get", "/api/chat/install", ["200", "401", "500", "503"]],
  ["patch", "/api/chat/settings", ["200", "400", "401", "413", "500"]],
  ["post", "/api/chat/digest", ["200", "401", "409", "413", "500", "502"]],
  ["get", "/api/embed-copier/config", ["200", "401", "500"]],
  ["post", "/api/embed-copier/rotate", ["200", "401", "413", "500"]],
  ["post", "/api/embed-copier/submit/{token}", ["202", "400", "401", "413", "429", "500"]],
  ["get", "/api/embed-copier/userscript.js", ["200", "500"]],
  ["get", "/api/embed-samples", ["200", "401", "500"]],
  ["delete", "/api/embed-samples/{id}", ["200", "401", "404", "413", "500"]],
];

interface Operation {
  responses: Record<string, unknown>;
  security?: unknown;
  requestBody?: { content: Record<string, unknown> };
}

Deno.test("openapi: every chat endpoint with its statuses; intake URLs are public, the rest need a token", async () => {
  await using ctx = await testApp();
  const doc = (await call(ctx, "GET", "/api/openapi.json")).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  for (const [method, path, statuses] of DOCUMENTED) {
    const operation = doc.paths[path]?.[method];
    ok(operation, `${method} ${path}`);
    eq(Object.keys(operation.responses).sort(), statuses, `${method} ${path}`);
    const isPublic = path.startsWith("/api/webhooks/") || path.includes("/submit/") ||
      path.endsWith(".js");
    eq(operation.security, isPublic ? [] : [{ Bearer: [] }], `${method} ${path}`);
  }
  const intake = doc.paths["/api/webhooks/chat/{handle}/{slug}"].post;
  eq(Object.keys(intake.requestBody!.content).sort(), ["application/json", "multipart/form-data"]);
});
