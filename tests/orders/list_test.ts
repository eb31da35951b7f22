import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;
// deno-lint-ignore no-explicit-any -- as above
type Order = Record<string, any>;

const DAY = 86_400_000;
const BASE = Date.parse("2025-01-01T00:00:00.000Z");

async function list(ctx: TestContext, token: string, query = "") {
  const res = await call<Body>(ctx, "GET", `/api/orders${query}`, { token });
  equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The ids of the first page `q` finds. */
async function searchIds(ctx: TestContext, token: string, q: string): Promise<string[]> {
  return (await list(ctx, token, `?q=${encodeURIComponent(q)}`)).items.map((o: Order) => o.id);
}

async function create(ctx: TestContext, token: string, body: Body): Promise<Order> {
  const res = await call<Body>(ctx, "POST", "/api/orders", { token, body });
  equal(res.status, 201);
  return res.body.order;
}

Deno.test("the list envelope: newest receivedAt first, clamped limit and offset", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const made: Order[] = [];
  for (let i = 0; i < 5; i++) {
    made.push(
      await create(ctx, token, {
        itemSummary: `Item ${i}`,
        receivedAt: new Date(BASE + ((i * 3) % 5) * DAY).toISOString(),
      }),
    );
  }
  const newestFirst = [...made].sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
  eq(await list(ctx, token), {
    items: newestFirst,
    total: 5,
    limit: 50,
    offset: 0,
    hasMore: false,
  });
  const page = await list(ctx, token, "?limit=2&offset=1");
  eq(page, { items: newestFirst.slice(1, 3), total: 5, limit: 2, offset: 1, hasMore: true });
  const clamps: Array<[string, number, number]> = [
    ["?limit=0", 50, 0],
    ["?limit=abc&offset=xyz", 50, 0],
    ["?limit=-4", 1, 0],
    ["?limit=500", 200, 0],
    ["?limit=2.7&offset=-3", 2, 0],
    ["?offset=4", 50, 4],
    ["?limit=1&limit=2&offset=1&offset=2", 50, 0],
  ];
  for (const [query, limit, offset] of clamps) {
    const body = await list(ctx, token, query);
    eq([body.limit, body.offset, body.total], [limit, offset, 5], query);
    eq(body.items, newestFirst.slice(offset, offset + limit));
    equal(body.hasMore, offset + body.items.length < 5);
  }
  eq((await list(ctx, token, "?offset=10")).items, []);
  // Orders received at the same instant: newest created first.
  const same = new Date(BASE + 9 * DAY).toISOString();
  const first = await create(ctx, token, { itemSummary: "first", receivedAt: same });
  const second = await create(ctx, token, { itemSummary: "second", receivedAt: same });
  eq((await list(ctx, token, "?limit=2")).items.map((o: Order) => o.id), [second.id, first.id]);
});

Deno.test("status filter; an unknown status is ignored", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const a = await create(ctx, token, { itemSummary: "a", status: "delivered" });
  const b = await create(ctx, token, { itemSummary: "b", trackingNumber: "1Z" });
  await create(ctx, token, { itemSummary: "c" });
  const shipped = await list(ctx, token, "?status=shipped");
  eq([shipped.total, shipped.items], [1, [b]]);
  eq((await list(ctx, token, "?status=delivered")).items, [a]);
  eq((await list(ctx, token, "?status=canceled")).total, 0);
  equal((await list(ctx, token, "?status=SHIPPED")).total, 3);
  equal((await list(ctx, token, "?status=lost")).total, 3);
  equal((await list(ctx, token, "?status=")).total, 3);
  equal((await list(ctx, token, "?status=shipped&status=delivered")).total, 3);
});

