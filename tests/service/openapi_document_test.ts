/**
 * What every operation of GET /api/openapi.json carries, however its route was declared: the
 * rules a route added later is held to as well.
 */
import assert from "node:assert/strict";
import { EVENT_TYPES } from "../../src/domain/events/types.ts";
import { OPERATION_ID_OVERRIDES } from "../../src/http/operation_ids.ts";
import { call, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- the OpenAPI document
type Json = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

async function documentOf(env: Record<string, string> = {}): Promise<Json> {
  await using ctx = await testApp(env);
  const res = await call<Json>(ctx, "GET", "/api/openapi.json");
  assert.equal(res.status, 200);
  return res.body;
}

/** Every operation: `[label, operation]`, paths and webhooks alike. */
function operations(doc: Json): [string, Json][] {
  const out: [string, Json][] = [];
  for (const [section, items] of [["", doc.paths], ["webhook ", doc.webhooks]] as const) {
    for (const [path, item] of Object.entries(items as Json)) {
      for (const method of METHODS) {
        if (item[method]) out.push([`${section}${method.toUpperCase()} ${path}`, item[method]]);
      }
    }
  }
  return out;
}

/** A JSON Schema as the document holds one: a reference or a schema keyword, never a zod object. */
function isJsonSchema(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const keys = Object.keys(schema);
  if (keys.includes("def") || keys.includes("_zod")) return false;
  return ["$ref", "type", "anyOf", "oneOf", "allOf", "enum", "const"].some((k) => k in schema);
}

Deno.test("every operation has a unique operationId, a summary, tags and security", async () => {
  const doc = await documentOf();
  const ops = operations(doc);
  assert.ok(ops.length > 40);
  const ids = new Map<string, string>();
  for (const [label, op] of ops) {
    assert.match(op.operationId ?? "", /^[a-z][A-Za-z0-9]*$/, `${label} operationId`);
    assert.equal(ids.get(op.operationId), undefined, `${label}: ${op.operationId} is taken`);
    ids.set(op.operationId, label);
    assert.ok(op.summary?.trim(), `${label} summary`);
    assert.ok(op.tags?.length, `${label} tags`);
    assert.ok(Array.isArray(op.security), `${label} security`);
    // Bearer-only operations answer 401 without a valid token.
    if (op.security.length === 1 && op.security[0].Bearer) {
      assert.ok(op.responses["401"], `${label} documents 401`);
    }
  }
  assert.equal(ids.get("listOrders"), "GET /api/orders");
  assert.equal(ids.get("createWebhookSubscription"), "POST /api/webhook-subscriptions");
  assert.equal(ids.get("onOrderCreated"), "webhook POST order.created");
  // An override names an operation that exists, so none is left behind by a renamed route.
  for (const [operation, id] of Object.entries(OPERATION_ID_OVERRIDES)) {
    assert.equal(ids.get(id), operation, `override ${operation}`);
  }
  assert.deepEqual(doc.paths["/api/auth/login"].post.security, []);
  assert.deepEqual(doc.paths["/api/orders"].get.security, [{ Bearer: [] }]);
  // Detection is not among the spec's public endpoints.
  assert.deepEqual(doc.paths["/api/carriers/detect"].get.security, [{ Bearer: [] }]);
});

Deno.test("every status of every operation has a JSON Schema", async () => {
  const doc = await documentOf();
  const responses = doc.components.responses;
  for (const [label, op] of operations(doc)) {
    const bodies = [op.requestBody, ...Object.values(op.responses as Json)];
    for (const [status, response] of Object.entries(op.responses as Json)) {
      if (label.startsWith("webhook")) continue; // the receiver's answers: its body is not read
      const resolved = response.$ref
        ? responses[response.$ref.replace("#/components/responses/", "")]
        : response;
      assert.ok(resolved?.content, `${label} ${status} has content`);
      if (Number(status) >= 400) {
        assert.ok(resolved.content["application/json"], `${label} ${status} is JSON`);
      }
    }
    for (const body of bodies.filter((b) => b?.content)) {
      for (const [type, media] of Object.entries(body.content as Json)) {
        assert.ok(isJsonSchema(media.schema), `${label} ${type}: ${JSON.stringify(media.schema)}`);
      }
    }
    if (["post", "patch", "delete"].some((m) => label.startsWith(m.toUpperCase()))) {
      assert.ok(op.responses["413"], `${label} documents the body limit`);
    }
    if (!label.startsWith("webhook")) assert.ok(op.responses["500"], `${label} documents 500`);
  }
  assert.deepEqual(doc.components.responses.TooLarge.content["application/json"].schema, {
    $ref: "#/components/schemas/Error",
  });
});

Deno.test("servers is BASE_URL; info names the contact and the license", async () => {
  const doc = await documentOf({ BASE_URL: "https://orders.example.org/" });
  assert.deepEqual(doc.servers.map((s: Json) => s.url), ["https://orders.example.org"]);
  assert.equal(doc.info.contact.url, "https://orders.example.org");
  assert.deepEqual(doc.info.license, { name: "MIT License", identifier: "MIT" });
});

Deno.test("webhooks describe every event type: envelope, data and delivery headers", async () => {
  const doc = await documentOf();
  assert.deepEqual(Object.keys(doc.webhooks), [...EVENT_TYPES]);
  const schemas = doc.components.schemas;
  for (const type of EVENT_TYPES) {
    const op = doc.webhooks[type].post;
    const headers = Object.fromEntries(
      op.parameters.filter((p: Json) => p.in === "header").map((p: Json) => [p.name, p]),
    );
    assert.deepEqual(Object.keys(headers).sort(), [
      "User-Agent",
      "X-Service-Delivery",
      "X-Service-Event",
      "X-Service-Event-Id",
      "X-Service-Signature",
      "X-Service-Test",
    ]);
    assert.deepEqual(headers["X-Service-Event"].schema.enum, [type]);
    assert.equal(headers["X-Service-Signature"].required, true);
    assert.equal(headers["X-Service-Delivery"].required, false);
    const name = type.split(/[._]/).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
    assert.deepEqual(op.requestBody.content["application/json"].schema.anyOf, [
      { $ref: `#/components/schemas/${name}Event` },
      { $ref: "#/components/schemas/TestEvent" },
    ]);
    const envelope = schemas[`${name}Event`];
    assert.deepEqual(envelope.required, ["id", "type", "createdAt", "userId", "data"]);
    assert.deepEqual(envelope.properties.type.enum, [type]);
  }
  assert.deepEqual(schemas.OrderCreatedEvent.properties.data, {
    $ref: "#/components/schemas/OrderEventData",
  });
  assert.deepEqual(schemas.OrderEventData.required, ["order", "source"]);
  assert.deepEqual(schemas.OrderUpdatedData.required, ["order", "source", "patch"]);
  assert.deepEqual(schemas.OrderPatch.properties.salePriceCents.type, ["integer", "null"]);
  assert.deepEqual(schemas.TrackingUpdatedData.required, [
    "order",
    "carrier",
    "delivered",
    "eventCount",
  ]);
  assert.deepEqual(schemas.TestEvent.properties.data, {
    $ref: "#/components/schemas/TestEventData",
  });
});
