/**
 * Orders in KV. Every change (create, merge, PATCH, delete) is one commit holding the order,
 * its index copies, every counter that lists and the plan cap read, a change entry for the
 * search cache and the change's events, so none of them can disagree with the order.
 *
 * `ingestOrder` is the one create-or-merge entry point for every source (manual, email, chat).
 */
import type { UserRecord } from "../domain/user.ts";
import {
  applyPatch,
  mergeEvents,
  mergeMessage,
  newOrder,
  normaliseOrderNumber,
  type Order,
  ORDER_STATUSES,
  type OrderFields,
  type OrderPatch,
  type OrderStatus,
  patchEvents,
  type StatusSignals,
} from "../domain/order.ts";
import { BUCKET_LEVELS_MS, bucketsOf, planRange } from "../domain/buckets.ts";
import { type BillingSettings, monthlyCap, type PlanLimit, usageMonth } from "../domain/plan.ts";
import { addEvents } from "../events/emit.ts";
import { buildEvent, type EventEnvelope, type OrderSource } from "../events/types.ts";
import { unauthorized } from "../http/errors.ts";
import type { Paging } from "../http/paging.ts";
import { newId } from "../lib/ids.ts";
import { keys } from "./keys.ts";
import {
  addToCounter,
  ConflictError,
  counterValue,
  getManyChunked,
  listValues,
  lookup,
  lookupMany,
  MAX_CHECKS,
  readCounter,
  withRetry,
} from "./kv.ts";
import type { Item } from "./snapshot.ts";
import { CHANGE_TTL_MS, type ChangeEntry, type OrderSearch, searchEntry } from "./order_search.ts";

/** Many writers can race for one order (a burst of messages with one number): retry long. */
const ATTEMPTS = 400;

// ---------------------------------------------------------------------------------------------
// The footprint of an order: every key its existence sets and every counter it adds to.

interface Footprint {
  entries: Map<string, { key: Deno.KvKey; value: unknown }>;
  counters: Map<string, { key: Deno.KvKey; amount: number }>;
}

function footprint(userId: string, order: Order | null): Footprint {
  const fp: Footprint = { entries: new Map(), counters: new Map() };
  if (!order) return fp;
  const entry = (key: Deno.KvKey, value: unknown) =>
    fp.entries.set(JSON.stringify(key), { key, value });
  const count = (key: Deno.KvKey, amount = 1) => {
    if (amount) fp.counters.set(JSON.stringify(key), { key, amount });
  };
  const ms = Date.parse(order.receivedAt);
  entry(keys.order(userId, order.id), order);
  entry(keys.orderByReceived(userId, ms, order.id), order);
  entry(keys.orderByStatus(userId, order.status, ms, order.id), order);
  if (order.orderNumber) {
    entry(keys.orderByNumber(userId, normaliseOrderNumber(order.orderNumber)), order.id);
  }
  count(keys.orderCount(userId));
  count(keys.stat("orders"));
  count(keys.orderStatusCount(userId, order.status));
  count(keys.valueCents(userId), order.costCents ?? 0);
  count(keys.stat("value_cents"), order.costCents ?? 0);
  bucketsOf(ms).forEach((bucket, level) => {
    count(keys.orderBucket(userId, "all", level, bucket));
    count(keys.orderBucket(userId, order.status, level, bucket));
  });
  return fp;
}

interface Change {
  before: Order | null;
  after: Order | null;
}

/**
 * Adds order moves to `op` (`before` or `after` null: create, delete): keys an order no longer
 * has are deleted, its copies rewritten, and every counter moved once by the summed difference.
 */
function writeChanges(op: Deno.AtomicOperation, userId: string, changes: Change[]): void {
  const deltas = new Map<string, { key: Deno.KvKey; amount: number }>();
  const add = (id: string, key: Deno.KvKey, amount: number) =>
    deltas.set(id, { key, amount: (deltas.get(id)?.amount ?? 0) + amount });
  const realNow = Date.now();
  for (const { before, after } of changes) {
    const old = footprint(userId, before);
    const next = footprint(userId, after);
    for (const [id, { key }] of old.entries) if (!next.entries.has(id)) op.delete(key);
    for (const [id, { key, value }] of next.entries) {
      // The number index holds just the id: no need to rewrite it when it stays.
      if (typeof value === "object" || !old.entries.has(id)) op.set(key, value);
    }
    for (const [id, c] of old.counters) add(id, c.key, -c.amount);
    for (const [id, c] of next.counters) add(id, c.key, c.amount);
    const change: ChangeEntry = after ? searchEntry(after) : { deleted: true };
    const id = (after ?? before)!.id;
    op.set(keys.orderChange(userId, realNow, id), change, { expireIn: CHANGE_TTL_MS });
  }
  for (const { key, amount } of deltas.values()) addToCounter(op, key, amount);
  op.set(keys.orderRevision(userId), realNow);
}

