/**
 * Order rules as pure functions: creation from a message, merging a later message into an
 * existing order, PATCH edits, the status machine and which events a change fires.
 * docs/orders.md explains the decisions the spec leaves open.
 */
import type { EventType } from "../events/types.ts";
import { isWebUrl } from "./web_url.ts";
import { detectCarrier } from "../tracking/number.ts";

export const ORDER_STATUSES = ["ordered", "shipped", "delivered", "canceled", "issue"] as const;
export type OrderStatus = typeof ORDER_STATUSES[number];

/** The channels an order can come from (`source` of the order and of its events). */
export const ORDER_SOURCES = ["manual", "email", "chat"] as const;
export type OrderSource = typeof ORDER_SOURCES[number];

export function isOrderStatus(value: unknown): value is OrderStatus {
  return (ORDER_STATUSES as readonly unknown[]).includes(value);
}

/** Every field a PATCH may set; each one sent is recorded in `userEdited`. */
export const EDITABLE_FIELDS = [
  "itemSummary",
  "orderNumber",
  "store",
  "trackingNumber",
  "carrier",
  "total",
  "price",
  "costCents",
  "salePriceCents",
  "receivedAt",
  "estimatedDelivery",
  "actualDelivery",
  "status",
  "imageUrl",
  "size",
  "quantity",
  "trackingUrl",
] as const;
export type EditableField = typeof EDITABLE_FIELDS[number];

export interface Order {
  id: string;
  status: OrderStatus;
  itemSummary: string;
  orderNumber?: string;
  store?: string;
  trackingNumber?: string;
  carrier?: string;
  /** Display money, copied from the source; never computed with. */
  total?: string;
  price?: string;
  costCents?: number;
  salePriceCents?: number;
  receivedAt: string;
  /** Calendar dates. */
  estimatedDelivery?: string;
  actualDelivery?: string;
  /** Product image URL, size and quantity (integer >= 1), as the message states them. */
  imageUrl?: string;
  size?: string;
  quantity?: number;
  /** The carrier's tracking page for the tracking number. */
  trackingUrl?: string;
  /** The email source (`email_`) or bot (`bot_`) the order came from; set by intake only. */
  sourceId?: string;
  /** Fields the user set by PATCH: later messages never overwrite them. Sorted. */
  userEdited: EditableField[];
  /** The channel that created the order. */
  source: OrderSource;
  /** When the order moved to `shipped` (the calendar's shipped count); set by the service. */
  shippedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** What an incoming message (or a manual create) says about an order: the editable fields. */
export type OrderFields = Partial<Pick<Order, EditableField>>;

/** What a received message says: the editable fields and the source it came through. */
export type MessageFields = OrderFields & Pick<Order, "sourceId">;

/** Status news a parsed message carries besides its fields. */
export interface StatusSignals {
  shipped?: boolean;
  delivered?: boolean;
  canceled?: boolean;
  issue?: boolean;
}
type Signal = keyof StatusSignals;

/** Order numbers match after trimming, ignoring case and a leading `#`. */
export function normaliseOrderNumber(raw: string): string {
  return raw.trim().replace(/^#/, "").trim().toLowerCase();
}

/**
 * Descriptive facts fixed when the order is placed: a later message only fills them in when
 * the order has none yet.
 */
export const FILL_ONLY_FIELDS = [
  "itemSummary",
  "orderNumber",
  "store",
  "total",
  "price",
  "costCents",
  "salePriceCents",
  "receivedAt",
  "imageUrl",
  "size",
  "quantity",
  "sourceId",
] as const satisfies readonly (keyof MessageFields)[];

/** Facts that move while the order travels: a later message brings the newer value. */
export const REFRESHED_FIELDS = [
  "trackingNumber",
  "carrier",
  "estimatedDelivery",
  "actualDelivery",
  "trackingUrl",
] as const satisfies readonly (keyof MessageFields)[];

/**
 * The statuses a message signal moves an order out of. Messages never move an order out of
 * `delivered` or `canceled`; `issue` is left by delivery, cancellation or the user.
 */
const SIGNAL_MOVES_FROM: Record<Signal, readonly OrderStatus[]> = {
  delivered: ["ordered", "shipped", "issue"],
  canceled: ["ordered", "shipped", "issue"],
  issue: ["ordered", "shipped"],
  shipped: ["ordered"],
};
/** When one message carries several signals, the furthest-reaching one that applies wins. */
const SIGNAL_PRECEDENCE: readonly Signal[] = ["delivered", "canceled", "issue", "shipped"];

/**
 * The signals of a message: its explicit ones, its `status` field read as a signal
 * (`ordered` says nothing), and a tracking number, which means the order shipped.
 */
export function signalsOf(fields: OrderFields, signals: StatusSignals = {}): StatusSignals {
  const out: StatusSignals = { ...signals };
  if (fields.status && fields.status !== "ordered") out[fields.status] = true;
  if (fields.trackingNumber) out.shipped = true;
  return out;
}

/** Where the signals move an order that is in `current` (unchanged when none applies). */
export function statusAfterSignals(current: OrderStatus, signals: StatusSignals): OrderStatus {
  for (const signal of SIGNAL_PRECEDENCE) {
    if (signals[signal] && SIGNAL_MOVES_FROM[signal].includes(current)) return signal;
  }
  return current;
}

/** Status events of a real status change: repeats and other moves fire nothing. */
export function statusEvents(
  before: OrderStatus,
  after: OrderStatus,
): ("order.shipped" | "order.delivered")[] {
  if (before === after) return [];
  if (after === "shipped" && before !== "delivered") return ["order.shipped"];
  if (after === "delivered") return ["order.delivered"];
  return [];
}

/**
 * Records the move to `shipped` on `next`: the time it happened when the status just moved
 * there, kept while the order travels on, removed when it goes back to `ordered` (it never
 * shipped after all).
 */
function withShipMove(before: OrderStatus | null, next: Order, at: string): Order {
  if (next.status === "shipped" && before !== "shipped" && !next.shippedAt) next.shippedAt = at;
  if (next.status === "ordered") delete next.shippedAt;
  return next;
}

/** The order fields that are links: kept only when they are web URLs (`isWebUrl`). */
export const LINK_FIELDS = ["imageUrl", "trackingUrl"] as const satisfies readonly EditableField[];

/**
 * A message's fields with every link that is not an `http:`/`https:` URL left out (a
 * `javascript:` or `data:` image from an email table, a custom template or a chat embed). The
 * ingest seam: creating an order from a message, merging one in and re-reading one all start
 * here, so intake never stores such a link, whichever reader produced it.
 */
export function webLinksOnly<T extends MessageFields>(fields: T): T {
  const bad = LINK_FIELDS.filter((f) => fields[f] !== undefined && !isWebUrl(fields[f]!));
  if (bad.length === 0) return fields;
  const out = { ...fields };
  for (const f of bad) delete out[f];
  return out;
}

function definedFields(fields: MessageFields): Partial<Order> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && k !== "status") out[k] = v;
  return out as Partial<Order>;
}

