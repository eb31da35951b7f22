/**
 * `q` from the term index (store/orders/search_index.ts): the driver, prefixes, filters,
 * changes leaving the index, and bounded work.
 */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { newOrder, type Order, type OrderStatus } from "../../src/domain/orders/order.ts";
import { newId } from "../../src/lib/ids.ts";
import { deleteOrder, importOrders, updateOrder } from "../../src/store/orders/orders.ts";
import { listOrders, type OrderQuery } from "../../src/store/orders/list.ts";
import { MAX_PREFIX_TERMS } from "../../src/store/orders/search_index.ts";
import { createUser } from "../../src/store/account/users.ts";
import { keys } from "../../src/store/keys.ts";
import { readCounter } from "../../src/store/kv.ts";
import { verifyStore } from "../../src/store/verify.ts";
import { EventBus } from "../../src/events/bus.ts";
import { QUEUE } from "../../src/events/transport.ts";

const events = new EventBus(QUEUE);
const BASE = Date.parse("2025-01-01T00:00:00.000Z");

async function workspace() {
  const kv = await Deno.openKv(":memory:");
  const created = await createUser(kv, { email: "x@example.com" });
  if (!created.ok) throw new Error("no user");
  const userId = created.user.id;
  let n = 0;
  /** Orders one minute apart, in the order given (the last is the newest). */
  const add = async (specs: (Partial<Order> & { itemSummary: string })[]) => {
    const made = specs.map((spec) => {
      const ms = BASE + ++n * 60_000;
      return newOrder(
        newId("ord", ms),
        {
          ...spec,
          receivedAt: new Date(ms).toISOString(),
        },
        {},
        "email",
        ms,
      );
    });
    await importOrders(kv, userId, made);
    return made.map((o) => o.id);
  };
  const search = async (q: string, query: OrderQuery = {}, paging = { limit: 50, offset: 0 }) => {
    const { items, total } = await listOrders(kv, userId, { ...query, q }, paging);
    return { ids: items.map((o) => o.id), total };
  };
  return { kv, userId, add, search, [Symbol.dispose]: () => kv.close() };
}

const newest = (ids: string[]) => [...ids].reverse();

Deno.test("the rarest term drives: a broad and a rare word give exact results and totals", async () => {
  using ws = await workspace();
  const blue = await ws.add(Array.from({ length: 300 }, () => ({ itemSummary: "Widget blue" })));
  const red = await ws.add([{ itemSummary: "Widget red" }, { itemSummary: "red widget" }]);
  const all = [...blue, ...red];
  eq(await ws.search("widget red"), { ids: [red[0]], total: 1 });
  eq(await ws.search("red"), { ids: newest(red), total: 2 });
  eq(await ws.search("red widget"), { ids: [red[1]], total: 1 });
  const broad = await ws.search("widget", {}, { limit: 5, offset: 10 });
  eq(broad, { ids: newest(all).slice(10, 15), total: 302 });
  eq((await ws.search("widget blue", {}, { limit: 3, offset: 0 })).total, 300);
  eq(await ws.search("widget green"), { ids: [], total: 0 });
});

Deno.test("the last word is a prefix; the words before it are whole", async () => {
  using ws = await workspace();
  const [lamp, lantern, desk, lamps] = await ws.add([
    { itemSummary: "Desk lamp" },
    { itemSummary: "desk lantern" },
    { itemSummary: "Desk" },
    { itemSummary: "lamp lamps", store: "Lamp store" },
  ]);
  eq(await ws.search("desk la"), { ids: [lantern, lamp], total: 2 });
  eq(await ws.search("des"), { ids: [desk, lantern, lamp], total: 3 });
  eq(await ws.search("desk lamp"), { ids: [lamp], total: 1 });
  eq(await ws.search("de lamp"), { ids: [], total: 0 });
  // An order with several words of a prefix is found once.
  eq(await ws.search("lamp"), { ids: [lamps, lamp], total: 2 });
  // Parts of numbers: an order number's and a tracking number's tails.
  const [numbered] = await ws.add([{
    itemSummary: "Shoes",
    orderNumber: "#112-4567890",
    trackingNumber: "1Z999AA10123",
  }]);
  eq(await ws.search("4567"), { ids: [numbered], total: 1 });
  eq(await ws.search("#112-456"), { ids: [numbered], total: 1 });
  eq(await ws.search("10123"), { ids: [numbered], total: 1 });
});