const writeChange = (
  op: Deno.AtomicOperation,
  userId: string,
  before: Order | null,
  after: Order | null,
) => writeChanges(op, userId, [{ before, after }]);

// ---------------------------------------------------------------------------------------------
// Create or merge.

export interface IngestInput {
  userId: string;
  source: OrderSource;
  /** The message's fields; `itemSummary` is what a new order starts with. */
  fields: OrderFields & { itemSummary: string };
  signals?: StatusSignals;
}

export interface IngestOptions {
  now: number;
  billing: BillingSettings;
}

export type IngestResult =
  | { ok: true; order: Order; merged: boolean; events: EventEnvelope[] }
  | { ok: false; limit: PlanLimit };

/**
 * The one create-or-merge operation. A message whose order number matches an order of the
 * workspace merges into it (never blocked by the plan cap); otherwise a new order is created,
 * unless the free plan's monthly cap is used up. Exactly one order exists per number however
 * many arrive at once: the number index is checked in the commit that creates the order.
 */
export function ingestOrder(
  kv: Deno.Kv,
  input: IngestInput,
  options: IngestOptions,
): Promise<IngestResult> {
  const { userId, source, fields } = input;
  const signals = input.signals ?? {};
  const { now, billing } = options;
  const number = fields.orderNumber ? normaliseOrderNumber(fields.orderNumber) : "";
  const event = (type: EventEnvelope["type"], order: Order) =>
    buildEvent(type, userId, { order, source }, now);

  return withRetry<IngestResult>(async () => {
    const reads: Deno.KvKey[] = [keys.user(userId)];
    if (number) reads.push(keys.orderByNumber(userId, number));
    const [user, byNumber] = await kv.getMany<unknown[]>(reads) as [
      Deno.KvEntryMaybe<UserRecord>,
      Deno.KvEntryMaybe<string> | undefined,
    ];
    if (!user.value) throw unauthorized();

    const existing = byNumber?.value
      ? await kv.get<Order>(keys.order(userId, byNumber.value))
      : null;
    if (existing?.value) {
      const before = existing.value;
      const { order, changed } = mergeMessage(before, fields, signals, now);
      const events = mergeEvents(before, order).map((type) => event(type, order));
      const op = kv.atomic().check(existing, user);
      if (changed) writeChange(op, userId, before, order);
      addEvents(kv, op, events);
      return { commit: await op.commit(), value: { ok: true, order, merged: true, events } };
    }

    const cap = monthlyCap(user.value, billing);
    const monthKey = keys.ordersCreatedInMonth(userId, usageMonth(user.value, now));
    let month: Deno.KvEntryMaybe<Deno.KvU64> | null = null;
    if (cap !== null) {
      month = await kv.get<Deno.KvU64>(monthKey);
      const used = counterValue(month.value);
      const limit: PlanLimit = { reason: "plan_limit_reached", cap, used };
      if (used >= cap) return { commit: null, value: { ok: false, limit } };
    }
    const order = newOrder(newId("ord", now), fields, signals, source, now);
    const events = [event("order.created", order)];
    const op = kv.atomic().check(user);
    // A number read as free (or pointing at an order just deleted) must still be so.
    if (byNumber) op.check(byNumber);
    if (month) op.check(month);
    writeChange(op, userId, null, order);
    addToCounter(op, monthKey, 1);
    addEvents(kv, op, events);
    return { commit: await op.commit(), value: { ok: true, order, merged: false, events } };
  }, ATTEMPTS);
}

/**
 * Bulk creation for backfills and benchmark seeding: orders the caller built (new ids) are
 * written ten per commit, each one's number checked free, with every index and counter but no
 * events and no plan count. Throws ConflictError when a number is taken (nothing of that
 * batch is written).
 */
export async function importOrders(kv: Deno.Kv, userId: string, orders: Order[]): Promise<void> {
  for (let i = 0; i < orders.length; i += MAX_CHECKS) {
    const batch = orders.slice(i, i + MAX_CHECKS);
    const op = kv.atomic();
    for (const { orderNumber } of batch) {
      if (orderNumber) {
        const key = keys.orderByNumber(userId, normaliseOrderNumber(orderNumber));
        op.check({ key, versionstamp: null });
      }
    }
    writeChanges(op, userId, batch.map((after) => ({ before: null, after })));
    if (!(await op.commit()).ok) throw new ConflictError("An imported order number is taken");
  }
}

// ---------------------------------------------------------------------------------------------
// Read, edit, delete.

export async function getOrder(kv: Deno.Kv, userId: string, id: string): Promise<Order | null> {
  return (await lookup<Order>(kv, keys.order(userId, id))).value;
}