/**
 * A new order from its first message. An explicit `status` is taken as given; otherwise the
 * message's signals move it on from `ordered` (a tracking number means `shipped`).
 */
/** The carrier given, else the one the tracking number's format names (if any). */
function carrierOf(fields: OrderFields): { carrier?: string } {
  if (fields.carrier) return { carrier: fields.carrier };
  if (!fields.trackingNumber) return {};
  const detected = detectCarrier(fields.trackingNumber);
  return detected.valid ? { carrier: detected.carrier } : {};
}

export function newOrder(
  id: string,
  fields: MessageFields & { itemSummary: string },
  signals: StatusSignals,
  source: OrderSource,
  now: number,
): Order {
  fields = webLinksOnly(fields);
  const at = new Date(now).toISOString();
  const order: Order = {
    id,
    status: fields.status ?? statusAfterSignals("ordered", signalsOf(fields, signals)),
    ...definedFields(fields),
    ...carrierOf(fields),
    itemSummary: fields.itemSummary,
    receivedAt: fields.receivedAt ?? at,
    userEdited: [],
    source,
    createdAt: at,
    updatedAt: at,
  };
  // Created shipped: the message that says so is the move.
  return withShipMove(null, order, order.receivedAt);
}

/**
 * Merges a later message into an existing order: fill-only fields are filled when empty,
 * refreshed fields take the message's value, fields in `userEdited` are never touched, and the
 * status moves by the message's signals unless the user set it. `changed` is false when the
 * message added nothing.
 */
export function mergeMessage(
  existing: Order,
  fields: MessageFields,
  signals: StatusSignals,
  now: number,
): { order: Order; changed: boolean } {
  fields = webLinksOnly(fields);
  const protectedFields = new Set<string>(existing.userEdited);
  const next: Order = { ...existing };
  const write = next as unknown as Record<string, unknown>;
  let changed = false;
  const set = (field: string, value: unknown) => {
    if (value === undefined || protectedFields.has(field) || write[field] === value) return;
    write[field] = value;
    changed = true;
  };
  for (const field of FILL_ONLY_FIELDS) {
    // A blank item (a checkout post that named only a SKU) is filled like a missing one.
    if (write[field] === undefined || write[field] === "") set(field, fields[field]);
  }
  for (const field of REFRESHED_FIELDS) set(field, fields[field]);
  if (!protectedFields.has("status")) {
    set("status", statusAfterSignals(existing.status, signalsOf(fields, signals)));
  }
  if (changed) next.updatedAt = new Date(now).toISOString();
  return { order: withShipMove(existing.status, next, next.updatedAt), changed };
}

