/**
 * The batch of an index backfill: for every order, the footprint entries of one key family
 * (`family(userId)`, a prefix from keys.ts) that are missing are written, each order's in a
 * commit that checks the order is unchanged. A new index the footprint writes gets its entries
 * for older orders with one migration built on this.
 */
import { footprintEntries } from "../order_footprint.ts";
import type { BatchResult, Cursor, MigrationContext } from "./types.ts";
import { orderBatch } from "./walk.ts";

/** Orders read per batch. */
const ORDERS_PER_BATCH = 200;
/** Orders written per commit: each is checked, and the lease takes one more check. */
const ORDERS_PER_COMMIT = 8;

const under = (key: Deno.KvKey, prefix: Deno.KvKey) =>
  prefix.every((part, i) => key[i] === part);

export function backfillEntries(family: (userId: string) => Deno.KvKey) {
  return async (ctx: MigrationContext, cursor: Cursor | null): Promise<BatchResult> => {
    const { orders, cursor: next } = await orderBatch(ctx.kv, cursor, ORDERS_PER_BATCH, ctx.skip);
    const wanted = orders.map(({ userId, entry }) => ({
      entry,
      entries: [...footprintEntries(userId, entry.value).values()]
        .filter(({ key }) => under(key, family(userId))),
    })).filter((w) => w.entries.length > 0);
    const found = await Promise.all(
      wanted.map(async (w) => (await ctx.kv.getMany(w.entries.map((e) => e.key))).map((e) => !!e.versionstamp)),
    );
    const missing = wanted
      .map((w, i) => ({ entry: w.entry, entries: w.entries.filter((_, j) => !found[i][j]) }))
      .filter((w) => w.entries.length > 0);
    let added = 0;
    for (let i = 0; i < missing.length; i += ORDERS_PER_COMMIT) {
      const group = missing.slice(i, i + ORDERS_PER_COMMIT);
      const op = ctx.kv.atomic();
      for (const { entry, entries } of group) {
        op.check(entry);
        for (const { key, value } of entries) op.set(key, value);
      }
      // An order changed since it was read: this batch is read again (what was added stays).
      if (!(await ctx.commit(op)).ok) return { cursor, counts: { added, conflicts: 1 } };
      added += group.reduce((n, w) => n + w.entries.length, 0);
    }
    return { cursor: next, counts: { orders: orders.length, indexed: wanted.length, added } };
  };
}