Deno.test("status and date filters with q", async () => {
  using ws = await workspace();
  const statuses: OrderStatus[] = ["ordered", "shipped", "delivered", "shipped", "ordered"];
  const made = await ws.add(statuses.map((status) => ({ itemSummary: "Kettle", status })));
  eq(await ws.search("kettle", { status: "shipped" }), {
    ids: [made[3], made[1]],
    total: 2,
  });
  const window = { fromMs: BASE + 2 * 60_000, toMs: BASE + 4 * 60_000 };
  eq(await ws.search("kett", window), { ids: [made[2], made[1]], total: 2 });
  // Inside a word (the vocabulary's exact term): its postings read within the window's times.
  eq(await ws.search("ettle", window), { ids: [made[2], made[1]], total: 2 });
  eq(await ws.search("ettle", { fromMs: window.toMs }), { ids: [made[4], made[3]], total: 2 });
  eq(await ws.search("kettle", { ...window, status: "delivered" }), {
    ids: [made[2]],
    total: 1,
  });
  eq(await ws.search("kettle", { status: "canceled" }), { ids: [], total: 0 });
});

Deno.test("an edited or deleted order leaves the index in its own commit", async () => {
  using ws = await workspace();
  const [a, b] = await ws.add([{ itemSummary: "Oak shelf" }, { itemSummary: "Oak desk" }]);
  await updateOrder(ws.kv, ws.userId, a, { itemSummary: "Maple shelf" }, {
    now: Date.now(),
    events,
  });
  await deleteOrder(ws.kv, ws.userId, b);
  eq(await ws.search("oak"), { ids: [], total: 0 });
  eq(await ws.search("maple"), { ids: [a], total: 1 });
  equal(await readCounter(ws.kv, keys.searchCount(ws.userId, "oak")), 0);
  equal(await readCounter(ws.kv, keys.searchCount(ws.userId, "shelf")), 1);
  const left = await Array.fromAsync(ws.kv.list({ prefix: keys.searchPostings(ws.userId) }));
  equal(left.some((e) => e.key.at(-1) === b), false);
  eq(
    left.map((e) => e.key[3]).sort(),
    ["\u0001maple shelf", "maple", "shelf"],
  );
  const report = await verifyStore(ws.kv, { repair: false });
  eq(report.accounts.map((r) => r.differences), [[]]);
});

Deno.test("bounded work: a query of many words, a prefix over many terms", async () => {
  using ws = await workspace();
  const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
  const [long] = await ws.add([{ itemSummary: words }]);
  eq(await ws.search(words), { ids: [long], total: 1 });
  eq(await ws.search(`${words} nope`), { ids: [], total: 0 });
  // More distinct terms under a prefix than a search reads counts of: still answered.
  const n = MAX_PREFIX_TERMS + 20;
  const many = await ws.add(
    Array.from({ length: n }, (_, i) => ({ itemSummary: `t${String(i).padStart(4, "0")}` })),
  );
  const page = await ws.search("t", {}, { limit: 10, offset: 5 });
  eq(page, { ids: newest(many).slice(5, 15), total: n });
  eq(await ws.search("t0", { status: "ordered" }, { limit: 1, offset: 0 }), {
    ids: [many.at(-1)!],
    total: n,
  });
  // A rarer word beside the broad prefix drives instead.
  const [rare] = await ws.add([{ itemSummary: "rare t9999" }]);
  eq(await ws.search("rare t"), { ids: [rare], total: 1 });
});

Deno.test("inside words: the vocabulary finds them, and verify restores a lost entry", async () => {
  using ws = await workspace();
  const [kettle, widget, cup] = await ws.add([
    { itemSummary: "Red Kettle" },
    { itemSummary: "Widget #5", orderNumber: "AB-1235" },
    { itemSummary: "Blue cup", store: "Kettle shop" },
  ]);
  eq(await ws.search("ettl"), { ids: [cup, kettle], total: 2 });
  eq(await ws.search("t #5"), { ids: [widget], total: 1 });
  eq(await ws.search("#5"), { ids: [widget], total: 1 });
  eq(await ws.search("#123"), { ids: [widget], total: 1 });
  eq(await ws.search("23"), { ids: [widget], total: 1 });
  eq(await ws.search("e s"), { ids: [cup], total: 1 });
  eq(await ws.search("ettle", { status: "ordered" }, { limit: 1, offset: 1 }), {
    ids: [kettle],
    total: 2,
  });
  // A suffix entry lost: verify names it, repair writes it back, the search finds it again.
  const lost = keys.searchSuffix(ws.userId, "ettle", "kettle");
  await ws.kv.delete(lost);
  eq(await ws.search("ettl"), { ids: [], total: 0 });
  const report = await verifyStore(ws.kv, { repair: true });
  eq(report.accounts[0].differences, [{ key: lost, kind: "missing", expected: true }]);
  eq(await ws.search("ettl"), { ids: [cup, kettle], total: 2 });
  eq((await verifyStore(ws.kv, { repair: false })).accounts[0].differences, []);
});

