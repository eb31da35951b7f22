import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { listOrders, type OrderQuery } from "../../src/store/orders/list.ts";
import { newOrder } from "../../src/domain/orders/order.ts";
import { newId } from "../../src/lib/ids.ts";
import {
  deleteOrder,
  importOrders,
  ingestOrder,
  updateOrder,
} from "../../src/store/orders/orders.ts";
import { createUser } from "../../src/store/account/users.ts";
import { EventBus } from "../../src/events/bus.ts";
import { QUEUE } from "../../src/events/transport.ts";

/** Commits with events go through a bus, as in the app. */
const events = new EventBus(QUEUE);

const billing = { billingEnabled: false, freePlanMonthlyOrders: 100 };

async function workspace() {
  const kv = await Deno.openKv(":memory:");
  const created = await createUser(kv, { email: "s@example.com" });
  if (!created.ok) throw new Error("no user");
  const userId = created.user.id;
  let now = Date.parse("2025-01-01T00:00:00.000Z");
  const add = async (itemSummary: string, extra: Record<string, unknown> = {}) => {
    now += 60_000;
    const r = await ingestOrder(kv, {
      userId,
      source: "email",
      fields: { itemSummary, ...extra },
    }, { now, billing, events });
    if (!r.ok) throw new Error("not created");
    return r.order.id;
  };
  return { kv, userId, add, [Symbol.dispose]: () => kv.close() };
}

const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

/** `q` as the list answers it: the matching orders (up to 2,000), newest first. */
const find = async (kv: Deno.Kv, userId: string, query: OrderQuery & { query: string }) =>
  (await listOrders(kv, userId, { ...query, q: query.query }, { limit: 2000, offset: 0 })).items;

Deno.test("edits and deletes leave the index in the order's own commit", async () => {
  using ws = await workspace();
  const { kv, userId, add } = ws;
  const first = await add("Green lamp", { store: "Lights" });
  eq(ids(await find(kv, userId, { query: "lamp" })), [first]);
  const second = await add("Lamp shade");
  eq(ids(await find(kv, userId, { query: "lamp" })), [second, first]);

  // An edit and a delete are in the index with the order's own commit.
  await updateOrder(kv, userId, first, { itemSummary: "Green bulb" }, { now: Date.now(), events });
  await deleteOrder(kv, userId, second);
  eq(ids(await find(kv, userId, { query: "lamp" })), []);
  eq(ids(await find(kv, userId, { query: "bulb" })), [first]);
  eq(ids(await find(kv, userId, { query: "lights", status: "ordered" })), [first]);
  eq(ids(await find(kv, userId, { query: "lights", status: "shipped" })), []);
  await add("Unrelated");
  eq(ids(await find(kv, userId, { query: "bulb" })), [first]);
  eq(ids(await find(kv, userId, { query: "lamp" })), []);
});

Deno.test("concurrent searches and writes: each search sees what committed before it began", async () => {
  using ws = await workspace();
  const { kv, userId, add } = ws;
  const made: string[] = [];
  await Promise.all(Array.from({ length: 20 }, async (_, i) => {
    const id = await add(`widget ${i}`);
    made.push(id);
    const hits = ids(await find(kv, userId, { query: "widget" }));
    equal(hits.includes(id), true);
  }));
  equal((await find(kv, userId, { query: "widget" })).length, 20);
  const window = await find(kv, userId, {
    query: "widget",
    fromMs: Date.parse("2025-01-01T00:05:00.000Z"),
    toMs: Date.parse("2025-01-01T00:10:00.000Z"),
  });
  equal(window.length, 5);
});

Deno.test("ingestOrder for an account that no longer exists stores nothing and says so", async () => {
  using kv = await Deno.openKv(":memory:");
  const result = await ingestOrder(
    kv,
    { userId: "usr_gone", source: "chat", fields: { itemSummary: "x" } },
    { now: Date.now(), billing, events },
  );
  eq(result, { ok: false, reason: "account_gone" });
  eq(await Array.fromAsync(kv.list({ prefix: [] })), []);
});

Deno.test("many deletions leave the index without losing or reviving entries", async () => {
  using ws = await workspace();
  const { kv, userId } = ws;
  const base = Date.parse("2025-01-01T00:00:00.000Z");
  const made = Array.from({ length: 1500 }, (_, i) =>
    newOrder(
      newId("ord", base + i * 1000),
      {
        itemSummary: `thing ${i}`,
        receivedAt: new Date(base + i * 1000).toISOString(),
      },
      {},
      "email",
      base + i * 1000,
    ));
  await importOrders(kv, userId, made);
  equal((await find(kv, userId, { query: "thing" })).length, 1500);
  for (const order of made.slice(0, 1200)) await deleteOrder(kv, userId, order.id);
  const hits = await find(kv, userId, { query: "thing" });
  eq(ids(hits), made.slice(1200).reverse().map((o) => o.id));
  await updateOrder(kv, userId, made[1499].id, { itemSummary: "renamed" }, {
    now: Date.now(),
    events,
  });
  equal((await find(kv, userId, { query: "thing" })).length, 299);
  eq(ids(await find(kv, userId, { query: "renamed" })), [made[1499].id]);
});
