/**
 * Reading orders: pages of the time-ordered and per-status indexes, exact totals from counters
 * and time buckets, the search index for `q`, and whole-workspace reads (snapshot, export,
 * usage).
 */
import { type Order, ORDER_STATUSES, type OrderStatus } from "../../domain/orders/order.ts";
import { usageMonth } from "../../domain/billing/plan.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { keys } from "../keys.ts";
import {
  counterValue,
  getManyChunked,
  indexSelector,
  listValues,
  type Paging,
  readCounter,
} from "../kv.ts";
import { searchOrders } from "./search_index.ts";
import { ordersIn } from "./counts.ts";
import type { Item } from "../sections.ts";

export interface OrderQuery {
  status?: OrderStatus;
  /** Normalised search text; empty or absent means no search. */
  q?: string;
  /** Inclusive start and exclusive end of `receivedAt`, in ms. */
  fromMs?: number;
  toMs?: number;
}

/**
 * One page of orders, newest `receivedAt` first, and the exact number of matches. Without `q`
 * the page is a range of the time-ordered index (per status when filtered) and the total comes
 * from counters; with `q` both come from the search index (search_index.ts).
 */
export async function listOrders(
  kv: Deno.Kv,
  userId: string,
  query: OrderQuery,
  paging: Paging,
): Promise<{ items: Order[]; total: number }> {
  const { fromMs, toMs } = query;
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) return { items: [], total: 0 };
  if (query.q) {
    const { ids, orders, total } = await searchOrders(kv, userId, { ...query, q: query.q }, paging);
    // Only large orders are not in their postings: read by id.
    const missing = ids.filter((_, i) => !orders[i]);
    const read = new Map(
      (await getManyChunked<Order>(kv, missing.map((id) => keys.order(userId, id))))
        .flatMap((e) => e.value ? [[e.value.id, e.value] as const] : []),
    );
    return { items: ids.flatMap((id, i) => orders[i] ?? read.get(id) ?? []), total };
  }
  const prefix = query.status
    ? keys.ordersByStatus(userId, query.status)
    : keys.ordersByReceived(userId);
  const [items, total] = await Promise.all([
    pageOfIndex(kv, indexSelector(prefix, fromMs, toMs), paging),
    ordersIn(kv, userId, query),
  ]);
  return { items, total };
}

async function pageOfIndex(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  paging: Paging,
): Promise<Order[]> {
  const out: Order[] = [];
  let skip = paging.offset;
  const iter = kv.list<Order>(selector, {
    reverse: true,
    limit: paging.offset + paging.limit,
    batchSize: Math.min(1000, paging.offset + paging.limit),
  });
  for await (const e of iter) {
    if (skip > 0) skip--;
    else out.push(e.value);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Whole-workspace reads (snapshot, export, usage).

/** Every order of the workspace, newest `receivedAt` first. */
export function listAllOrders(kv: Deno.Kv, userId: string): Promise<Order[]> {
  return listValues<Order>(kv, { prefix: keys.ordersByReceived(userId) }, {
    reverse: true,
    batchSize: 1000,
  });
}

/** The workspace's number of orders, from its counter. */
export function countOrders(kv: Deno.Kv, userId: string): Promise<number> {
  return readCounter(kv, keys.orderCount(userId));
}

/** Orders per status, from the counters. */
export async function countByStatus(
  kv: Deno.Kv,
  userId: string,
): Promise<Record<OrderStatus, number>> {
  const entries = await kv.getMany<Deno.KvU64[]>(
    ORDER_STATUSES.map((s) => keys.orderStatusCount(userId, s)),
  );
  return Object.fromEntries(
    ORDER_STATUSES.map((s, i) => [s, counterValue(entries[i].value)]),
  ) as Record<OrderStatus, number>;
}

/** New orders the account created in the month `now` falls in (its timezone). */
export function ordersCreatedThisMonth(
  kv: Deno.Kv,
  user: UserRecord,
  now: number,
): Promise<number> {
  return readCounter(kv, keys.ordersCreatedInMonth(user.id, usageMonth(user, now)));
}

/** The snapshot's and the export's `orders`: every order, newest received first. */
export async function ordersSection(ctx: { kv: Deno.Kv; user: UserRecord }): Promise<Item[]> {
  return await listAllOrders(ctx.kv, ctx.user.id) as unknown as Item[];
}

/** The snapshot's `analytics`: order counts (all, by status) and their summed cost. */
export async function orderAnalytics(ctx: { kv: Deno.Kv; user: UserRecord }) {
  const [byStatus, totalOrders, totalCostCents] = await Promise.all([
    countByStatus(ctx.kv, ctx.user.id),
    readCounter(ctx.kv, keys.orderCount(ctx.user.id)),
    readCounter(ctx.kv, keys.valueCents(ctx.user.id)),
  ]);
  return { totalOrders, byStatus, totalCostCents };
}
