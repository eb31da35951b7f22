/**
 * A client generated from the document (openapi-typescript types, openapi-fetch) drives a real
 * server through a whole workflow, and what reaches a webhook receiver is checked against the
 * schemas that describe it. If the document drifts from the server, this fails to type-check
 * (types_test.ts keeps openapi.d.ts current) or fails here at run time.
 */
import assert from "node:assert/strict";
import createClient from "openapi-fetch";
import type { z } from "@hono/zod-openapi";
import { DeliveryHeadersSchema } from "../../src/webhooks/headers.ts";
import { EVENT_DATA, eventSchema, TestEventSchema } from "../../src/schemas/webhooks/events.ts";
import { startReceiver } from "../net/receiver.ts";
import { serve } from "../serve.ts";
import { eventually, expectedSignature, webhookApp } from "../webhooks/helpers.ts";
import type { paths, webhooks } from "../../src/web/generated/openapi.d.ts";

/** The body a receiver of `T` gets, as the generated types say. */
type Delivery<T extends keyof webhooks> =
  webhooks[T]["post"]["requestBody"]["content"]["application/json"];

/** Parses a delivery with its schema; anything the schema does not know fails the comparison. */
function parsed<S extends z.ZodType>(schema: S, body: string): z.infer<S> {
  const raw = JSON.parse(body);
  const value = schema.parse(raw);
  assert.deepEqual(value, raw);
  return value;
}

Deno.test("a generated client registers, keys, creates, merges and lists orders, subscribes and tests", async () => {
  await using receiver = startReceiver({ reply: () => new Response(null, { status: 204 }) });
  await using ctx = await webhookApp();
  await using server = serve(ctx.app);
  const client = (token?: string) =>
    createClient<paths>({
      baseUrl: server.url,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });

  const registered = await client().POST("/api/auth/register", {
    body: { email: "dev@example.com", password: "correct horse battery", username: "dev" },
  });
  assert.equal(registered.response.status, 201);
  assert.equal(registered.data?.user.username, "dev");
  const session = client(registered.data!.token);

  const key = await session.POST("/api/account/api-keys", { body: { name: "CI" } });
  assert.equal(key.response.status, 201);
  assert.match(key.data!.key, /^sk_/);
  const api = client(key.data!.key);

  const created = await api.POST("/api/orders", {
    body: { itemSummary: "Desk lamp", orderNumber: "#112-5550123", costCents: 2499 },
  });
  assert.equal(created.response.status, 201);
  assert.equal(created.data?.merged, false);
  const id = created.data!.order.id;
  const merged = await api.POST("/api/orders", {
    body: {
      itemSummary: "Desk lamp",
      orderNumber: "112-5550123",
      trackingNumber: "1Z999AA10123456784",
      carrier: "ups",
    },
  });
  assert.equal(merged.response.status, 200);
  assert.deepEqual([merged.data?.merged, merged.data?.order.id], [true, id]);
  assert.equal(merged.data?.order.status, "shipped");

  const list = await api.GET("/api/orders", {
    params: { query: { status: "shipped", q: "lamp", limit: "10" } },
  });
  assert.equal(list.response.status, 200);
  assert.deepEqual(list.data?.items.map((o) => o.id), [id]);
  assert.deepEqual([list.data?.total, list.data?.limit, list.data?.hasMore], [1, 10, false]);
  const missing = await api.GET("/api/orders/{id}", { params: { path: { id: "ord_missing" } } });
  assert.equal(missing.response.status, 404);
  assert.deepEqual(missing.error, { error: "Order not found" });

  const sub = await api.POST("/api/webhook-subscriptions", {
    body: { url: receiver.url("/hook"), eventTypes: ["order.created", "order.updated"] },
  });
  assert.equal(sub.response.status, 201);
  const { secret } = sub.data!;
  const tested = await api.POST("/api/webhook-subscriptions/{id}/test", {
    params: { path: { id: sub.data!.id } },
    body: { eventType: "order.updated" },
  });
  assert.deepEqual(tested.data, { ok: true, status: 204 });

  // Real events now: a new order, then an edit that clears the sale price.
  const second = await api.POST("/api/orders", { body: { itemSummary: "Cable" } });
  assert.equal(second.response.status, 201);
  const edited = await api.PATCH("/api/orders/{id}", {
    params: { path: { id: second.data!.order.id } },
    body: { salePriceCents: null },
  });
  assert.equal(edited.response.status, 200);

  const requests = await receiver.waitFor(3);
  const byType = (type: string, test: boolean) =>
    requests.find((r) =>
      r.headers.get("x-service-event") === type && (r.headers.has("x-service-test") === test)
    )!;
  for (const req of requests) {
    assert.equal(req.headers.get("x-service-signature"), expectedSignature(secret, req.body));
    const headers = Object.fromEntries(
      Object.keys(DeliveryHeadersSchema.shape).flatMap((name) => {
        const value = req.headers.get(name);
        return value === null ? [] : [[name, value]];
      }),
    );
    assert.deepEqual(DeliveryHeadersSchema.parse(headers), headers);
  }
  const test: Delivery<"order.updated"> = parsed(
    TestEventSchema,
    byType("order.updated", true).body,
  );
  assert.deepEqual([test.type, test.data], ["order.updated", { test: true }]);
  const createdEvent: Delivery<"order.created"> = parsed(
    eventSchema("order.created"),
    byType("order.created", false).body,
  );
  assert.deepEqual(createdEvent.data, { order: second.data!.order, source: "manual" });
  const updated: Delivery<"order.updated"> = parsed(
    eventSchema("order.updated"),
    byType("order.updated", false).body,
  );
  assert.ok("patch" in updated.data);
  assert.deepEqual(updated.data.patch, { salePriceCents: null, userEdited: ["salePriceCents"] });
  assert.deepEqual(EVENT_DATA["order.updated"].parse(updated.data), updated.data);

  const logs = await eventually(async () => {
    const res = await api.GET("/api/webhook-logs", { params: { query: { limit: "10" } } });
    return res.data?.logs.length === 3 && res.data.logs;
  });
  assert.deepEqual(logs.map((l) => [l.eventType, l.ok, l.test ?? false]).sort(), [
    ["order.created", true, false],
    ["order.updated", true, false],
    ["order.updated", true, true],
  ]);
  const removed = await api.DELETE("/api/webhook-subscriptions/{id}", {
    params: { path: { id: sub.data!.id } },
  });
  assert.deepEqual(removed.data, { ok: true });
  const gone = await api.GET("/api/webhook-subscriptions/{id}", {
    params: { path: { id: sub.data!.id } },
  });
  assert.equal(gone.response.status, 404);
});
