/**
 * Broad `q` answers from memory (store/orders/search_memory.ts, search_changes.ts): a copy that
 * matches a brute-force filter through every kind of change, kept fresh across two handles on
 * one store, and bounded.
 */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import {
  newOrder,
  type Order,
  ORDER_STATUSES,
  type OrderStatus,
} from "../../src/domain/orders/order.ts";
import { matchesQuery, searchText } from "../../src/domain/orders/search_terms.ts";
import { newId } from "../../src/lib/ids.ts";
import {
  type ChangeEntry,
  changeEntryOf,
  WorkspaceMemory,
} from "../../src/store/orders/search_memory.ts";
import { keys } from "../../src/store/keys.ts";
import {
  broadSearch,
  SearchMemory,
  searchMemoryOf,
} from "../../src/store/orders/search_changes.ts";
import type { SearchFilter } from "../../src/store/orders/search_tally.ts";
import {
  deleteOrder,
  getOrder,
  importOrders,
  rewriteOrder,
} from "../../src/store/orders/orders.ts";
import { listOrders } from "../../src/store/orders/list.ts";
import { createUser } from "../../src/store/account/users.ts";

const BASE = Date.parse("2025-01-01T00:00:00.000Z");
const WORDS = ["Desk", "lamp", "#A-12", "blue", "e", "ée", "Kettle", "x1", "12", "zz", "日本"];

function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

interface Held {
  ms: number;
  status: OrderStatus;
  text: string;
}

/** The page and total of a brute-force filter of `held`, in the list's order. */
function expected(held: Map<string, Held>, f: SearchFilter, offset: number, limit: number) {
  const all = [...held].filter(([, h]) =>
    matchesQuery(h.text, f.q) && (!f.status || h.status === f.status) &&
    h.ms >= (f.fromMs ?? -Infinity) && h.ms < (f.toMs ?? Infinity)
  ).sort(([a, x], [b, y]) => y.ms - x.ms || (a < b ? 1 : a > b ? -1 : 0));
  return { ids: all.slice(offset, offset + limit).map(([id]) => id), total: all.length };
}

const QUERIES: SearchFilter[] = [
  { q: "e" },
  { q: "12" },
  { q: "#a-12" },
  { q: "#12" },
  { q: "lamp" },
  { q: "k blue" },
  { q: "日" },
  { q: "ée" },
  { q: "e", status: "shipped" },
  { q: "1", fromMs: BASE + 500 * 60_000, toMs: BASE + 900 * 60_000 },
  { q: "amp", status: "issue", fromMs: BASE },
  { q: "absent" },
];

Deno.test("memory answers match a brute-force filter through creates, edits, moves, deletions and replays", () => {
  const next = random(11);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const memory = new WorkspaceMemory(0);
  const held = new Map<string, Held>();
  let stamp = 0;
  const stampOf = (n: number) => n.toString(16).padStart(20, "0");
  const history: { id: string; change: ChangeEntry; stamp: string }[] = [];
  const apply = (id: string, change: ChangeEntry) => {
    const s = stampOf(++stamp);
    memory.apply(id, change, s);
    history.push({ id, change, stamp: s });
    if ("deleted" in change) held.delete(id);
    else held.set(id, change);
  };
  const text = () =>
    Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(WORDS)).join(" ").toLowerCase();
  const check = (round: string) => {
    equal(memory.size, held.size, round);
    for (const f of QUERIES) {
      for (const [offset, limit] of [[0, 50], [7, 3], [400, 25]]) {
        eq(memory.answer(f, { offset, limit }), {
          ...expected(held, f, offset, limit),
          orders: expected(held, f, offset, limit).ids.map(() => undefined),
        }, `${round}: ${JSON.stringify(f)} ${offset}`);
      }
    }
  };
  // Orders in time order, then some older ones (slots no longer in the list's order).
  for (let i = 0; i < 2_000; i++) {
    apply(`o${i}`, { ms: BASE + i * 60_000, status: pick(ORDER_STATUSES), text: text() });
  }
  check("created in order");
  for (let i = 0; i < 30; i++) {
    apply(`old${i}`, { ms: BASE - i * 60_000, status: pick(ORDER_STATUSES), text: text() });
  }
  check("older orders added");
  // Edits in place, moves in time, deletions past a quarter of the slots (a compaction).
  const ids = () => [...held.keys()];
  for (let i = 0; i < 2_400; i++) {
    const id = pick(ids());
    const h = held.get(id)!;
    const roll = next();
    if (roll < 0.3) apply(id, { ...h, text: text() });
    else if (roll < 0.4) apply(id, { ...h, status: pick(ORDER_STATUSES) });
    else if (roll < 0.5) apply(id, { ...h, ms: h.ms + 90_000 });
    else apply(id, { deleted: true });
  }
  check("after edits, moves and deletions");
  // Every change replayed, in any order: the copy keeps what it has (nothing is newer).
  for (const { id, change, stamp } of [...history].reverse()) memory.apply(id, change, stamp);
  check("after replays");
  // A deleted order created again later is held again.
  const gone = history.find((h) => "deleted" in h.change && !held.has(h.id))!.id;
  apply(gone, { ms: BASE, status: "ordered", text: "back again" });
  check("recreated");
});

