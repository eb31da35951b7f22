/**
 * How many orders a filter's range holds (status, `receivedAt` range): the list's exact total
 * without `q`, and what a `q` search weighs its postings against (search_tally.ts).
 */
import { BUCKET_LEVELS_MS, planRange } from "../../domain/orders/buckets.ts";
import type { OrderStatus } from "../../domain/orders/order.ts";
import { keys } from "../keys.ts";
import { counterValue, readCounter } from "../kv.ts";

export interface OrderRange {
  status?: OrderStatus;
  /** Inclusive start and exclusive end of `receivedAt`, in ms. */
  fromMs?: number;
  toMs?: number;
}

/** The orders in `range`: a counter without times, else the time buckets. */
export function ordersIn(kv: Deno.Kv, userId: string, range: OrderRange): Promise<number> {
  const { status, fromMs, toMs } = range;
  if (fromMs === undefined && toMs === undefined) {
    return readCounter(
      kv,
      status ? keys.orderStatusCount(userId, status) : keys.orderCount(userId),
    );
  }
  return countReceived(kv, userId, status, fromMs, toMs);
}

/**
 * Orders received in `[fromMs, toMs)` (status optional), from the bucket counters. An open end
 * is closed at the first or last order, widened to the coarsest bucket boundary: buckets hold
 * nothing beyond the orders, so the sum stays exact with the fewest reads.
 */
async function countReceived(
  kv: Deno.Kv,
  userId: string,
  status: OrderStatus | undefined,
  fromMs: number | undefined,
  toMs: number | undefined,
): Promise<number> {
  const prefix = status ? keys.ordersByStatus(userId, status) : keys.ordersByReceived(userId);
  const coarsest = BUCKET_LEVELS_MS[BUCKET_LEVELS_MS.length - 1];
  const edge = async (reverse: boolean) => {
    for await (const e of kv.list({ prefix }, { limit: 1, reverse })) return Number(e.key.at(-2));
    return null;
  };
  const [first, last] = await Promise.all([
    fromMs === undefined ? edge(false) : fromMs,
    toMs === undefined ? edge(true) : toMs,
  ]);
  if (first === null || last === null) return 0;
  const from = fromMs ?? Math.floor(first / coarsest) * coarsest;
  const to = toMs ?? (Math.floor(last / coarsest) + 1) * coarsest;
  const dim = status ?? "all";
  const plan = planRange(from, to);
  const sums = await Promise.all([
    ...plan.buckets.map(async ({ level, from, to }) => {
      let sum = 0;
      const selector = {
        start: keys.orderBucket(userId, dim, level, from),
        end: keys.orderBucket(userId, dim, level, to),
      };
      for await (const e of kv.list<Deno.KvU64>(selector, { batchSize: 1000 })) {
        sum += counterValue(e.value);
      }
      return sum;
    }),
    ...plan.raw.map(async ([a, b]) => {
      let n = 0;
      for await (const _ of kv.list({ start: [...prefix, a], end: [...prefix, b] })) n++;
      return n;
    }),
  ]);
  return sums.reduce((a, b) => a + b, 0);
}
