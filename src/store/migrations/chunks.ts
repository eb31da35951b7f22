/**
 * How migrations commit what they change: in chunks bounded by count and by estimated bytes
 * (KV Connect refuses a commit over 800 KiB), each checked against the account's order
 * revision, or against each order after conflicts in a row.
 */
import type { MigrationContext } from "./types.ts";
import type { OrderOf } from "./walk.ts";

/** A migration's consecutive commits lost to concurrent changes. */
export class ConflictStreak {
  count = 0;
  /** After this many, commits check each order instead of the account's order revision. */
  static readonly NARROW_AFTER = 2;
  get narrow() {
    return this.count >= ConflictStreak.NARROW_AFTER;
  }
}

/** Items per commit: checking the account's revision, or (narrow) each of their orders. */
const WIDE_CHUNK = 50;
const NARROW_CHUNK = 8;
/** Estimated bytes per commit at most: KV Connect refuses a commit over 800 KiB. */
export const COMMIT_BYTES = 400_000;

/** Splits `items` into runs of at most `size` items and about `COMMIT_BYTES`. */
export function chunksOf<T>(items: T[], size: number, bytesOf: (item: T) => number): T[][] {
  const out: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const b = bytesOf(item);
    if (chunk.length && (chunk.length >= size || bytes + b > COMMIT_BYTES)) {
      out.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += b;
  }
  if (chunk.length) out.push(chunk);
  return out;
}

/**
 * Commits `items` (all of one account's orders, read after `items[0].order.revision`) in
 * chunks, with `checks` and, per chunk, the account's order revision: one check covers every
 * order read, since every order commit rewrites it. After conflicts in a row, a chunk checks its
 * own orders instead (at most 8 with the lease), so a busy account still makes progress.
 * `write` may rewrite the revision itself (an order change): the next chunk checks that one.
 * `bytesOf` estimates what an item writes, to keep a commit under KV Connect's size limit;
 * `maxItems` bounds a chunk further when an item writes many keys (KV's mutation limit).
 */
export async function checkedChunks<T extends { order: OrderOf }>(
  ctx: MigrationContext,
  streak: ConflictStreak,
  checks: Deno.AtomicCheck[],
  items: T[],
  bytesOf: (item: T) => number,
  write: (op: Deno.AtomicOperation, chunk: T[]) => void,
  maxItems = WIDE_CHUNK,
): Promise<{ ok: boolean; written: number }> {
  if (!items.length) return { ok: true, written: 0 };
  let revision = items[0].order.revision;
  const narrow = streak.narrow;
  let written = 0;
  for (
    const chunk of chunksOf(items, Math.min(maxItems, narrow ? NARROW_CHUNK : WIDE_CHUNK), bytesOf)
  ) {
    const op = ctx.kv.atomic().check(...checks);
    if (narrow) {
      const seen = new Set<string>();
      for (const { order } of chunk) {
        if (!seen.has(order.entry.value.id)) op.check(order.entry);
        seen.add(order.entry.value.id);
      }
    } else op.check(revision);
    write(op, chunk);
    const result = await ctx.commit(op);
    if (!result.ok) {
      streak.count++;
      return { ok: false, written };
    }
    streak.count = 0;
    if ((await ctx.kv.get(revision.key)).versionstamp === result.versionstamp) {
      revision = { ...revision, versionstamp: result.versionstamp };
    }
    written += chunk.length;
  }
  return { ok: true, written };
}
