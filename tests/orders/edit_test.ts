import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { listEvents } from "../../src/events/emit.ts";
import { keys } from "../../src/store/keys.ts";
import { readCounter } from "../../src/store/kv.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;
const NOW = Date.parse("2025-03-10T12:00:00.000Z");

async function setup(now = () => NOW) {
  const ctx = await testApp({}, { now });
  const { token, user } = await signUp(ctx);
  const create = async (body: Body) =>
    (await call<Body>(ctx, "POST", "/api/orders", { token, body })).body.order;
  return { ctx, token, user, create };
}

const patch = (ctx: TestContext, token: string, id: string, body: unknown) =>
  call<Body>(ctx, "PATCH", `/api/orders/${id}`, { token, body });

Deno.test("GET /api/orders/:id returns {order}; unknown and foreign ids are 404", async () => {
  const { ctx, token, create } = await setup();
  await using _ = ctx;
  const order = await create({ itemSummary: "Lamp" });
  const res = await call(ctx, "GET", `/api/orders/${order.id}`, { token });
  eq([res.status, res.body], [200, { order }]);
  const other = await signUp(ctx);
  for (const path of [`/api/orders/${order.id}`, "/api/orders/ord_missing"]) {
    const r = await call(ctx, "GET", path, { token: other.token });
    eq([r.status, r.body], [404, { error: "Order not found" }]);
  }
  const patched = await patch(ctx, other.token, order.id, { store: "x" });
  eq([patched.status, patched.body], [404, { error: "Order not found" }]);
  const deleted = await call(ctx, "DELETE", `/api/orders/${order.id}`, { token: other.token });
  eq([deleted.status, deleted.body], [404, { error: "Order not found" }]);
  // Still there for its owner.
  equal((await call(ctx, "GET", `/api/orders/${order.id}`, { token })).status, 200);
});

Deno.test("PATCH sets every editable field, records each in userEdited, fires order.updated", async () => {
  let now = NOW;
  const { ctx, token, user, create } = await setup(() => now);
  await using _ = ctx;
  const order = await create({ itemSummary: "Lamp", orderNumber: "L-1", salePriceCents: 900 });
  now += 5000;
  const body = {
    itemSummary: "Desk lamp",
    orderNumber: "L-2",
    store: "Shop",
    carrier: "dhl",
    total: "€20",
    price: "€18",
    costCents: 1800,
    salePriceCents: null,
    receivedAt: "2025-03-01T00:00:00Z",
    estimatedDelivery: "2025-03-12",
    actualDelivery: "2025-03-11",
    status: "issue",
  };
  const res = await patch(ctx, token, order.id, body);
  equal(res.status, 200);
  const userEdited = [
    "actualDelivery",
    "carrier",
    "costCents",
    "estimatedDelivery",
    "itemSummary",
    "orderNumber",
    "price",
    "receivedAt",
    "salePriceCents",
    "status",
    "store",
    "total",
  ];
  const { salePriceCents: _cleared, ...rest } = order;
  const expected = {
    ...rest,
    ...body,
    salePriceCents: undefined,
    receivedAt: "2025-03-01T00:00:00.000Z",
    userEdited,
    updatedAt: new Date(now).toISOString(),
  };
  delete expected.salePriceCents;
  eq(res.body, { order: expected });
  eq((await call(ctx, "GET", `/api/orders/${order.id}`, { token })).body, { order: expected });

  const events = await listEvents(ctx.kv, user.id);
  eq(events.map((e) => e.type), ["order.created", "order.updated"]);
  eq(events[1].data, {
    order: expected,
    source: "manual",
    patch: { ...body, receivedAt: "2025-03-01T00:00:00.000Z", userEdited },
  });
  // The cleared sale price is sent as null in the webhook patch.
  equal((events[1].data as Body).patch.salePriceCents, null);

  // The old number is free again, the new one merges.
  const merged = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "x", orderNumber: "#l-2" },
  });
  eq([merged.status, merged.body.order.id], [200, order.id]);
  const fresh = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "x", orderNumber: "L-1" },
  });
  equal(fresh.status, 201);
});

Deno.test("PATCH adding a tracking number ships an ordered order: updated then shipped", async () => {
  const { ctx, token, user, create } = await setup();
  await using _ = ctx;
  const order = await create({ itemSummary: "Lamp" });
  const res = await patch(ctx, token, order.id, { trackingNumber: "1Z1" });
  equal(res.body.order.status, "shipped");
  eq(res.body.order.userEdited, ["trackingNumber"]);
  const events = await listEvents(ctx.kv, user.id);
  eq(events.map((e) => e.type), ["order.created", "order.updated", "order.shipped"]);
  eq(events[1].data, {
    order: res.body.order,
    source: "manual",
    patch: { trackingNumber: "1Z1", status: "shipped", userEdited: ["trackingNumber"] },
  });
  eq(events[2].data, { order: res.body.order, source: "manual" });

  // A second tracking number on a shipped order moves nothing and fires only updated.
  const again = await patch(ctx, token, order.id, { trackingNumber: "1Z2" });
  equal(again.body.order.status, "shipped");
  const after = await listEvents(ctx.kv, user.id);
  eq(after.slice(3).map((e) => e.type), ["order.updated"]);
  eq((after[3].data as Body).patch, { trackingNumber: "1Z2", userEdited: ["trackingNumber"] });

  // Setting delivered fires updated then delivered; setting it again fires only updated.
  await patch(ctx, token, order.id, { status: "delivered" });
  await patch(ctx, token, order.id, { status: "delivered" });
  eq((await listEvents(ctx.kv, user.id)).slice(4).map((e) => e.type), [
    "order.updated",
    "order.delivered",
    "order.updated",
  ]);
});

