/**
 * Order changes in KV. Every change (create, merge, PATCH, delete) is one atomic operation holding
 * the order, its footprint difference (`footprint.ts`: copies, indexes, the `q` index, counters)
 * and the change's events, so none of them can disagree with the order. Changes made at the same
 * moment share a KV commit where they are compatible (`group_commit.ts`).
 *
 * `ingestOrder` is the one create-or-merge entry point for every source (manual, email, chat);
 * `mergeIntoOrder` merges a message into an order known by id (carrier lookups). Both take an
 * `InCommit` extension: the caller's own checks and writes (an intake message's dedupe key, its
 * log entry, its stored raw message) commit with the order or not at all.
 */
import type { UserRecord } from "../../domain/account/user.ts";
import {
  applyPatch,
  mergeEvents,
  mergeMessage,
  type MessageFields,
  newOrder,
  normaliseOrderNumber,
  type Order,
  type OrderPatch,
  type OrderSource,
  patchEvents,
  type StatusSignals,
} from "../../domain/orders/order.ts";
import {
  type BillingSettings,
  monthlyCap,
  type PlanLimit,
  usageMonth,
} from "../../domain/billing/plan.ts";
import { trackingKey } from "../../domain/tracking/number.ts";
import {
  buildEvent,
  buildEventOf,
  type EventEnvelope,
  type EventSpec,
} from "../../domain/events/envelope.ts";
import { newId } from "../../lib/ids.ts";
import { keys } from "../keys.ts";
import {
  addToCounter,
  commit,
  counterValue,
  type EventCommitter,
  lookup,
  lookupMany,
  MAX_CHECKS,
  withRetry,
} from "../kv.ts";
import { writeNewChanges, writeStoredChange } from "./footprint.ts";
import { sharedAtomic } from "../group_commit.ts";
import { insightScope } from "../insights/sums.ts";

/** Many writers can race for one order (a burst of messages with one number): retry long. */
const ATTEMPTS = 400;

/** Keys an extension may have checked: the order's own commit uses at most four of the ten. */
export const MAX_EXTENSION_KEYS = MAX_CHECKS - 4;

/**
 * A caller's share of an order commit. `keys` are read with the account in every attempt and
 * checked in the commit, so what the caller decided on cannot change under it. `stop` may end
 * the operation before anything is written (a message seen before); `write` adds the caller's
 * entries once the outcome is known.
 */
export interface InCommit<Stop = unknown> {
  keys: Deno.KvKey[];
  stop?(entries: Deno.KvEntryMaybe<unknown>[]): Stop | undefined;
  write(op: Deno.AtomicOperation, outcome: StoredOutcome): void;
}

/** What the commit stores: the order after the change, and before it when it was a merge. */
export interface StoredOutcome {
  order: Order;
  merged: boolean;
  before?: Order;
}

export interface IngestInput {
  userId: string;
  source: OrderSource;
  /** The message's fields; `itemSummary` is what a new order starts with. */
  fields: MessageFields & { itemSummary: string };
  signals?: StatusSignals;
  extension?: InCommit;
}

/** What every change needs: the clock, and the event bus its commit goes through. */
export interface ChangeOptions {
  now: number;
  events: EventCommitter;
}

export interface IngestOptions extends ChangeOptions {
  billing: BillingSettings;
  /** Fire no events (mailbox rebuilds, history backfills). */
  quiet?: boolean;
}

/** Why nothing was stored: the plan cap, a deleted account, or the extension's `stop`. */
export type NotStored =
  | { ok: false; reason: "plan_limit"; limit: PlanLimit }
  | { ok: false; reason: "account_gone" }
  | { ok: false; reason: "stopped"; stop: unknown };

export type IngestResult =
  | { ok: true; order: Order; merged: boolean; events: EventEnvelope[] }
  | NotStored;

/** The events of a merge, as type and data, in firing order. */
export type MergeEventsOf = (before: Order, after: Order) => EventSpec[];

const mergeEventsFor = (source: OrderSource): MergeEventsOf => (before, after) =>
  mergeEvents(before, after).map((type) => ({ type, data: { order: after, source } }) as EventSpec);

interface ReadState {
  user: Deno.KvEntryMaybe<UserRecord>;
  extra: Deno.KvEntryMaybe<unknown>[];
}