/** An order of `item` received at `BASE + i` minutes. */
const orderAt = (i: number, item: string, status: OrderStatus = "ordered"): Order =>
  newOrder(
    newId("ord", BASE + i * 60_000),
    { itemSummary: item, status, receivedAt: new Date(BASE + i * 60_000).toISOString() },
    {},
    "email",
    BASE + i * 60_000,
  );

Deno.test("two handles on one store: a broad search on one sees each change made by the other", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite`;
  const a = await Deno.openKv(path);
  const b = await Deno.openKv(path);
  try {
    const created = await createUser(b, { email: "two@example.com" });
    if (!created.ok) throw new Error("no user");
    const userId = created.user.id;
    const orders = Array.from({ length: 400 }, (_, i) => orderAt(i, `Widget part${i} desk lamp`));
    await importOrders(b, userId, orders);
    const held = new Map(orders.map((o) => [o.id, o]));
    const search = async (q: string) => {
      const { items, total } = await listOrders(a, userId, { q }, { offset: 0, limit: 5 });
      return { ids: items.map((o) => o.id), total };
    };
    const brute = (q: string) => {
      const all = [...held.values()].filter((o) => matchesQuery(searchText(o), q))
        .sort((x, y) => y.receivedAt.localeCompare(x.receivedAt) || y.id.localeCompare(x.id));
      return { ids: all.slice(0, 5).map((o) => o.id), total: all.length };
    };
    // "t" and "1" are inside too many words for the index (part0 ... part399): answered from
    // a's memory.
    equal(searchMemoryOf(a).size, 0);
    eq(await search("t"), brute("t"));
    equal(searchMemoryOf(a).size, 400);
    eq(await search("1"), brute("1"));

    const more = [orderAt(500, "Kettle"), orderAt(501, "Sofa 1")];
    await importOrders(b, userId, more);
    for (const o of more) held.set(o.id, o);
    eq(await search("t"), brute("t"));
    eq(await search("1"), brute("1"));

    const renamed = { ...orders[399], itemSummary: "Sofa table" };
    equal(await rewriteOrder(b, userId, renamed.id, () => renamed), "changed");
    held.set(renamed.id, renamed);
    equal(await deleteOrder(b, userId, orders[398].id), true);
    held.delete(orders[398].id);
    for (const q of ["t", "1", "so", "39"]) eq(await search(q), brute(q), q);
    // The page's orders (one range read of the time-ordered index) are the stored ones.
    const { items } = await listOrders(a, userId, { q: "t" }, { offset: 0, limit: 20 });
    eq(items, await Promise.all(items.map((o) => getOrder(b, userId, o.id))));
    eq(items.slice(0, 2).map((o) => o.itemSummary), ["Kettle", "Sofa table"]);
    equal(searchMemoryOf(a).size, 401);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("memory is bounded: the least recently searched workspace goes, one too large is not held", async () => {
  await using kv = await Deno.openKv(":memory:");
  const users = [];
  for (
    const [email, count] of [["a@example.com", 30], ["b@example.com", 30], ["c@example.com", 60]]
  ) {
    const created = await createUser(kv, { email: String(email) });
    if (!created.ok) throw new Error("no user");
    await importOrders(
      kv,
      created.user.id,
      Array.from({ length: Number(count) }, (_, i) => orderAt(i, `Item ${i}`)),
    );
    users.push(created.user.id);
  }
  const memory = new SearchMemory(kv, 50);
  const [a, b, c] = users;
  equal((await memory.memoryOf(a))?.size, 30);
  equal((await memory.memoryOf(a))?.answer({ q: "e" }, { offset: 0, limit: 1 }).total, 30);
  equal((await memory.memoryOf(b))?.size, 30);
  equal(memory.size, 30);
  equal(await memory.memoryOf(c), null);
  equal(memory.size, 30);
  // A workspace without any order commit has nothing to hold.
  const empty = await createUser(kv, { email: "d@example.com" });
  if (!empty.ok) throw new Error("no user");
  equal(await memory.memoryOf(empty.user.id), null);
});

Deno.test("a change stamped before the last sync began but landing after it is applied", async () => {
  await using kv = await Deno.openKv(":memory:");
  const created = await createUser(kv, { email: "late@example.com" });
  if (!created.ok) throw new Error("no user");
  const userId = created.user.id;
  await importOrders(kv, userId, [orderAt(0, "Kettle")]);
  const memory = new SearchMemory(kv);
  equal((await memory.memoryOf(userId))?.answer({ q: "e" }, { offset: 0, limit: 5 }).total, 1);
  // A commit whose clock was read 20 s before that sync (a long wait for the disk).
  const late = orderAt(1, "Teapot");
  await kv.atomic()
    .set(keys.orderChange(userId, Date.now() - 20_000, late.id), changeEntryOf(late))
    .set(keys.orderRevision(userId), Date.now())
    .commit();
  const page = (await memory.memoryOf(userId))?.answer({ q: "e" }, { offset: 0, limit: 5 });
  eq(page?.ids, [
    late.id,
    (await Array.fromAsync(kv.list({ prefix: keys.orders(userId) })))
      .map((e) => String(e.key.at(-1))).find((id) => id !== late.id),
  ]);
  equal(page?.total, 2);
});

Deno.test("a workspace over the memory's bound: every order of the range checked in KV, the same answers", async () => {
  await using kv = await Deno.openKv(":memory:");
  const created = await createUser(kv, { email: "big@example.com" });
  if (!created.ok) throw new Error("no user");
  const userId = created.user.id;
  const orders = Array.from(
    { length: 120 },
    (_, i) => orderAt(i, `Part${i} lamp`, ORDER_STATUSES[i % ORDER_STATUSES.length]),
  );
  await importOrders(kv, userId, orders);
  const held = new Map(orders.map((o) => [o.id, changeEntryOf(o) as Held]));
  const small = new SearchMemory(kv, 100);
  const large = new SearchMemory(kv);
  for (
    const f of [
      { q: "e" },
      { q: "1", status: "shipped" as const },
      { q: "#1", fromMs: BASE + 30 * 60_000, toMs: BASE + 90 * 60_000 },
    ]
  ) {
    const paging = { offset: 2, limit: 4 };
    const want = expected(held, f, 2, 4);
    const fromKv = await broadSearch(kv, userId, f, paging, small);
    eq({ ids: fromKv.ids, total: fromKv.total }, want, JSON.stringify(f));
    const fromMemory = await broadSearch(kv, userId, f, paging, large);
    eq({ ids: fromMemory.ids, total: fromMemory.total }, want, JSON.stringify(f));
  }
  equal(small.size, 0);
  equal(large.size, 120);
});
