import { deepStrictEqual as eq, equal, match } from "node:assert/strict";
import { listEvents } from "../../src/events/emit.ts";
import { keys } from "../../src/store/keys.ts";
import { readCounter } from "../../src/store/kv.ts";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;
const NOW = Date.parse("2025-03-10T12:00:00.000Z");
const clock = () => NOW;

Deno.test("POST /api/orders creates an order: 201 {order, merged: false}", async () => {
  await using ctx = await testApp({}, { now: clock });
  const { token, user } = await signUp(ctx);
  const res = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: {
      itemSummary: "  USB-C cable ",
      orderNumber: "#A-100",
      store: "Shop",
      carrier: "ups",
      total: "$12.99",
      price: "$10.00",
      costCents: 1299,
      salePriceCents: 2000,
      receivedAt: "2025-03-09T10:00:00+02:00",
      estimatedDelivery: "2025-03-15",
      unknownField: "ignored",
    },
  });
  equal(res.status, 201);
  equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  match(res.body.order.id, /^ord_/);
  eq(res.body, {
    merged: false,
    order: {
      id: res.body.order.id,
      status: "ordered",
      itemSummary: "USB-C cable",
      orderNumber: "#A-100",
      store: "Shop",
      carrier: "ups",
      total: "$12.99",
      price: "$10.00",
      costCents: 1299,
      salePriceCents: 2000,
      receivedAt: "2025-03-09T08:00:00.000Z",
      estimatedDelivery: "2025-03-15",
      userEdited: [],
      source: "manual",
      createdAt: "2025-03-10T12:00:00.000Z",
      updatedAt: "2025-03-10T12:00:00.000Z",
    },
  });
  const events = await listEvents(ctx.kv, user.id);
  eq(events.map((e) => [e.type, e.userId, e.createdAt]), [
    ["order.created", user.id, "2025-03-10T12:00:00.000Z"],
  ]);
  eq(events[0].data, { order: res.body.order, source: "manual" });
  match(events[0].id, /^evt_/);
  equal(await readCounter(ctx.kv, keys.orderCount(user.id)), 1);
  equal(await readCounter(ctx.kv, keys.stat("orders")), 1);
  equal(await readCounter(ctx.kv, keys.stat("value_cents")), 1299);
  equal(await readCounter(ctx.kv, keys.valueCents(user.id)), 1299);
});

Deno.test("receivedAt defaults to now; a tracking number makes a new order shipped", async () => {
  await using ctx = await testApp({}, { now: clock });
  const { token, user } = await signUp(ctx);
  const res = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Lamp", trackingNumber: "1Z999" },
  });
  equal(res.status, 201);
  equal(res.body.order.status, "shipped");
  equal(res.body.order.receivedAt, "2025-03-10T12:00:00.000Z");
  // A new order fires only order.created, whatever status it starts in.
  eq((await listEvents(ctx.kv, user.id)).map((e) => e.type), ["order.created"]);
});

