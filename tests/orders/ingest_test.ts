import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import type { Order } from "../../src/domain/orders/order.ts";
import { type InCommit, ingestOrder, mergeIntoOrder } from "../../src/store/orders/orders.ts";
import { listEvents } from "../../src/events/emit.ts";
import { createUser } from "../../src/store/account/users.ts";
import { countOrders } from "../../src/store/orders/list.ts";
import { EventBus } from "../../src/events/bus.ts";
import { QUEUE } from "../../src/events/transport.ts";

/** Commits with events go through a bus, as in the app. */
const events = new EventBus(QUEUE);

const billing = { billingEnabled: false, freePlanMonthlyOrders: 100 };
const now = Date.parse("2025-03-01T10:00:00.000Z");

async function workspace() {
  const kv = await Deno.openKv(":memory:");
  const created = await createUser(kv, { email: "seam@example.com" });
  if (!created.ok) throw new Error("no user");
  return { kv, userId: created.user.id, [Symbol.dispose]: () => kv.close() };
}

/** An intake-like extension: a dedupe key that stops repeats, written with the order. */
function dedupe(key: Deno.KvKey, logId: string): InCommit<{ duplicateOf: string }> {
  return {
    keys: [key],
    stop: ([entry]) => entry.value ? { duplicateOf: entry.value as string } : undefined,
    write: (op, { order, merged }) =>
      op.set(key, logId).set(["test_log", logId], { order: order.id, merged }),
  };
}

Deno.test("an extension's writes commit with the order, in the same commit", async () => {
  using ws = await workspace();
  const result = await ingestOrder(ws.kv, {
    userId: ws.userId,
    source: "email",
    fields: { itemSummary: "Boots", orderNumber: "A-1" },
    extension: dedupe(["test_dedupe", "m1"], "log_1"),
  }, { now, billing, events });
  ok(result.ok);
  const [key, log] = await ws.kv.getMany([["test_dedupe", "m1"], ["test_log", "log_1"]]);
  equal(key.value, "log_1");
  eq(log.value, { order: result.order.id, merged: false });
  equal(key.versionstamp, log.versionstamp);
  equal(
    (await ws.kv.get(["ws", ws.userId, "order", result.order.id])).versionstamp,
    key.versionstamp,
  );
});

Deno.test("an extension's stop ends the operation before anything is written", async () => {
  using ws = await workspace();
  await ws.kv.set(["test_dedupe", "m1"], "log_0");
  const result = await ingestOrder(ws.kv, {
    userId: ws.userId,
    source: "email",
    fields: { itemSummary: "Boots" },
    extension: dedupe(["test_dedupe", "m1"], "log_1"),
  }, { now, billing, events });
  eq(result, { ok: false, reason: "stopped", stop: { duplicateOf: "log_0" } });
  equal(await countOrders(ws.kv, ws.userId), 0);
  eq(await listEvents(ws.kv, ws.userId), []);
});

Deno.test("racing messages with one dedupe key store one order (the key is checked in the commit)", async () => {
  using ws = await workspace();
  const results = await Promise.all(Array.from({ length: 25 }, (_, i) =>
    ingestOrder(ws.kv, {
      userId: ws.userId,
      source: "email",
      fields: { itemSummary: `Copy ${i}` },
      extension: dedupe(["test_dedupe", "same"], `log_${i}`),
    }, { now, billing, events })));
  const stored = results.filter((r) => r.ok);
  equal(stored.length, 1);
  equal(results.filter((r) => !r.ok && r.reason === "stopped").length, 24);
  equal(await countOrders(ws.kv, ws.userId), 1);
});

Deno.test("an extension on a merge by number commits with the merge", async () => {
  using ws = await workspace();
  const first = await ingestOrder(ws.kv, {
    userId: ws.userId,
    source: "chat",
    fields: { itemSummary: "Boots", orderNumber: "#77" },
  }, { now, billing, events });
  ok(first.ok);
  const second = await ingestOrder(ws.kv, {
    userId: ws.userId,
    source: "email",
    fields: { itemSummary: "Boots", orderNumber: "77", trackingNumber: "1Z999AA10123456784" },
    extension: dedupe(["test_dedupe", "m2"], "log_2"),
  }, { now: now + 1000, billing, events });
  ok(second.ok && second.merged);
  equal(second.order.status, "shipped");
  eq((await ws.kv.get(["test_log", "log_2"])).value, { order: first.order.id, merged: true });
});

Deno.test("mergeIntoOrder merges by id with signals and fires a merge's events", async () => {
  using ws = await workspace();
  const created = await ingestOrder(ws.kv, {
    userId: ws.userId,
    source: "manual",
    fields: { itemSummary: "Lamp", trackingNumber: "1Z999AA10123456784" },
  }, { now, billing, events });
  ok(created.ok);
  const merged = await mergeIntoOrder(ws.kv, {
    userId: ws.userId,
    orderId: created.order.id,
    source: "manual",
    fields: { actualDelivery: "2025-03-03" },
    signals: { delivered: true },
  }, { now: now + 5000, events });
  ok(merged.ok);
  const order: Order = merged.order;
  equal(order.status, "delivered");
  equal(order.actualDelivery, "2025-03-03");
  eq(merged.events.map((e) => e.type), ["order.merged", "order.delivered"]);
  // A repeat changes nothing and fires no status event again.
  const again = await mergeIntoOrder(ws.kv, {
    userId: ws.userId,
    orderId: created.order.id,
    source: "manual",
    fields: {},
    signals: { delivered: true },
  }, { now: now + 6000, events });
  ok(again.ok);
  eq(again.events.map((e) => e.type), ["order.merged"]);
  const types = (await listEvents(ws.kv, ws.userId)).map((e) => e.type);
  eq(types, ["order.created", "order.merged", "order.delivered", "order.merged"]);
});

Deno.test("mergeIntoOrder takes its own events and reports a missing order or account", async () => {
  using ws = await workspace();
  const created = await ingestOrder(ws.kv, {
    userId: ws.userId,
    source: "manual",
    fields: { itemSummary: "Lamp" },
  }, { now, billing, events });
  ok(created.ok);
  const merged = await mergeIntoOrder(ws.kv, {
    userId: ws.userId,
    orderId: created.order.id,
    source: "manual",
    fields: { trackingNumber: "1Z999AA10123456784", carrier: "ups" },
    events: (_before, after) => [{
      type: "order.tracking_updated",
      data: { order: after, carrier: "ups", delivered: false, eventCount: 3 },
    }],
  }, { now: now + 1, events });
  ok(merged.ok);
  eq(merged.events.map((e) => e.type), ["order.tracking_updated"]);
  equal(merged.order.status, "shipped");

  const missing = await mergeIntoOrder(ws.kv, {
    userId: ws.userId,
    orderId: "ord_missing",
    source: "manual",
    fields: {},
  }, { now, events });
  eq(missing, { ok: false, reason: "not_found" });
  const gone = await mergeIntoOrder(ws.kv, {
    userId: "usr_gone",
    orderId: created.order.id,
    source: "manual",
    fields: {},
  }, { now, events });
  eq(gone, { ok: false, reason: "account_gone" });
});
