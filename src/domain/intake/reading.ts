/**
 * Intake messages as pure data: what a channel (email, chat) read from a message, what became
 * of it, and which order fields it set. The parsers of each channel produce a `Reading`;
 * `src/intake/receive.ts` turns it into an order through the one create-or-merge seam.
 */
import {
  type MessageFields,
  type Order,
  type OrderStatus,
  signalsOf,
  statusAfterSignals,
  type StatusSignals,
} from "../orders/order.ts";

export const INTAKE_CHANNELS = ["email", "chat"] as const;
export type IntakeChannel = typeof INTAKE_CHANNELS[number];

/** What became of a message (the inbox's and the bot log's `outcome`). */
export const INTAKE_OUTCOMES = [
  "created",
  "merged",
  "duplicate",
  "blocked",
  "unreadable",
  "rejected",
  "ignored",
] as const;
export type IntakeOutcome = typeof INTAKE_OUTCOMES[number];

/** What a parser read from a message. */
export type Reading =
  | { kind: "order"; fields: MessageFields & { itemSummary: string }; signals: StatusSignals }
  /** Not an order (a newsletter, a decline post): logged, never an order. */
  | { kind: "ignored" | "unreadable"; why: string }
  /** The sender is not allowed for this source. */
  | { kind: "blocked"; sender?: string };

/** Facts about a message shown in its log entry (never secrets). */
export interface MessageFacts {
  from?: string;
  subject?: string;
  messageId?: string;
}

/** One received message, as the inbox, the bot logs and an order's history show it. */
export interface IntakeLogEntry extends MessageFacts {
  id: string;
  channel: IntakeChannel;
  sourceId?: string;
  receivedAt: string;
  outcome: IntakeOutcome;
  orderId?: string;
  /** The order fields this message set (its provenance), sorted. */
  setFields?: string[];
  /** The status the message itself said (a shipping email: shipped), for an order reading. */
  said?: OrderStatus;
  /** When the message says it was sent (its own date, a forward's original), when it gave one. */
  sentAt?: string;
  itemSummary?: string;
  store?: string;
  /** Why nothing came of it (unreadable, ignored, blocked). */
  why?: string;
  /** The entry of the first copy, for a duplicate. */
  duplicateOf?: string;
  /** Bytes of the stored raw message; absent when none is stored. */
  rawSize?: number;
}

/** The order fields a message set: every field it gave a new order, or what it changed. */
export function fieldsSet(after: Order, before?: Order): string[] {
  const a = after as unknown as Record<string, unknown>;
  const b = (before ?? {}) as Record<string, unknown>;
  const skip = new Set(["id", "userEdited", "source", "createdAt", "updatedAt"]);
  return Object.keys(a).filter((k) => !skip.has(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .sort();
}

/**
 * The status a message itself says, whatever the order's was: `ordered` for an order email,
 * `shipped` for one with a tracking number, `delivered` for a delivery notice.
 */
export function statusSaid(fields: MessageFields, signals: StatusSignals): OrderStatus {
  return statusAfterSignals("ordered", signalsOf(fields, signals));
}
