/**
 * Bulk creation of orders the caller built (backfills, benchmark seeding): every index and
 * counter of each order, in commits of six, without events or the plan count.
 */
import type { UserRecord } from "../../domain/account/user.ts";
import { normaliseOrderNumber, type Order } from "../../domain/orders/order.ts";
import { ConflictError } from "../../errors.ts";
import { keys } from "../keys.ts";
import { commit, MAX_CHECKS, withRetry } from "../kv.ts";
import { commitVocabulary, vocabularyOf, wordsAdded, writeChanges } from "./footprint.ts";
import { insightScope } from "../insights/sums.ts";

/**
 * Orders per import commit: one check per order number and one for the account (its timezone
 * places the sums) stay within MAX_CHECKS, and the footprints of orders with 32 long search
 * terms each (about 85 keys, 8 KB of keys) within KV's 1,000 mutations and 80 KiB of keys.
 */
export const IMPORT_BATCH = Math.min(MAX_CHECKS - 1, 6);
/** Vocabulary entries an import commit holds beside its six orders (about 16 KB of keys). */
const IMPORT_VOCABULARY = 200;

/**
 * Bulk creation for backfills and benchmark seeding: orders the caller built (new ids) are
 * written six per commit (`IMPORT_BATCH`), each one's number checked free, with every index
 * and counter but no events and no plan count. Throws ConflictError when a number is taken (nothing of that
 * batch is written).
 */
export async function importOrders(kv: Deno.Kv, userId: string, orders: Order[]): Promise<void> {
  for (let i = 0; i < orders.length; i += IMPORT_BATCH) {
    const batch = orders.slice(i, i + IMPORT_BATCH);
    const numbers = batch.flatMap(({ orderNumber }) =>
      orderNumber ? [keys.orderByNumber(userId, normaliseOrderNumber(orderNumber))] : []
    );
    const changes = batch.map((after) => ({ before: null, after }));
    // Beside the orders' keys when it fits KV's limits, else committed first, on its own.
    const vocabulary = await vocabularyOf(kv, userId, wordsAdded(userId, changes));
    const inCommit = vocabulary.length <= IMPORT_VOCABULARY ? vocabulary : [];
    if (!inCommit.length) await commitVocabulary(kv, vocabulary);
    await withRetry(async () => {
      const user = await kv.get<UserRecord>(keys.user(userId));
      if (!user.value) throw new ConflictError("The account is gone");
      const op = kv.atomic().check(user);
      for (const key of numbers) op.check({ key, versionstamp: null });
      writeChanges(op, userId, changes, insightScope(user.value), inCommit);
      const result = await commit(op);
      if (!result.ok && (await kv.getMany(numbers)).some((e) => e.versionstamp)) {
        throw new ConflictError("An imported order number is taken");
      }
      return { commit: result, value: undefined };
    });
  }
}
