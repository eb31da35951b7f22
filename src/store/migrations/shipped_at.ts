import { backfilledShippedAt, type Order } from "../../domain/orders/order.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { insightScope } from "../insights/sums.ts";
import { keys } from "../keys.ts";
import { indexedOf, writeChanges } from "../orders/footprint.ts";
import type { BatchResult, Cursor, Migration, MigrationContext } from "./types.ts";
import { checkedChunks, ConflictStreak } from "./chunks.ts";
import { orderBatch, type OrderOf, userRecordProblem } from "./walk.ts";

const ORDERS_PER_BATCH = 200;
/** Commits lost in a row: past two, commits check each order (chunks.ts `checkedChunks`). */
const streak = new ConflictStreak();
/** Event-log entries read per account and batch at most (the log keeps 7 days). */
const EVENTS_READ = 10_000;

/**
 * The account the last batch read the event log of, per store: orders are walked account by
 * account, so each account's log is read once per run, not once per batch.
 */
const lastRead = new WeakMap<Deno.Kv, { userId: string; events: Map<string, string[]> }>();

/** Order id -> times of its `order.shipped` events still in the account's event log. */
async function shippedEvents(kv: Deno.Kv, userId: string): Promise<Map<string, string[]>> {
  const last = lastRead.get(kv);
  if (last?.userId === userId) return last.events;
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
  lastRead.set(kv, { userId, events: out });
  return out;
}

/** Writes `shippedAt` on one account's orders that need it; the number written. */
async function backfill(
  ctx: MigrationContext,
  userId: string,
  orders: OrderOf[],
): Promise<{ written: number; conflict: boolean }> {
  const user = await ctx.kv.get<UserRecord>(keys.user(userId));
  const problem = user.versionstamp ? userRecordProblem(user as Deno.KvEntry<unknown>) : "none";
  if (problem) {
    const why = `order of an account whose record is ${
      problem === "none" ? "missing" : "unreadable"
    }`;
    for (const { entry } of orders) ctx.skip(entry.key, why);
    return { written: 0, conflict: false };
  }
  const events = await shippedEvents(ctx.kv, userId);
  const changes = orders.flatMap((order) => {
    const { value } = order.entry;
    const shippedAt = backfilledShippedAt(value, events.get(value.id) ?? []);
    return shippedAt ? [{ order, after: { ...value, shippedAt } as Order }] : [];
  });
  // The footprint difference moves the calendar's shipped count with the order.
  // An order's change writes it and its two copies, besides small index and counter keys.
  const bytes = ({ after }: { after: Order }) => 3 * JSON.stringify(after).length + 2000;
  // Postings hold the order: an indexed order's are rewritten (its terms, so the counts and
  // vocabulary, stay); an order not yet indexed is left to the search-index migration. The
  // commits check the order revision, which an order indexed meanwhile has moved.
  const indexed = await indexedOf(ctx.kv, userId, changes.map(({ order }) => order.entry.value));
  const searched = changes.map((c, i) => ({ ...c, stored: indexed[i].stored }));
  const done = await checkedChunks(
    ctx,
    streak,
    [user],
    searched,
    bytes,
    (op, chunk) =>
      writeChanges(
        op,
        userId,
        chunk.map(({ order, after, stored }) => ({
          before: order.entry.value,
          after,
          search: stored ? "stored" : "untouched",
        })),
        insightScope(user.value!),
        [],
      ),
  );
  return { written: done.written, conflict: !done.ok };
}

async function batch(ctx: MigrationContext, cursor: Cursor | null): Promise<BatchResult> {
  const { orders, cursor: next } = await orderBatch(ctx.kv, cursor, ORDERS_PER_BATCH, ctx.skip);
  const byUser = Map.groupBy(orders, (o) => o.userId);
  let written = 0;
  for (const [userId, ofUser] of byUser) {
    const done = await backfill(ctx, userId, ofUser);
    written += done.written;
    // An order or the account changed since it was read: this batch is read again.
    if (done.conflict) return { done: false, cursor, counts: { written, conflicts: 1 } };
  }
  return { done: next === null, cursor: next, counts: { orders: orders.length, written } };
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
