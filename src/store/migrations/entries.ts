/**
 * The batch of an index backfill: for every order, the footprint entries of one key family
 * (`family(userId)`, a prefix from keys.ts) that are missing are written. A new index the
 * footprint writes gets its entries for older orders with one migration built on this.
 */
import { footprintEntries } from "../orders/footprint.ts";
import type { BatchResult, Cursor, MigrationContext } from "./types.ts";
import { checkedChunks, ConflictStreak } from "./chunks.ts";
import { orderBatch, type OrderOf } from "./walk.ts";

/** Orders read per batch. */
const ORDERS_PER_BATCH = 200;

const under = (key: Deno.KvKey, prefix: Deno.KvKey) => prefix.every((part, i) => key[i] === part);

/** The family's entries of `orders` that are not stored, each with its order. */
async function missingEntries(
  ctx: MigrationContext,
  orders: OrderOf[],
  family: (userId: string) => Deno.KvKey,
) {
  const wanted = orders.flatMap((order) =>
    [...footprintEntries(order.userId, order.entry.value).values()]
      .filter(({ key }) => under(key, family(order.userId)))
      .map((e) => ({ ...e, order }))
  );
  const found: boolean[] = [];
  for (let i = 0; i < wanted.length; i += 10) {
    const entries = await ctx.kv.getMany(wanted.slice(i, i + 10).map((w) => w.key));
    found.push(...entries.map((e) => e.versionstamp !== null));
  }
  return { wanted: wanted.length, missing: wanted.filter((_, i) => !found[i]) };
}

export function backfillEntries(family: (userId: string) => Deno.KvKey) {
  const streak = new ConflictStreak();
  return async (ctx: MigrationContext, cursor: Cursor | null): Promise<BatchResult> => {
    const { orders, cursor: next } = await orderBatch(ctx.kv, cursor, ORDERS_PER_BATCH, ctx.skip);
    let added = 0;
    let indexed = 0;
    for (const ofUser of Map.groupBy(orders, (o) => o.userId).values()) {
      const { wanted, missing } = await missingEntries(ctx, ofUser, family);
      indexed += wanted;
      const bytes = (e: { key: Deno.KvKey; value: unknown }) =>
        JSON.stringify(e.value).length + 200;
      const done = await checkedChunks(ctx, streak, [], missing, bytes, (op, chunk) => {
        for (const { key, value } of chunk) op.set(key, value);
      });
      added += done.written;
      // An order of the account changed since it was read: this batch is read again.
      if (!done.ok) return { done: false, cursor, counts: { added, conflicts: 1 } };
    }
    return { done: next === null, cursor: next, counts: { orders: orders.length, indexed, added } };
  };
}
