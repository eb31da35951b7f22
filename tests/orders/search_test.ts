import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { bigramSignature, OrderSearch } from "../../src/store/orders/search.ts";
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

Deno.test("two processes' caches both see every commit, in either order", async () => {
  using ws = await workspace();
  const { kv, userId, add } = ws;
  const a = new OrderSearch(kv);
  const b = new OrderSearch(kv);
  const first = await add("Green lamp", { store: "Lights" });
  eq(ids(await a.find(userId, { query: "lamp" })), [first]);
  // Process b builds later; process a only syncs.
  const second = await add("Lamp shade");
  eq(ids(await b.find(userId, { query: "lamp" })), [second, first]);
  eq(ids(await a.find(userId, { query: "lamp" })), [second, first]);

  // An edit and a delete made "elsewhere" are picked up by both.
  await updateOrder(kv, userId, first, { itemSummary: "Green bulb" }, { now: Date.now(), events });
  await deleteOrder(kv, userId, second);
  for (const search of [a, b]) {
    eq(ids(await search.find(userId, { query: "lamp" })), []);
    eq(ids(await search.find(userId, { query: "bulb" })), [first]);
    eq(ids(await search.find(userId, { query: "lights", status: "ordered" })), [first]);
    eq(ids(await search.find(userId, { query: "lights", status: "shipped" })), []);
  }
  // Replaying the change entries again changes nothing.
  await add("Unrelated");
  eq(ids(await a.find(userId, { query: "bulb" })), [first]);
  eq(ids(await a.find(userId, { query: "lamp" })), []);
});

Deno.test("concurrent searches and writes: each search sees what committed before it began", async () => {
  using ws = await workspace();
  const { kv, userId, add } = ws;
  const search = new OrderSearch(kv);
  const made: string[] = [];
  await Promise.all(Array.from({ length: 20 }, async (_, i) => {
    const id = await add(`widget ${i}`);
    made.push(id);
    const hits = ids(await search.find(userId, { query: "widget" }));
    equal(hits.includes(id), true);
  }));
  equal((await search.find(userId, { query: "widget" })).length, 20);
  const window = await search.find(userId, {
    query: "widget",
    fromMs: Date.parse("2025-01-01T00:05:00.000Z"),
    toMs: Date.parse("2025-01-01T00:10:00.000Z"),
  });
  equal(window.length, 5);
});

Deno.test("a bounded cache drops the least recently searched workspace", async () => {
  using ws = await workspace();
  const { kv, userId, add } = ws;
  const other = await createUser(kv, { email: "t@example.com" });
  if (!other.ok) throw new Error("no user");
  await add("one");
  await add("two");
  await ingestOrder(kv, {
    userId: other.user.id,
    source: "chat",
    fields: { itemSummary: "three" },
  }, { now: Date.now(), billing, events });
  const search = new OrderSearch(kv, 2);
  equal((await search.find(userId, { query: "o" })).length, 2);
  equal((await search.find(other.user.id, { query: "three" })).length, 1);
  // Rebuilt on demand after being dropped.
  equal((await search.find(userId, { query: "tw" })).length, 1);
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

Deno.test("a substring's bigram signature is inside its text's", () => {
  let seed = 3;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const alphabet = "abcdefghij klmnop-#0123456789\nü";
  for (let t = 0; t < 500; t++) {
    const text = Array.from({ length: 5 + rand(60) }, () => alphabet[rand(alphabet.length)]).join(
      "",
    );
    const from = rand(text.length);
    const part = text.slice(from, from + 1 + rand(10));
    const a = new Int32Array(4);
    const b = new Int32Array(4);
    bigramSignature(text, a);
    bigramSignature(part, b);
    for (let i = 0; i < 4; i++) equal(a[i] & b[i], b[i]);
  }
});

Deno.test("many deletions compact the cache without losing or reviving entries", async () => {
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
  const search = new OrderSearch(kv);
  equal((await search.find(userId, { query: "thing" })).length, 1500);
  for (const order of made.slice(0, 1200)) await deleteOrder(kv, userId, order.id);
  const hits = await search.find(userId, { query: "thing" });
  eq(ids(hits), made.slice(1200).reverse().map((o) => o.id));
  await updateOrder(kv, userId, made[1499].id, { itemSummary: "renamed" }, {
    now: Date.now(),
    events,
  });
  equal((await search.find(userId, { query: "thing" })).length, 299);
  eq(ids(await search.find(userId, { query: "renamed" })), [made[1499].id]);
});