Deno.test("q searches order number, item summary, store and tracking number", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const a = await create(ctx, token, {
    itemSummary: "Red Kettle",
    orderNumber: "#112-555",
    store: "Kitchen World",
  });
  const b = await create(ctx, token, { itemSummary: "Blue cup", trackingNumber: "1ZQX99" });
  await create(ctx, token, { itemSummary: "Teapot", total: "kettle price", carrier: "kettle" });
  const ids = (q: string) => searchIds(ctx, token, q);
  eq(await ids("KETTLE"), [a.id]);
  eq(await ids("112-555"), [a.id]);
  eq(await ids("#112-555"), [a.id]);
  eq(await ids("kitchen"), [a.id]);
  eq(await ids("1zqx"), [b.id]);
  eq(await ids("  cup "), [b.id]);
  eq(await ids("nothing"), []);
  eq((await ids("")).length, 3);
  eq(await ids("555"), [a.id]);
  const page = await list(ctx, token, "?q=e&limit=1&offset=1");
  eq([page.total, page.items.length, page.hasMore], [3, 1, true]);
});

Deno.test("q is a substring of the text: inside a word, across words, one letter", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const a = await create(ctx, token, { itemSummary: "Red Kettle", orderNumber: "#112-555" });
  const b = await create(ctx, token, { trackingNumber: "1ZQX99", itemSummary: "Blue cup" });
  const c = await create(ctx, token, { itemSummary: "Teapot" });
  const d = await create(ctx, token, { itemSummary: "Desk lamp", store: "Lamp Store" });
  const e = await create(ctx, token, { itemSummary: "Standing desk lamps" });
  const ids = (q: string) => searchIds(ctx, token, q);
  // Inside a word, and at its end.
  eq(await ids("ettl"), [a.id]);
  eq(await ids("TLE"), [a.id]);
  eq(await ids("eapo"), [c.id]);
  eq(await ids("zqx9"), [b.id]);
  // The first word may end a longer word, the last start one, those between are whole.
  eq(await ids("sk lamp"), [e.id, d.id]);
  eq(await ids("k lam"), [e.id, d.id]);
  eq(await ids("esk lamps"), [e.id]);
  eq(await ids("ing desk la"), [e.id]);
  eq(await ids("ing desk lamps x"), []);
  eq(await ids("d kettle"), [a.id]);
  eq(await ids("de lamp"), []);
  // Only what the text holds: one space where it has one, the end of one field and the next.
  eq(await ids("desk  lamp"), []);
  eq(await ids("lamp s"), [d.id]);
  eq(await ids("lamp\nlamp"), [d.id]);
  // One letter.
  eq(await ids("k"), [e.id, d.id, a.id]);
  eq(await ids("q"), [b.id]);
  // The `#` rule: `#` and a part of the order number.
  eq(await ids("#55"), [a.id]);
  eq(await ids("#112-5"), [a.id]);
  eq(await ids("#kettle"), []);
});

Deno.test("q: an edited or deleted order leaves no match behind", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const a = await create(ctx, token, { itemSummary: "Red Kettle" });
  const b = await create(ctx, token, { itemSummary: "Small kettle" });
  const ids = (q: string) => searchIds(ctx, token, q);
  eq(await ids("ettl"), [b.id, a.id]);
  const patched = await call(ctx, "PATCH", `/api/orders/${a.id}`, {
    token,
    body: { itemSummary: "Green pot" },
  });
  equal(patched.status, 200);
  equal((await call(ctx, "DELETE", `/api/orders/${b.id}`, { token })).status, 200);
  eq(await ids("ettl"), []);
  eq(await ids("d ket"), []);
  eq(await ids("een po"), [a.id]);
  eq(await ids("reen"), [a.id]);
  // The word comes back with a new order: found again, by its inside too.
  const c = await create(ctx, token, { itemSummary: "Kettle" });
  eq(await ids("ettl"), [c.id]);
});

Deno.test("q longer than any indexed word: found in a longer word, else nothing, never an error", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const long = "Super" + "calli".repeat(12) + "docious"; // one 72-character word: not indexed alone
  const a = await create(ctx, token, { itemSummary: `${long} kite` });
  const b = await create(ctx, token, { itemSummary: "Plain kite" });
  eq(await searchIds(ctx, token, long.slice(3, 63)), [a.id]);
  eq(await searchIds(ctx, token, `${long.slice(10)} ki`), [a.id]);
  eq(await searchIds(ctx, token, "kite"), [b.id, a.id]);
  eq(await searchIds(ctx, token, "x".repeat(3000)), []);
  eq(await searchIds(ctx, token, `kite ${"k".repeat(3000)}`), []);
  eq(await searchIds(ctx, token, "\u{1F600}".repeat(30)), []);
});