/** The account and the extension's keys (plus `more`), in one read. */
async function readState(
  kv: Deno.Kv,
  userId: string,
  ext: InCommit | undefined,
  more: Deno.KvKey[],
) {
  const extKeys = ext?.keys ?? [];
  if (extKeys.length > MAX_EXTENSION_KEYS) throw new RangeError("too many extension keys");
  const entries = await lookupMany<unknown[]>(kv, [keys.user(userId), ...more, ...extKeys]);
  const state: ReadState = {
    user: entries[0] as Deno.KvEntryMaybe<UserRecord>,
    extra: entries.slice(1 + more.length),
  };
  return { state, more: entries.slice(1, 1 + more.length) };
}

/** The commit-free outcomes every change checks first: a gone account, the extension's stop. */
function notStored(state: ReadState, ext: InCommit | undefined): NotStored | null {
  if (!state.user.value) return { ok: false, reason: "account_gone" };
  const stop = ext?.stop?.(state.extra);
  return stop === undefined ? null : { ok: false, reason: "stopped", stop };
}

/** Merges `fields` into `before` in a commit checking the order, the account and the extension. */
async function commitMerge(
  kv: Deno.Kv,
  existing: Deno.KvEntry<Order>,
  state: ReadState,
  message: { fields: MessageFields; signals: StatusSignals; extension?: InCommit },
  eventsOf: MergeEventsOf | null,
  { now, events: bus }: ChangeOptions,
) {
  const before = existing.value;
  const userId = state.user.value!.id;
  const { order, changed } = mergeMessage(before, message.fields, message.signals, now);
  const events = (eventsOf?.(before, order) ?? []).map((spec) => buildEventOf(spec, userId, now));
  const op = sharedAtomic(kv).check(existing, state.user, ...state.extra);
  if (changed) {
    await writeStoredChange(kv, op, userId, before, order, insightScope(state.user.value!));
  }
  message.extension?.write(op, { order, merged: true, before });
  const value: IngestResult = { ok: true, order, merged: true, events };
  return { commit: await bus.commit(op, events), value };
}

/**
 * A received message without an order number merges into the order that already has its
 * tracking number (CONTRACT "Order fields added by intake"): the oldest such order, or none.
 * Manual creates never do: the spec makes each of them a new order.
 */
async function orderWithTracking(
  kv: Deno.Kv,
  userId: string,
  fields: MessageFields,
): Promise<string | null> {
  const key = fields.trackingNumber ? trackingKey(fields.trackingNumber) : null;
  if (!key) return null;
  for await (
    const e of kv.list<string>({ prefix: keys.ordersByTracking(userId, key) }, { limit: 1 })
  ) {
    return e.value;
  }
  return null;
}

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
  const { userId, source, fields, extension } = input;
  const signals = input.signals ?? {};
  const { now, billing } = options;
  const number = fields.orderNumber ? normaliseOrderNumber(fields.orderNumber) : "";

  return withRetry<IngestResult>(async () => {
    const { state, more } = await readState(
      kv,
      userId,
      extension,
      number ? [keys.orderByNumber(userId, number)] : [],
    );
    const stopped = notStored(state, extension);
    if (stopped) return { commit: null, value: stopped };
    const byNumber = more[0] as Deno.KvEntryMaybe<string> | undefined;

    const existingId = byNumber?.value ??
      (number || source === "manual" ? null : await orderWithTracking(kv, userId, fields));
    const existing = existingId ? await kv.get<Order>(keys.order(userId, existingId)) : null;
    if (existing?.value) {
      const message = { fields, signals, extension };
      const eventsOf = options.quiet ? null : mergeEventsFor(source);
      return await commitMerge(kv, existing, state, message, eventsOf, options);
    }

    const user = state.user.value!;
    const cap = monthlyCap(user, billing);
    const monthKey = keys.ordersCreatedInMonth(userId, usageMonth(user, now));
    let month: Deno.KvEntryMaybe<Deno.KvU64> | null = null;
    if (cap !== null) {
      month = await kv.get<Deno.KvU64>(monthKey);
      const used = counterValue(month.value);
      const limit: PlanLimit = { reason: "plan_limit_reached", cap, used };
      if (used >= cap) return { commit: null, value: { ok: false, reason: "plan_limit", limit } };
    }
    const order = newOrder(newId("ord", now), fields, signals, source, now);
    const events = options.quiet
      ? []
      : [buildEvent("order.created", userId, { order, source }, now)];
    const op = sharedAtomic(kv).check(state.user, ...state.extra);
    // A number read as free (or pointing at an order just deleted) must still be so.
    if (byNumber) op.check(byNumber);
    if (month) op.check(month);
    await writeNewChanges(kv, op, userId, [{ before: null, after: order }], insightScope(user));
    addToCounter(op, monthKey, 1);
    extension?.write(op, { order, merged: false });
    const value: IngestResult = { ok: true, order, merged: false, events };
    return { commit: await options.events.commit(op, events), value };
  }, ATTEMPTS);
}