/** What a re-read message may correct: its descriptive and travelling facts, not when or where from. */
const REVISED_FIELDS = [...FILL_ONLY_FIELDS, ...REFRESHED_FIELDS].filter((f) =>
  f !== "receivedAt" && f !== "sourceId"
);

/**
 * Re-reading a stored message with today's rules (reparse): every field it gives that the
 * user did not edit takes the new value, since a re-read corrects rather than only fills.
 * Status, receipt time and source stay. `changed` is false when nothing differs.
 */
export function reviseFromMessage(
  existing: Order,
  fields: MessageFields,
  now: number,
): { order: Order; changed: boolean } {
  const protectedFields = new Set<string>(existing.userEdited);
  const next = { ...existing } as unknown as Record<string, unknown>;
  const given = webLinksOnly(fields) as Record<string, unknown>;
  let changed = false;
  for (const field of REVISED_FIELDS) {
    const value = given[field];
    // A blank (a post that named only a SKU) is no reading: it never replaces a value.
    if (
      value === undefined || value === "" || protectedFields.has(field) || next[field] === value
    ) {
      continue;
    }
    next[field] = value;
    changed = true;
  }
  if (changed) next.updatedAt = new Date(now).toISOString();
  return { order: next as unknown as Order, changed };
}

/** A PATCH body: editable fields; `salePriceCents: null` clears the sale price. */
export type OrderPatch = Omit<OrderFields, "salePriceCents"> & { salePriceCents?: number | null };

/** The webhook `patch`: fields applied, `status` when a tracking number moved it, `userEdited`. */
export type AppliedPatch = OrderPatch & { userEdited: EditableField[] };

/**
 * Applies a user's edit. Every field sent is recorded in `userEdited`. Sending a tracking
 * number for an order still `ordered` moves it to `shipped` unless the same PATCH sets a status.
 */
export function applyPatch(
  existing: Order,
  patch: OrderPatch,
  now: number,
): { order: Order; applied: AppliedPatch } {
  const sent = EDITABLE_FIELDS.filter((f) => patch[f] !== undefined);
  const next = { ...existing } as unknown as Record<string, unknown>;
  const applied: Record<string, unknown> = {};
  for (const field of sent) {
    const value = patch[field];
    applied[field] = value;
    if (value === null) delete next[field];
    else next[field] = value;
  }
  // A new tracking number brings its detected carrier, unless the user chose one.
  if (
    patch.trackingNumber && patch.carrier === undefined && !existing.userEdited.includes("carrier")
  ) {
    const detected = carrierOf({ trackingNumber: patch.trackingNumber }).carrier;
    if (detected) next.carrier = applied.carrier = detected;
  }
  if (patch.trackingNumber && patch.status === undefined && existing.status === "ordered") {
    next.status = applied.status = "shipped";
  }
  const userEdited = [...new Set([...existing.userEdited, ...sent])].sort();
  next.userEdited = applied.userEdited = userEdited;
  next.updatedAt = new Date(now).toISOString();
  const order = withShipMove(existing.status, next as unknown as Order, next.updatedAt as string);
  return { order, applied: applied as AppliedPatch };
}

/** Event types of a message merged into an existing order, in firing order. */
export function mergeEvents(before: Order, after: Order): EventType[] {
  return ["order.merged", ...statusEvents(before.status, after.status)];
}

/** Event types of a PATCH, in firing order. */
export function patchEvents(before: Order, after: Order): EventType[] {
  return ["order.updated", ...statusEvents(before.status, after.status)];
}

/**
 * When an order stored without `shippedAt` (by a release before it existed) shipped, for the
 * data-layout migration: the first `order.shipped` event still in its event log, else its last
 * change (`updatedAt`), never before it was received. Undefined for an order that needs none
 * (not shipped or delivered, or `shippedAt` already set).
 */
export function backfilledShippedAt(order: Order, shippedEvents: string[]): string | undefined {
  if (order.shippedAt || (order.status !== "shipped" && order.status !== "delivered")) return;
  const known = shippedEvents.filter((t) => !Number.isNaN(Date.parse(t))).sort()[0];
  const at = Math.max(Date.parse(known ?? order.updatedAt), Date.parse(order.receivedAt));
  return new Date(at).toISOString();
}