Deno.test("q finds a tracking number written with hyphens by either form", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const a = await create(ctx, token, { itemSummary: "Tea bowl", trackingNumber: "4837-2615-0935" });
  const ids = (q: string) => searchIds(ctx, token, q);
  eq(await ids("4837-2615-0935"), [a.id]);
  eq(await ids("483726150935"), [a.id]);
  eq(await ids("4837-2615"), [a.id]);
});

Deno.test("from/to are calendar dates of the account's timezone, both inclusive", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx, { timezone: "Asia/Kathmandu" }); // UTC+05:45
  const at = async (iso: string) =>
    (await create(ctx, token, { itemSummary: iso, receivedAt: iso })).id;
  const beforeMidnight = await at("2025-03-01T18:14:59.999Z"); // 2025-03-01 23:59 local
  const atMidnight = await at("2025-03-01T18:15:00.000Z"); // 2025-03-02 00:00 local
  const lateOnSecond = await at("2025-03-02T18:14:00.000Z"); // 2025-03-02 23:59 local
  const third = await at("2025-03-03T00:00:00.000Z");
  const ids = async (query: string) => {
    const body = await list(ctx, token, query);
    equal(body.total, body.items.length);
    return body.items.map((o: Order) => o.id);
  };
  eq(await ids("?from=2025-03-02&to=2025-03-02"), [lateOnSecond, atMidnight]);
  eq(await ids("?from=2025-03-02"), [third, lateOnSecond, atMidnight]);
  eq(await ids("?to=2025-03-01"), [beforeMidnight]);
  eq(await ids("?from=2025-03-03&to=2025-03-01"), []);
  eq(await ids("?from=2025-03-02&status=ordered&q=18:14"), [lateOnSecond]);
  for (const bad of ["from=2025-3-2", "to=yesterday", "from=2025-02-30"]) {
    const res = await call(ctx, "GET", `/api/orders?${bad}`, { token });
    equal(res.status, 400);
    equal((res.body.error as string).startsWith(bad.split("=")[0] + ": "), true);
  }
});

Deno.test("from/to take every four-digit year: the first century and 9999 included", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx, { timezone: "America/New_York" });
  const at = async (iso: string) =>
    (await create(ctx, token, { itemSummary: iso, receivedAt: iso })).id;
  const early = await at("0001-06-01T12:00:00.000Z");
  const now = await at("2025-03-01T12:00:00.000Z");
  const last = await at("9999-12-31T23:59:59.999Z"); // 9999-12-31 18:59 local
  const ids = async (query: string) => {
    const body = await list(ctx, token, query);
    equal(body.total, body.items.length);
    return body.items.map((o: Order) => o.id);
  };
  eq(await ids("?from=0001-01-01&to=0001-12-31"), [early]);
  eq(await ids("?from=0001-01-01"), [last, now, early]);
  eq(await ids("?to=9999-12-31"), [last, now, early]);
  eq(await ids("?from=9999-12-31&to=9999-12-31"), [last]);
  eq(await ids("?from=0002-01-01&to=9998-12-31"), [now]);
});

Deno.test("another account's orders are never listed", async () => {
  await using ctx = await testApp();
  const a = await signUp(ctx);
  const b = await signUp(ctx);
  await create(ctx, a.token, {
    itemSummary: "mine",
    status: "shipped",
    receivedAt: "2025-01-05T00:00:00Z",
  });
  for (const query of ["", "?status=shipped", "?q=mine", "?from=2025-01-01&to=2025-01-31"]) {
    eq(await list(ctx, b.token, query), {
      items: [],
      total: 0,
      limit: 50,
      offset: 0,
      hasMore: false,
    });
  }
});

