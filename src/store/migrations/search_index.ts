/**
 * Orders stored before the `q` index existed get their postings and term counts
 * (orders/footprint.ts `searchIndexOf`), and the words new to their workspace their
 * vocabulary entries, committed first (an entry of a word without orders is harmless, a word
 * with orders must have its entries). An order counts as indexed when its first term's
 * posting is there; the commit checks the account's order revision (every order commit
 * rewrites it), so an order indexed meanwhile is never counted twice.
 */
import { addToCounter } from "../kv.ts";
import { commitVocabulary, searchIndexOf, vocabularyOf } from "../orders/footprint.ts";
import type { BatchResult, Cursor, Migration, MigrationContext } from "./types.ts";
import { checkedChunks, ConflictStreak } from "./chunks.ts";
import { orderBatch, type OrderOf } from "./walk.ts";

const ORDERS_PER_BATCH = 200;
/**
 * Orders per commit: up to 32 postings and 32 counts each (about 8 KB of keys at most), within
 * KV's 1,000 mutations and 80 KiB of keys per commit.
 */
const ORDERS_PER_COMMIT = 6;
const streak = new ConflictStreak();

type Indexed = { order: OrderOf; index: ReturnType<typeof searchIndexOf> };

/** The orders of one account whose index is not stored. */
async function unindexed(ctx: MigrationContext, orders: OrderOf[]): Promise<Indexed[]> {
  const all = orders
    .map((order) => ({ order, index: searchIndexOf(order.userId, order.entry.value) }))
    .filter(({ index }) => index.postings.length > 0);
  const out: Indexed[] = [];
  for (let i = 0; i < all.length; i += 10) {
    const part = all.slice(i, i + 10);
    const found = await ctx.kv.getMany(part.map(({ index }) => index.postings[0].key));
    out.push(...part.filter((_, j) => found[j].versionstamp === null));
  }
  return out;
}

async function batch(ctx: MigrationContext, cursor: Cursor | null): Promise<BatchResult> {
  const { orders, cursor: next } = await orderBatch(ctx.kv, cursor, ORDERS_PER_BATCH, ctx.skip);
  let added = 0;
  for (const ofUser of Map.groupBy(orders, (o) => o.userId).values()) {
    const missing = await unindexed(ctx, ofUser);
    const words = missing.flatMap(({ index }) => index.words);
    await commitVocabulary(ctx.kv, await vocabularyOf(ctx.kv, ofUser[0].userId, words), ctx.commit);
    const bytes = ({ index }: Indexed) =>
      index.postings.reduce((sum, p) => sum + JSON.stringify(p.value).length + 300, 0);
    const done = await checkedChunks(ctx, streak, [], missing, bytes, (op, chunk) => {
      const counts = new Map<string, { key: Deno.KvKey; n: number }>();
      for (const { index } of chunk) {
        for (const { key, value } of index.postings) op.set(key, value);
        for (const key of index.counts) {
          const id = JSON.stringify(key);
          counts.set(id, { key, n: (counts.get(id)?.n ?? 0) + 1 });
        }
      }
      for (const { key, n } of counts.values()) addToCounter(op, key, n);
    }, ORDERS_PER_COMMIT);
    added += done.written;
    // An order of the account changed since it was read: this batch is read again.
    if (!done.ok) return { done: false, cursor, counts: { added, conflicts: 1 } };
  }
  return { done: next === null, cursor: next, counts: { orders: orders.length, added } };
}

/** Every order gets its `q` index entries (postings and term counts). */
export const searchIndex: Migration = {
  id: "search-index",
  description: "index every order's search terms for q (postings and counts per term)",
  batch,
};
