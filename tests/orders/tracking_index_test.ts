/**
 * The order footprint's tracking-number index: one key per order with a tracking number,
 * written, moved and removed in the order's own commits.
 */
import { deepStrictEqual as eq } from "node:assert/strict";
import type { Order } from "../../src/domain/orders/order.ts";
import { keys } from "../../src/store/keys.ts";
import { orderIdsByTracking } from "../../src/store/tracking/answers.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

async function indexOf(ctx: TestContext, userId: string) {
  const out: string[] = [];
  for await (const e of ctx.kv.list<string>({ prefix: ["ws", userId, "order_by_tracking"] })) {
    out.push(`${String(e.key[3])} ${e.value}`);
  }
  return out.sort();
}

Deno.test("orders are indexed by their normalised tracking number, and the index follows changes", async () => {
  await using ctx = await testApp();
  const { user, token } = await signUp(ctx);
  const create = async (body: Record<string, unknown>) =>
    (await call<{ order: Order }>(ctx, "POST", "/api/orders", { token, body })).body.order;
  const a = await create({ itemSummary: "a", trackingNumber: "1z5r8 9390-3575 67127" });
  const b = await create({ itemSummary: "b", trackingNumber: "1Z5R89390357567127" });
  await create({ itemSummary: "no number" });
  await create({ itemSummary: "not indexable", trackingNumber: "AB/12" });
  eq(
    await indexOf(ctx, user.id),
    [`1Z5R89390357567127 ${a.id}`, `1Z5R89390357567127 ${b.id}`].sort(),
  );
  eq((await orderIdsByTracking(ctx.kv, user.id, "1Z5R89390357567127")).sort(), [a.id, b.id].sort());

  // A new number moves the entry; an unrelated edit leaves it; deletion removes it.
  await call(ctx, "PATCH", `/api/orders/${a.id}`, {
    token,
    body: { trackingNumber: "777 888 999 000" },
  });
  await call(ctx, "PATCH", `/api/orders/${b.id}`, { token, body: { store: "Shop" } });
  eq(await indexOf(ctx, user.id), [`1Z5R89390357567127 ${b.id}`, `777888999000 ${a.id}`].sort());
  await call(ctx, "DELETE", `/api/orders/${b.id}`, { token });
  eq(await indexOf(ctx, user.id), [`777888999000 ${a.id}`]);
  eq((await ctx.kv.get(keys.orderByTracking(user.id, "777888999000", a.id))).value, a.id);
});

Deno.test("any write of an order rewrites its index entries: a missing one is repaired by an edit", async () => {
  await using ctx = await testApp();
  const { user, token } = await signUp(ctx);
  const created = await call<{ order: Order }>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "a", orderNumber: "N-1", trackingNumber: "1Z5R89390357567127" },
  });
  const id = created.body.order.id;
  // As a release before the index left it: the order without its entries.
  await ctx.kv.delete(keys.orderByTracking(user.id, "1Z5R89390357567127", id));
  await ctx.kv.delete(keys.orderByNumber(user.id, "n-1"));
  eq(await indexOf(ctx, user.id), []);
  // An edit of another field writes them back.
  await call(ctx, "PATCH", `/api/orders/${id}`, { token, body: { salePriceCents: 100 } });
  eq(await indexOf(ctx, user.id), [`1Z5R89390357567127 ${id}`]);
  eq((await ctx.kv.get(keys.orderByNumber(user.id, "n-1"))).value, id);
});