// ---------------------------------------------------------------------------------------------
// `total` and the items match a plain filter over a model of the workspace, for every
// combination of filters, after creates, merges, edits (status, receivedAt, text) and deletes.

const STATUSES = ["ordered", "shipped", "delivered", "canceled", "issue"];

function localDate(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(iso));
}

function expected(model: Map<string, Order>, tz: string, f: Record<string, string>): Order[] {
  return [...model.values()].filter((o) => {
    if (f.status && o.status !== f.status) return false;
    const day = localDate(o.receivedAt, tz);
    if (f.from && day < f.from) return false;
    if (f.to && day > f.to) return false;
    if (f.q) {
      const number = (o.orderNumber ?? "").trim().replace(/^#/, "").trim();
      const text = [number, o.itemSummary, o.store ?? "", o.trackingNumber ?? ""].join("\n");
      if (!text.toLowerCase().includes(f.q)) return false;
    }
    return true;
  }).sort((a, b) =>
    b.receivedAt.localeCompare(a.receivedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

for (const tz of ["America/New_York", "Asia/Kathmandu"]) {
  Deno.test(`total is exact for every filter combination (${tz})`, async () => {
    await using ctx = await testApp();
    const { token } = await signUp(ctx, { timezone: tz });
    const model = new Map<string, Order>();
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const when = () => new Date(BASE + rand(120) * DAY + rand(96) * 15 * 60_000).toISOString();
    const words = ["alpha", "beta", "gamma"];

    await Promise.all(Array.from({ length: 60 }, async (_, i) => {
      const order = await create(ctx, token, {
        itemSummary: `${words[i % 3]} item ${i}`,
        orderNumber: `N-${i}`,
        store: i % 4 ? "Shop" : "Market",
        status: STATUSES[rand(5)],
        receivedAt: when(),
      });
      model.set(order.id, order);
    }));
    const ids = [...model.keys()];
    // Concurrent edits, merges and deletes.
    await Promise.all(
      ids.slice(0, 30).map(async (id, i) => {
        if (i % 5 === 0) {
          const res = await call(ctx, "DELETE", `/api/orders/${id}`, { token });
          equal(res.status, 200);
          model.delete(id);
          return;
        }
        const body = i % 3 === 0
          ? { status: STATUSES[rand(5)], receivedAt: when() }
          : i % 3 === 1
          ? { itemSummary: `${words[(i + 1) % 3]} renamed`, trackingNumber: `TRK${i}` }
          : { store: "Market" };
        const res = await call<Body>(ctx, "PATCH", `/api/orders/${id}`, { token, body });
        equal(res.status, 200);
        model.set(id, res.body.order);
      }),
    );
    for (const id of ids.slice(40, 45)) {
      const number = model.get(id)!.orderNumber;
      const res = await call<Body>(ctx, "POST", "/api/orders", {
        token,
        body: { itemSummary: "x", orderNumber: number, status: "delivered" },
      });
      equal(res.status, 200);
      model.set(id, res.body.order);
    }

    const filters: Record<string, string>[] = [];
    const ranges: Record<string, string>[] = [{}, { from: "2025-02-01" }, { to: "2025-02-15" }, {
      from: "2025-01-10",
      to: "2025-03-20",
    }, { from: "2025-02-03", to: "2025-02-03" }];
    for (const status of ["", ...STATUSES]) {
      for (const q of ["", "alpha", "market"]) {
        for (const range of ranges) {
          filters.push({ ...range, ...(status && { status }), ...(q && { q }) });
        }
      }
    }
    for (const f of filters) {
      const query = "?limit=200&" + new URLSearchParams(f).toString();
      const want = expected(model, tz, f);
      const body = await list(ctx, token, query);
      equal(body.total, want.length, query);
      eq(body.items.map((o: Order) => o.id), want.map((o) => o.id), query);
      const page = await list(ctx, token, query.replace("limit=200", "limit=3&offset=2"));
      eq(page.items.map((o: Order) => o.id), want.slice(2, 5).map((o) => o.id), query);
    }
  });
}