/**
 * An order with its account record. Changes check both: the platform counters they move are
 * settled by account deletion in a commit that removes the record, so none may land after it.
 */
function readWithAccount(kv: Deno.Kv, userId: string, id: string) {
  return lookupMany<[Order, UserRecord]>(kv, [keys.order(userId, id), keys.user(userId)]);
}

export type UpdateResult =
  | { ok: true; order: Order; events: EventEnvelope[] }
  | { ok: false; reason: "not_found" | "number_taken" };

/**
 * A user's edit (PATCH). Fires `order.updated` with the applied patch, then `order.shipped` /
 * `order.delivered` when the status really moved there. A new order number must be free.
 */
export function updateOrder(
  kv: Deno.Kv,
  userId: string,
  id: string,
  patch: OrderPatch,
  now: number,
): Promise<UpdateResult> {
  return withRetry<UpdateResult>(async () => {
    const [entry, user] = await readWithAccount(kv, userId, id);
    const before = entry.value;
    if (!before || !user.value) return { commit: null, value: { ok: false, reason: "not_found" } };
    const { order, applied } = applyPatch(before, patch, now);
    const op = kv.atomic().check(entry, user);
    const number = order.orderNumber ? normaliseOrderNumber(order.orderNumber) : "";
    const oldNumber = before.orderNumber ? normaliseOrderNumber(before.orderNumber) : "";
    if (number && number !== oldNumber) {
      const owner = await kv.get<string>(keys.orderByNumber(userId, number));
      if (owner.value) return { commit: null, value: { ok: false, reason: "number_taken" } };
      op.check(owner);
    }
    writeChange(op, userId, before, order);
    const events = patchEvents(before, order).map((type) =>
      buildEvent(
        type,
        userId,
        type === "order.updated"
          ? { order, source: "manual", patch: applied }
          : { order, source: "manual" },
        now,
      )
    );
    addEvents(kv, op, events);
    return { commit: await op.commit(), value: { ok: true, order, events } };
  }, ATTEMPTS);
}

/** Deletes an order with its indexes and counts; fires no event. False when there is none. */
export function deleteOrder(kv: Deno.Kv, userId: string, id: string): Promise<boolean> {
  return withRetry(async () => {
    const [entry, user] = await readWithAccount(kv, userId, id);
    if (!entry.value || !user.value) return { commit: null, value: false };
    const op = kv.atomic().check(entry, user);
    writeChange(op, userId, entry.value, null);
    return { commit: await op.commit(), value: true };
  });
}

// ---------------------------------------------------------------------------------------------
// Listing.

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
 * from counters; with `q` both come from the search cache.
 */
export async function listOrders(
  kv: Deno.Kv,
  search: OrderSearch,
  userId: string,
  query: OrderQuery,
  paging: Paging,
): Promise<{ items: Order[]; total: number }> {
  const { fromMs, toMs } = query;
  if (fromMs !== undefined && toMs !== undefined && fromMs >= toMs) return { items: [], total: 0 };
  if (query.q) {
    const hits = await search.find(userId, { ...query, query: query.q });
    const page = hits.slice(paging.offset, paging.offset + paging.limit);
    const found = await getManyChunked<Order>(kv, page.map((h) => keys.order(userId, h.id)));
    return {
      items: found.flatMap((e) => e.value ? [e.value] : []),
      total: hits.length,
    };
  }
  const prefix = query.status
    ? keys.ordersByStatus(userId, query.status)
    : keys.ordersByReceived(userId);
  const [items, total] = await Promise.all([
    pageOfIndex(kv, indexSelector(prefix, fromMs, toMs), paging),
    fromMs === undefined && toMs === undefined
      ? readCounter(
        kv,
        query.status ? keys.orderStatusCount(userId, query.status) : keys.orderCount(userId),
      )
      : countReceived(kv, userId, query.status, fromMs, toMs),
  ]);
  return { items, total };
}

function indexSelector(prefix: Deno.KvKey, fromMs?: number, toMs?: number): Deno.KvListSelector {
  const start = fromMs === undefined ? undefined : [...prefix, fromMs];
  const end = toMs === undefined ? undefined : [...prefix, toMs];
  if (start && end) return { start, end };
  if (start) return { prefix, start };
  if (end) return { prefix, end };
  return { prefix };
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

// ---------------------------------------------------------------------------------------------
// Whole-workspace reads (snapshot, export, usage).

/** Every order of the workspace, newest `receivedAt` first. */
export function listAllOrders(kv: Deno.Kv, userId: string): Promise<Order[]> {
  return listValues<Order>(kv, { prefix: keys.ordersByReceived(userId) }, {
    reverse: true,
    batchSize: 1000,
  });
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
