/**
 * `q` answers are exact at every size (store/orders/search_read.ts, search_tally.ts): over
 * 10,000 orders each way a search can be read (a cover of several terms over 2,000 postings, a
 * cover over 10,000 postings with filters, every cover broad) gives the page and `total` of a
 * brute-force filter of the same orders with the domain's `matchesQuery`.
 */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import {
  newOrder,
  type Order,
  ORDER_STATUSES,
  type OrderStatus,
} from "../../src/domain/orders/order.ts";
import { matchesQuery, searchText } from "../../src/domain/orders/search_terms.ts";
import { newId } from "../../src/lib/ids.ts";
import { importOrders } from "../../src/store/orders/orders.ts";

const BASE = Date.parse("2025-01-01T00:00:00.000Z");
const DAY = 86_400_000;
/** Over 10,000 orders (and postings of one cover), past every former bound. */
const ORDERS = 10_600;

/** The item of order `i`: words of one cover, two of them in one order, and many distinct words. */
const itemOf = (i: number) =>
  [`Desk lamp ${i}`, `lamps x${i}`, "lamp lamps", `part${i}`, `Clamp ${i}`][i % 5];

/** Orders one minute apart from 2025-01-01 UTC (7.4 days), in every status. */
async function seeded(ctx: TestContext, userId: string): Promise<Order[]> {
  const made = Array.from({ length: ORDERS }, (_, i) => {
    const ms = BASE + i * 60_000;
    return newOrder(
      newId("ord", ms),
      {
        itemSummary: itemOf(i),
        status: ORDER_STATUSES[i % ORDER_STATUSES.length],
        receivedAt: new Date(ms).toISOString(),
      },
      {},
      "email",
      ms,
    );
  });
  await importOrders(ctx.kv, userId, made);
  return made;
}

interface Query {
  q: string;
  status?: OrderStatus;
  /** `from`/`to` calendar days (UTC, the account's timezone), `to` included. */
  from?: string;
  to?: string;
  offset?: number;
  limit?: number;
}

/** The page and total of a brute-force filter of `orders`, in the list's order. */
function expected(orders: Order[], query: Query) {
  const fromMs = query.from ? Date.parse(query.from) : -Infinity;
  const toMs = query.to ? Date.parse(query.to) + DAY : Infinity;
  const all = orders
    .filter((o) => {
      const ms = Date.parse(o.receivedAt);
      return matchesQuery(searchText(o), query.q) && ms >= fromMs && ms < toMs &&
        (!query.status || o.status === query.status);
    })
    .sort((a, b) => b.receivedAt.localeCompare(a.receivedAt) || b.id.localeCompare(a.id));
  const offset = query.offset ?? 0;
  return {
    ids: all.slice(offset, offset + (query.limit ?? 50)).map((o) => o.id),
    total: all.length,
  };
}

async function search(ctx: TestContext, token: string, query: Query) {
  const params = new URLSearchParams(
    Object.entries(query).map(([k, v]) => [k, String(v)]),
  );
  const res = await call<{ items: Order[]; total: number }>(
    ctx,
    "GET",
    `/api/orders?${params}`,
    { token },
  );
  equal(res.status, 200, JSON.stringify(res.body));
  return { ids: res.body.items.map((o) => o.id), total: res.body.total };
}

Deno.test("q over 10,600 orders: page and total exact by every way of reading", async (t) => {
  await using ctx = await testApp();
  const { user, token } = await signUp(ctx);
  const made = await seeded(ctx, user.id);
  const check = async (query: Query) => eq(await search(ctx, token, query), expected(made, query));

  await t.step(
    "a cover of several terms over 2,000 postings: an order with two counted once",
    async () => {
      // lamp, lamps (both in "lamp lamps") and clamp: 10,600 postings, 8,480 orders.
      equal(expected(made, { q: "lamp" }).total, 8_480);
      await check({ q: "lamp" });
      await check({ q: "lamp", offset: 3_000, limit: 7 });
      await check({ q: "lamps" });
    },
  );

  await t.step(
    "a cover over 10,000 postings with filters: its postings or the orders of the range, the fewer",
    async () => {
      await check({ q: "lamp", from: "2025-01-07", to: "2025-01-08" });
      await check({ q: "lamp", from: "2025-01-07", to: "2025-01-08", status: "delivered" });
      await check({ q: "lamp", status: "shipped", offset: 1_500, limit: 20 });
      await check({ q: "amp", status: "issue" });
      await check({ q: "lamp", from: "2025-01-02", to: "2025-01-02", offset: 40 });
      // A deep page of a read: its orders not kept while streaming, read by id after.
      await check({ q: "lamp", from: "2025-01-01", to: "2025-01-08", offset: 5_000, limit: 30 });
    },
  );

  await t.step("every cover broad, or a letter or two: the search memory answers", async () => {
    // "art" is inside 2,120 distinct words (part0 ... part10595): no cover is rare.
    await check({ q: "art" });
    await check({ q: "art", status: "shipped", offset: 100 });
    await check({ q: "art", from: "2025-01-03", to: "2025-01-04", limit: 5 });
    await check({ q: "t" });
    await check({ q: "t", offset: 2_110, limit: 20 });
    await check({ q: "1" });
    await check({ q: "1", status: "canceled", offset: 100 });
    await check({ q: "1", from: "2025-01-03", to: "2025-01-04" });
  });

  await t.step("a page past the last match is empty, with the total", async () => {
    await check({ q: "lamp", offset: 8_480 });
    await check({ q: "t", offset: 5_000 });
  });
});