export interface MergeByIdInput {
  userId: string;
  orderId: string;
  source: OrderSource;
  fields: MessageFields;
  signals?: StatusSignals;
  extension?: InCommit;
  /** The events the merge fires; by default those of a merge by number; null for none. */
  events?: MergeEventsOf | null;
}

/**
 * Merges a message into the order with this id, by the same rules as a merge by number
 * (carrier lookups: refreshed tracking fields and status signals). `not_found` when the order
 * does not exist (any more).
 */
export function mergeIntoOrder(
  kv: Deno.Kv,
  input: MergeByIdInput,
  options: ChangeOptions,
): Promise<IngestResult | { ok: false; reason: "not_found" }> {
  const { userId, orderId, extension } = input;
  const eventsOf = input.events === undefined ? mergeEventsFor(input.source) : input.events;
  const message = { fields: input.fields, signals: input.signals ?? {}, extension };
  return withRetry<IngestResult | { ok: false; reason: "not_found" }>(async () => {
    const { state, more } = await readState(kv, userId, extension, [keys.order(userId, orderId)]);
    const stopped = notStored(state, extension);
    if (stopped) return { commit: null, value: stopped };
    const existing = more[0] as Deno.KvEntryMaybe<Order>;
    if (!existing.value) return { commit: null, value: { ok: false, reason: "not_found" } };
    return await commitMerge(
      kv,
      existing as Deno.KvEntry<Order>,
      state,
      message,
      eventsOf,
      options,
    );
  }, ATTEMPTS);
}

export { IMPORT_BATCH, importOrders } from "./import.ts";

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
  { now, events: bus }: ChangeOptions,
): Promise<UpdateResult> {
  return withRetry<UpdateResult>(async () => {
    const [entry, user] = await readWithAccount(kv, userId, id);
    const before = entry.value;
    if (!before || !user.value) return { commit: null, value: { ok: false, reason: "not_found" } };
    const { order, applied } = applyPatch(before, patch, now);
    const op = sharedAtomic(kv).check(entry, user);
    const number = order.orderNumber ? normaliseOrderNumber(order.orderNumber) : "";
    const oldNumber = before.orderNumber ? normaliseOrderNumber(before.orderNumber) : "";
    if (number && number !== oldNumber) {
      const owner = await kv.get<string>(keys.orderByNumber(userId, number));
      if (owner.value) return { commit: null, value: { ok: false, reason: "number_taken" } };
      op.check(owner);
    }
    await writeStoredChange(kv, op, userId, before, order, insightScope(user.value));
    const events = patchEvents(before, order).map((type) =>
      buildEventOf(
        type === "order.updated"
          ? { type, data: { order, source: "manual", patch: applied } }
          : { type, data: { order, source: "manual" } } as EventSpec,
        userId,
        now,
      )
    );
    return { commit: await bus.commit(op, events), value: { ok: true, order, events } };
  }, ATTEMPTS);
}

/**
 * Rewrites an order to what `revise` makes of it (null: leave it), with its footprint and
 * no events (reparse). `not_found` when there is no such order.
 */
export function rewriteOrder(
  kv: Deno.Kv,
  userId: string,
  id: string,
  revise: (order: Order) => Order | null,
): Promise<"changed" | "unchanged" | "not_found"> {
  return withRetry<"changed" | "unchanged" | "not_found">(async () => {
    const [entry, user] = await readWithAccount(kv, userId, id);
    if (!entry.value || !user.value) return { commit: null, value: "not_found" };
    const next = revise(entry.value);
    if (!next) return { commit: null, value: "unchanged" };
    const op = sharedAtomic(kv).check(entry, user);
    await writeStoredChange(kv, op, userId, entry.value, next, insightScope(user.value));
    return { commit: await commit(op), value: "changed" };
  }, ATTEMPTS);
}

/** Deletes an order with its indexes and counts; fires no event. False when there is none. */
export function deleteOrder(kv: Deno.Kv, userId: string, id: string): Promise<boolean> {
  return withRetry(async () => {
    const [entry, user] = await readWithAccount(kv, userId, id);
    if (!entry.value || !user.value) return { commit: null, value: false };
    const op = sharedAtomic(kv).check(entry, user);
    await writeStoredChange(kv, op, userId, entry.value, null, insightScope(user.value));
    return { commit: await commit(op), value: true };
  });
}