Deno.test("POST /api/orders validates every field: 400 naming it, nothing stored", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  const cases: Array<[unknown, string]> = [
    [{}, "itemSummary is required"],
    [{ itemSummary: "" }, "itemSummary: must not be empty"],
    [{ itemSummary: "   " }, "itemSummary: must not be empty"],
    [{ itemSummary: 12 }, "itemSummary: Invalid input: expected string, received number"],
    [{ itemSummary: "x", receivedAt: "yesterday" }, "receivedAt: Invalid ISO datetime"],
    [{ itemSummary: "x", receivedAt: "2025-02-30T00:00:00Z" }, "receivedAt: Invalid ISO datetime"],
    [{ itemSummary: "x", costCents: -1 }, "costCents: Too small: expected number to be >=0"],
    [
      { itemSummary: "x", costCents: 1.5 },
      "costCents: Invalid input: expected int, received number",
    ],
    [
      { itemSummary: "x", salePriceCents: "100" },
      "salePriceCents: Invalid input: expected number, received string",
    ],
    [{ itemSummary: "x", estimatedDelivery: "2025-3-1" }, "estimatedDelivery: Invalid ISO date"],
    [{ itemSummary: "x", actualDelivery: "2025-02-29" }, "actualDelivery: Invalid ISO date"],
    [
      { itemSummary: "x", status: "lost" },
      'status: Invalid option: expected one of "ordered"|"shipped"|"delivered"|"canceled"|"issue"',
    ],
    [{ itemSummary: "x", orderNumber: " # " }, "orderNumber: must not be empty"],
    [{ itemSummary: "x", store: null }, "store: Invalid input: expected string, received null"],
  ];
  for (const [body, error] of cases) {
    const res = await call(ctx, "POST", "/api/orders", { token, body });
    equal(res.status, 400, JSON.stringify(body));
    eq(res.body, { error });
  }
  // A body that is not JSON is said to be so, never read as one with no fields.
  const raw = await call(ctx, "POST", "/api/orders", { token, rawBody: "itemSummary=x" });
  eq([raw.status, raw.body], [400, {
    error: `body is not valid JSON (Unexpected token 'i', "itemSummary=x" is not valid JSON)`,
  }]);
  const comma = await call(ctx, "POST", "/api/orders", {
    token,
    rawBody: '{"itemSummary":"Desk lamp",}',
  });
  eq(comma.status, 400);
  match(String(comma.body.error), /^body is not valid JSON \(/);
  equal(await readCounter(ctx.kv, keys.orderCount(user.id)), 0);
  eq(await listEvents(ctx.kv, user.id), []);
});

Deno.test("orders need a token", async () => {
  await using ctx = await testApp();
  for (
    const [method, path] of [
      ["POST", "/api/orders"],
      ["GET", "/api/orders"],
      ["GET", "/api/orders/ord_x"],
      ["PATCH", "/api/orders/ord_x"],
      ["DELETE", "/api/orders/ord_x"],
      ["GET", "/api/billing/usage"],
    ]
  ) {
    const body = method === "GET" ? undefined : { itemSummary: "x" };
    const res = await call(ctx, method, path, { body });
    eq([res.status, res.body], [401, { error: "Unauthorized" }], `${method} ${path}`);
  }
});

Deno.test("a matching order number merges: 200 {order, merged: true}", async () => {
  let now = NOW;
  await using ctx = await testApp({}, { now: () => now });
  const { token, user } = await signUp(ctx);
  const created = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Desk", orderNumber: "#AB-7", store: "Shop" },
  });
  now += 1000;
  // Trimmed, case-insensitive, leading # ignored.
  const merged = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: {
      itemSummary: "Another summary",
      orderNumber: "  ab-7",
      store: "Other shop",
      price: "$99",
      estimatedDelivery: "2025-03-20",
    },
  });
  equal(merged.status, 200);
  eq(merged.body, {
    merged: true,
    order: {
      ...created.body.order,
      price: "$99",
      estimatedDelivery: "2025-03-20",
      updatedAt: new Date(now).toISOString(),
    },
  });
  const events = await listEvents(ctx.kv, user.id);
  eq(events.map((e) => e.type), ["order.created", "order.merged"]);
  eq(events[1].data, { order: merged.body.order, source: "manual" });
  equal(await readCounter(ctx.kv, keys.orderCount(user.id)), 1);

  // Without an order number each call creates a new order.
  for (let i = 0; i < 2; i++) {
    const res = await call<Body>(ctx, "POST", "/api/orders", {
      token,
      body: { itemSummary: "Desk" },
    });
    equal(res.status, 201);
  }
  equal(await readCounter(ctx.kv, keys.orderCount(user.id)), 3);
});