Deno.test("a field the user edited is never overwritten by a later message", async () => {
  const { ctx, token, user, create } = await setup();
  await using _ = ctx;
  const order = await create({ itemSummary: "Lamp", orderNumber: "K-1" });
  await patch(ctx, token, order.id, { store: "My store", status: "issue" });
  const merged = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "x", orderNumber: "K-1", store: "Their store", status: "delivered" },
  });
  equal(merged.body.order.store, "My store");
  equal(merged.body.order.status, "issue");
  eq((await listEvents(ctx.kv, user.id)).map((e) => e.type), [
    "order.created",
    "order.updated",
    "order.merged",
  ]);
});

Deno.test("PATCH errors: bad fields 400, nothing to change 400, taken number 409", async () => {
  const { ctx, token, user, create } = await setup();
  await using _ = ctx;
  const a = await create({ itemSummary: "A", orderNumber: "A-1" });
  await create({ itemSummary: "B", orderNumber: "B-1" });
  const cases: Array<[unknown, number, string]> = [
    [{}, 400, "Send at least one editable field"],
    [{ unknown: 1 }, 400, "Send at least one editable field"],
    [{ itemSummary: "" }, 400, "itemSummary: must not be empty"],
    [{ costCents: -5 }, 400, "costCents: Too small: expected number to be >=0"],
    [{ salePriceCents: 1.25 }, 400, "salePriceCents: Invalid input: expected int, received number"],
    [{ store: null }, 400, "store: Invalid input: expected string, received null"],
    [{ receivedAt: "soon" }, 400, "receivedAt: Invalid ISO datetime"],
    [{ estimatedDelivery: "12/03/2025" }, 400, "estimatedDelivery: Invalid ISO date"],
    [
      { status: "gone" },
      400,
      'status: Invalid option: expected one of "ordered"|"shipped"|"delivered"|"canceled"|"issue"',
    ],
    [{ orderNumber: "#b-1" }, 409, "Another order already has this order number"],
  ];
  for (const [body, status, error] of cases) {
    const res = await patch(ctx, token, a.id, body);
    eq([res.status, res.body], [status, { error }], JSON.stringify(body));
  }
  eq((await call(ctx, "GET", `/api/orders/${a.id}`, { token })).body, { order: a });
  // Renumbering to its own number in another spelling is fine.
  const same = await patch(ctx, token, a.id, { orderNumber: "#a-1" });
  eq([same.status, same.body.order.orderNumber], [200, "#a-1"]);
  eq((await listEvents(ctx.kv, user.id)).map((e) => e.type), [
    "order.created",
    "order.created",
    "order.updated",
  ]);
});

Deno.test("DELETE removes the order, its indexes and counts, fires nothing", async () => {
  const { ctx, token, user, create } = await setup();
  await using _ = ctx;
  const order = await create({ itemSummary: "Lamp", orderNumber: "D-1", costCents: 500 });
  await create({ itemSummary: "Keep", costCents: 100 });
  const res = await call(ctx, "DELETE", `/api/orders/${order.id}`, { token });
  eq([res.status, res.body], [200, { ok: true }]);
  const again = await call(ctx, "DELETE", `/api/orders/${order.id}`, { token });
  eq([again.status, again.body], [404, { error: "Order not found" }]);
  equal((await call(ctx, "GET", `/api/orders/${order.id}`, { token })).status, 404);
  eq((await listEvents(ctx.kv, user.id)).map((e) => e.type), ["order.created", "order.created"]);
  // Only the event log and the search cache's change entries still mention the deleted order.
  const text = (v: unknown) => JSON.stringify(v, (_k, x) => typeof x === "bigint" ? 0 : x);
  for await (const e of ctx.kv.list({ prefix: keys.workspace(user.id) })) {
    if (!text(e.key).includes(order.id) && !text(e.value).includes(order.id)) continue;
    equal(["event", "order_change"].includes(String(e.key[2])), true, text(e.key));
  }
  equal(await readCounter(ctx.kv, keys.orderCount(user.id)), 1);
  equal(await readCounter(ctx.kv, keys.orderStatusCount(user.id, "ordered")), 1);
  equal(await readCounter(ctx.kv, keys.stat("orders")), 1);
  equal(await readCounter(ctx.kv, keys.stat("value_cents")), 100);
  equal(await readCounter(ctx.kv, keys.valueCents(user.id)), 100);
  const list = await call<Body>(ctx, "GET", "/api/orders?q=lamp", { token });
  eq([list.body.total, list.body.items], [0, []]);
  // Its number is free again.
  const reuse = await call(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "New", orderNumber: "d-1" },
  });
  equal(reuse.status, 201);
  equal(
    (await ctx.kv.get(keys.orderByNumber(user.id, "d-1"))).value,
    (reuse.body as Body).order.id,
  );
});
