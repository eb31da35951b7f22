import { deepStrictEqual as eq, equal, rejects } from "node:assert/strict";
import { newOrder } from "../../src/domain/orders/order.ts";
import { listEvents } from "../../src/events/emit.ts";
import { newId } from "../../src/lib/ids.ts";
import { keys } from "../../src/store/keys.ts";
import { ConflictError } from "../../src/errors.ts";
import { readCounter } from "../../src/store/kv.ts";
import { countByStatus, listOrders } from "../../src/store/orders/list.ts";
import { importOrders } from "../../src/store/orders/orders.ts";
import { createUser } from "../../src/store/account/users.ts";

const BASE = Date.parse("2025-01-01T00:00:00.000Z");

function orders(from: number, to: number) {
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    const ms = BASE + i * 7 * 60_000;
    return newOrder(
      newId("ord", ms),
      {
        itemSummary: `Item ${i}`,
        orderNumber: `N-${i}`,
        costCents: 10,
        receivedAt: new Date(ms).toISOString(),
        status: i % 2 ? "shipped" : "ordered",
      },
      {},
      "email",
      ms,
    );
  });
}

Deno.test("importOrders writes orders with every index and counter, and no events", async () => {
  using kv = await Deno.openKv(":memory:");
  const created = await createUser(kv, { email: "i@example.com" });
  if (!created.ok) throw new Error("no user");
  const userId = created.user.id;
  await importOrders(kv, userId, orders(0, 25));
  equal(await readCounter(kv, keys.orderCount(userId)), 25);
  equal(await readCounter(kv, keys.stat("orders")), 25);
  equal(await readCounter(kv, keys.valueCents(userId)), 250);
  eq(await countByStatus(kv, userId), {
    ordered: 13,
    shipped: 12,
    delivered: 0,
    canceled: 0,
    issue: 0,
  });
  const paging = { limit: 5, offset: 0 };
  const range = { fromMs: BASE + 70 * 60_000, toMs: BASE + 140 * 60_000 };
  equal((await listOrders(kv, userId, range, paging)).total, 10);
  equal((await listOrders(kv, userId, { ...range, status: "shipped" }, paging)).total, 5);
  equal((await listOrders(kv, userId, { q: "item 2" }, paging)).total, 6);
  eq(await listEvents(kv, userId), []);

  // A taken number fails its whole batch of ten.
  await rejects(importOrders(kv, userId, [...orders(25, 30), ...orders(24, 25)]), ConflictError);
  equal(await readCounter(kv, keys.orderCount(userId)), 25);
});