Deno.test("one message can fire merged then shipped; repeats fire nothing new", async () => {
  await using ctx = await testApp({}, { now: clock });
  const { token, user } = await signUp(ctx);
  const post = (body: Body) => call<Body>(ctx, "POST", "/api/orders", { token, body });
  await post({ itemSummary: "Chair", orderNumber: "C-1" });
  const shipped = await post({ itemSummary: "Chair", orderNumber: "C-1", trackingNumber: "1ZABC" });
  equal(shipped.body.order.status, "shipped");
  const again = await post({ itemSummary: "Chair", orderNumber: "C-1", trackingNumber: "1ZABC" });
  equal(again.status, 200);
  eq(again.body.order, shipped.body.order);
  const delivered = await post({ itemSummary: "Chair", orderNumber: "C-1", status: "delivered" });
  equal(delivered.body.order.status, "delivered");
  const late = await post({ itemSummary: "Chair", orderNumber: "C-1", status: "shipped" });
  equal(late.body.order.status, "delivered");

  const events = await listEvents(ctx.kv, user.id);
  eq(events.map((e) => e.type), [
    "order.created",
    "order.merged",
    "order.shipped",
    "order.merged",
    "order.merged",
    "order.delivered",
    "order.merged",
  ]);
  // Both events of one message carry the order after the change.
  eq(events[1].data, { order: shipped.body.order, source: "manual" });
  eq(events[2].data, { order: shipped.body.order, source: "manual" });
  eq(events[5].data, { order: delivered.body.order, source: "manual" });
});

Deno.test("50 parallel creates with one order number: one order, one created, 49 merged", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      call<Body>(ctx, "POST", "/api/orders", {
        token,
        body: { itemSummary: `Item ${i}`, orderNumber: i % 2 ? "#SAME-1" : "same-1" },
      })),
  );
  eq(results.filter((r) => r.status === 201).length, 1);
  eq(results.filter((r) => r.status === 200 && r.body.merged === true).length, 49);
  eq(new Set(results.map((r) => r.body.order.id)).size, 1);
  const events = await listEvents(ctx.kv, user.id);
  equal(events.filter((e) => e.type === "order.created").length, 1);
  equal(events.filter((e) => e.type === "order.merged").length, 49);
  equal(events.length, 50);
  equal(await readCounter(ctx.kv, keys.orderCount(user.id)), 1);
  const list = await call<Body>(ctx, "GET", "/api/orders", { token });
  equal(list.body.total, 1);
});

Deno.test("order numbers are per workspace", async () => {
  await using ctx = await testApp();
  const a = await signUp(ctx);
  const b = await signUp(ctx);
  const first = await call<Body>(ctx, "POST", "/api/orders", {
    token: a.token,
    body: { itemSummary: "x", orderNumber: "N-1" },
  });
  const second = await call<Body>(ctx, "POST", "/api/orders", {
    token: b.token,
    body: { itemSummary: "y", orderNumber: "N-1" },
  });
  eq([first.status, second.status], [201, 201]);
  eq((await listEvents(ctx.kv, b.user.id)).map((e) => e.type), ["order.created"]);
});

Deno.test("intake's order fields: accepted on create, filled by merges, sourceId ignored", async () => {
  await using ctx = await testApp({}, { now: clock });
  const { token } = await signUp(ctx);
  const created = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: {
      itemSummary: "Runner 2",
      orderNumber: "N-1",
      size: "US 10",
      quantity: 2,
      sourceId: "bot_forged",
    },
  });
  equal(created.status, 201);
  equal(created.body.order.size, "US 10");
  equal(created.body.order.quantity, 2);
  equal(created.body.order.sourceId, undefined);
  const merged = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: {
      itemSummary: "Runner 2",
      orderNumber: "n-1",
      size: "US 11",
      imageUrl: "https://cdn.shop.example/runner.jpg",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    },
  });
  equal(merged.status, 200);
  // Size is fill-only (already set); the image fills in; the tracking page refreshes.
  equal(merged.body.order.size, "US 10");
  equal(merged.body.order.imageUrl, "https://cdn.shop.example/runner.jpg");
  equal(merged.body.order.trackingUrl, "https://www.ups.com/track?tracknum=1Z999AA10123456784");
  for (const [field, value] of [["quantity", 0], ["imageUrl", "javascript:alert(1)"]] as const) {
    const bad = await call<Body>(ctx, "POST", "/api/orders", {
      token,
      body: { itemSummary: "x", [field]: value },
    });
    equal(bad.status, 400);
    match(bad.body.error, new RegExp(`^${field}: `));
  }
});
