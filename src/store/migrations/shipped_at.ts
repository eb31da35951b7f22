import { backfilledShippedAt, type Order } from "../../domain/order.ts";
import type { UserRecord } from "../../domain/user.ts";
import { insightScope } from "../insights.ts";
import { keys } from "../keys.ts";
import { writeChanges } from "../order_footprint.ts";
import type { BatchResult, Cursor, Migration, MigrationContext } from "./types.ts";
import { type OrderOf, orderBatch } from "./walk.ts";

const ORDERS_PER_BATCH = 200;
/** Orders per commit: each is checked, with the account and the lease. */
const ORDERS_PER_COMMIT = 8;
/** Event-log entries read per account and batch at most (the log keeps 7 days). */
const EVENTS_READ = 10_000;

/** Order id -> times of its `order.shipped` events still in the account's event log. */
async function shippedEvents(kv: Deno.Kv, userId: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const iter = kv.list<{ type?: string; createdAt?: string; data?: { order?: { id?: string } } }>(
    { prefix: keys.events(userId) },
    { limit: EVENTS_READ, reverse: true, batchSize: 500 },
  );
  for await (const { value } of iter) {
    const id = value?.data?.order?.id;
    if (value?.type !== "order.shipped" || typeof id !== "string" || !value.createdAt) continue;
    out.set(id, [...out.get(id) ?? [], value.createdAt]);
  }
  return out;
}

/** Writes `shippedAt` on one account's orders that need it; the number written. */
async function backfill(ctx: MigrationContext, userId: string, orders: OrderOf[]) {
  const user = await ctx.kv.get<UserRecord>(keys.user(userId));
  if (!user.value) {
    for (const { entry } of orders) ctx.skip(entry.key, "order of an account without a record");
    return { written: 0, conflict: false };
  }
  const events = await shippedEvents(ctx.kv, userId);
  const changes = orders.flatMap(({ entry }) => {
    const shippedAt = backfilledShippedAt(entry.value, events.get(entry.value.id) ?? []);
    return shippedAt ? [{ entry, after: { ...entry.value, shippedAt } as Order }] : [];
  });
  let written = 0;
  for (let i = 0; i < changes.length; i += ORDERS_PER_COMMIT) {
    const group = changes.slice(i, i + ORDERS_PER_COMMIT);
    const op = ctx.kv.atomic().check(user);
    for (const { entry } of group) op.check(entry);
    // The footprint difference moves the calendar's shipped count with the order.
    writeChanges(
      op,
      userId,
      group.map(({ entry, after }) => ({ before: entry.value, after })),
      insightScope(user.value),
    );
    if (!(await ctx.commit(op)).ok) return { written, conflict: true };
    written += group.length;
  }
  return { written, conflict: false };
}

async function batch(ctx: MigrationContext, cursor: Cursor | null): Promise<BatchResult> {
  const { orders, cursor: next } = await orderBatch(ctx.kv, cursor, ORDERS_PER_BATCH, ctx.skip);
  const byUser = Map.groupBy(orders, (o) => o.userId);
  let written = 0;
  for (const [userId, ofUser] of byUser) {
    const done = await backfill(ctx, userId, ofUser);
    written += done.written;
    // An order or the account changed since it was read: this batch is read again.
    if (done.conflict) return { cursor, counts: { written, conflicts: 1 } };
  }
  return { cursor: next, counts: { orders: orders.length, written } };
}

/**
 * Shipped and delivered orders stored before `shippedAt` existed get one, so the calendar
 * counts them; the sums that depend on it move in the same commits.
 */
export const shippedAt: Migration = {
  id: "shipped-at",
  description: "set shippedAt on shipped and delivered orders from their history",
  batch,
};