Deno.test("an order the index cannot hold whole is found by its text", async () => {
  using ws = await workspace();
  const long = `https://example.com/${"p".repeat(60)}/kettle`;
  const [linked, plain] = await ws.add([
    { itemSummary: `Kettle ${long}` },
    { itemSummary: "Kettle" },
  ]);
  eq(await ws.search("kettle"), { ids: [plain, linked], total: 2 });
  eq(await ws.search("pp/ket"), { ids: [linked], total: 1 });
  eq(await ws.search("ppp", { status: "shipped" }), { ids: [], total: 0 });
});

Deno.test("a broad query checks every order: exact past 10,000", async () => {
  using ws = await workspace();
  const made = await ws.add(
    Array.from({ length: 10_020 }, (_, i) => ({ itemSummary: `part${i}` })),
  );
  // "t" is inside 10,020 distinct words: too many to read one by one.
  const page = await ws.search("t", {}, { limit: 3, offset: 2 });
  eq(page, { ids: newest(made).slice(2, 5), total: 10_020 });
  eq(await ws.search("t", {}, { limit: 2, offset: 10_019 }), { ids: [made[0]], total: 10_020 });
  // A rarer word beside it drives instead: exact.
  eq(await ws.search("t1234"), { ids: [made[1234]], total: 1 });
});

Deno.test("a large order's postings hold its status and text: the page reads it by id", async () => {
  using ws = await workspace();
  const price = `$${"9".repeat(2_100)}`;
  const [big, small] = await ws.add([
    { itemSummary: "Big kettle", price },
    { itemSummary: "Small kettle" },
  ]);
  const posting = await ws.kv.get(keys.searchPosting(ws.userId, "kettle", BASE + 60_000, big));
  equal(Array.isArray(posting.value), true);
  const held = await ws.kv.get<Order>(
    keys.searchPosting(ws.userId, "kettle", BASE + 120_000, small),
  );
  equal(held.value?.id, small);
  const { items: page } = await listOrders(ws.kv, ws.userId, { q: "ettl" }, {
    limit: 5,
    offset: 0,
  });
  eq(page.map((o) => [o.id, o.price ?? ""]), [[small, ""], [big, price]]);
  eq(await ws.search("g ket", { status: "ordered" }), { ids: [big], total: 1 });
});

Deno.test("a prefix of many rare words is read at once: exact page and total", async () => {
  using ws = await workspace();
  const numbered = await ws.add(
    Array.from({ length: 30 }, (_, i) => ({
      itemSummary: "Part",
      orderNumber: `AB-${1000 + i}`,
      status: i % 2 ? "shipped" as const : "ordered" as const,
    })),
  );
  // Two words of the prefix in one order, and one word that has it inside.
  const [twice, inside] = await ws.add([
    { itemSummary: "ab-1090 ab-1091" },
    { itemSummary: "Xab-1077" },
  ]);
  const all = [inside, twice, ...newest(numbered)];
  eq(await ws.search("ab-10", {}, { limit: 5, offset: 0 }), { ids: all.slice(0, 5), total: 32 });
  eq(await ws.search("ab-10", {}, { limit: 5, offset: 30 }), { ids: all.slice(30), total: 32 });
  const shipped = newest(numbered).filter((_, i) => i % 2 === 0);
  eq(await ws.search("ab-10", { status: "shipped" }), { ids: shipped, total: 15 });
  // Inside ten words (the vocabulary's), and inside one.
  eq(await ws.search("b-102"), { ids: newest(numbered).slice(0, 10), total: 10 });
  eq(await ws.search("b-107"), { ids: [inside], total: 1 });
});

Deno.test("an import whose words need many vocabulary entries commits them first", async () => {
  using ws = await workspace();
  const word = (i: number, j: number) => `w${i}x${j}`.padEnd(20, "q");
  const made = await ws.add(Array.from({ length: 6 }, (_, i) => ({
    itemSummary: Array.from({ length: 5 }, (_, j) => word(i, j)).join(" "),
  })));
  const entries = await Array.fromAsync(ws.kv.list({ prefix: keys.searchVocabulary(ws.userId) }));
  equal(entries.length, 6 * 5 * 19);
  eq(await ws.search("3x4q"), { ids: [made[3]], total: 1 });
  eq((await verifyStore(ws.kv, { repair: false })).accounts[0].differences, []);
});
