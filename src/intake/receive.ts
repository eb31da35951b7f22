/**
 * The one way a received message becomes an order. Every intake path (email import, inbound
 * mail, the SMTP receiver, IMAP polling, chat webhooks, the embed copier) parses its message
 * into a `Reading` and calls `receiveMessage`, which logs it, stores its raw copy, and hands its
 * fields to the create-or-merge seam with the log entry, the dedupe key and the raw copy in the
 * order's own commit: a message is stored with its order or not at all, and a retried message
 * is a duplicate however many copies race.
 */
import {
  fieldsSet,
  type IntakeChannel,
  type IntakeLogEntry,
  type MessageFacts,
  type Reading,
  statusSaid,
} from "../domain/intake/reading.ts";
import type { BillingSettings, PlanLimit } from "../domain/billing/plan.ts";
import { newId } from "../lib/ids.ts";
import { stageBlob } from "../store/blob.ts";
import { type Keeping, logAlone, messageInCommit, type Repeat } from "../store/intake/log.ts";
import { keys } from "../store/keys.ts";
import { type IngestOptions, ingestOrder } from "../store/orders/orders.ts";
import { metrics } from "../lib/metrics.ts";
import { annotate, withSpan } from "../lib/tracing.ts";
import { workspaceCurrency } from "../store/account/settings.ts";
import { withCostFromTotal } from "./cost.ts";

export interface IncomingMessage {
  userId: string;
  channel: IntakeChannel;
  /** The email source or bot it arrived through. */
  sourceId?: string;
  /**
   * What makes two copies one message (email: the Message-ID, else the SHA-256 of the raw
   * bytes). Absent: no deduplication (chat posts).
   */
  identity?: string;
  /** The message as received, kept for the inbox, reparse and the export. */
  raw?: Uint8Array;
  facts: MessageFacts;
  reading: Reading;
  /** A rebuild: the log id of an earlier copy that made no order, which this one replaces. */
  supersedes?: string;
  /** Writes of the channel's own that commit with the log entry (never with a duplicate's). */
  alsoWrite?: Keeping["alsoWrite"];
  /** Keys read with the order's own read, for a message that reads as an order. */
  alsoRead?: Keeping["alsoRead"];
}

/** The seam's options: the clock, the plan settings, the event bus, and `quiet` for rebuilds. */
export type ReceiveOptions = IngestOptions;

/** What the seam's options are built from: the app's clock, plan settings and event bus. */
export interface ReceiveDeps {
  now(): number;
  config: BillingSettings;
  events: { bus: ReceiveOptions["events"] };
}

/** The seam's options for a message (or an order) arriving now, built here for every path. */
export function receiveOptions(deps: ReceiveDeps): ReceiveOptions {
  return { now: deps.now(), billing: deps.config, events: deps.events.bus };
}

export type Received =
  | { outcome: "created" | "merged"; logId: string; orderId: string }
  | { outcome: "duplicate"; logId: string; duplicateOf: string }
  | { outcome: "rejected"; logId: string; limit: PlanLimit }
  | { outcome: "ignored" | "unreadable" | "blocked"; logId: string }
  | { outcome: "account_gone" };

/** Logs a message, and makes or merges its order when it reads as one. */
export function receiveMessage(
  kv: Deno.Kv,
  message: IncomingMessage,
  options: ReceiveOptions,
): Promise<Received> {
  return withSpan("order.commit", { "intake.channel": message.channel }, async () => {
    const result = await receive(kv, message, options);
    annotate({ "intake.outcome": result.outcome });
    return result;
  });
}

async function receive(
  kv: Deno.Kv,
  message: IncomingMessage,
  options: ReceiveOptions,
): Promise<Received> {
  const { userId, channel, reading } = message;
  const logId = newId("log", options.now);
  const entry: IntakeLogEntry = {
    id: logId,
    channel,
    ...(message.sourceId ? { sourceId: message.sourceId } : {}),
    ...definedFacts(message.facts),
    receivedAt: new Date(options.now).toISOString(),
    outcome: "unreadable",
    ...(message.raw ? { rawSize: message.raw.byteLength } : {}),
  };
  // The raw copy's chunks are written first and appear with the entry's commit, or never.
  const staged = message.raw
    ? await stageBlob(kv, keys.intakeRaw(userId, logId), message.raw)
    : null;
  const keeping: Keeping = {
    userId,
    channel,
    identity: message.identity,
    staged,
    supersedes: message.supersedes,
    alsoWrite: message.alsoWrite,
    alsoRead: message.alsoRead,
  };
  let kept = false;
  try {
    const result = reading.kind === "order"
      ? await storeOrder(kv, message, entry, keeping, options)
      : await storeAlone(kv, keeping, {
        ...entry,
        outcome: reading.kind,
        ...(reading.kind === "blocked" ? {} : { why: reading.why }),
      });
    kept = result.outcome !== "duplicate" && result.outcome !== "account_gone";
    metrics.intakeMessage(channel, result.outcome);
    return result;
  } finally {
    if (!kept) await staged?.discard();
  }
}

function definedFacts(facts: MessageFacts): MessageFacts {
  return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined && v !== ""));
}

async function storeOrder(
  kv: Deno.Kv,
  message: IncomingMessage,
  entry: IntakeLogEntry,
  keeping: Keeping,
  options: ReceiveOptions,
): Promise<Received> {
  const { reading } = message;
  if (reading.kind !== "order") throw new TypeError("not an order reading");
  const extension = messageInCommit(keeping, ({ order, merged, before }) => ({
    ...entry,
    outcome: merged ? "merged" : "created",
    orderId: order.id,
    setFields: fieldsSet(order, before),
    said: statusSaid(reading.fields, reading.signals),
    ...(reading.fields.receivedAt ? { sentAt: reading.fields.receivedAt } : {}),
    itemSummary: order.itemSummary,
    ...(order.store ? { store: order.store } : {}),
  }));
  const result = await ingestOrder(kv, {
    userId: message.userId,
    source: message.channel,
    fields: await withCostFromTotal(reading.fields, () => workspaceCurrency(kv, message.userId)),
    signals: reading.signals,
    extension,
  }, options);
  if (result.ok) {
    const outcome = result.merged ? "merged" : "created";
    return { outcome, logId: entry.id, orderId: result.order.id };
  }
  if (result.reason === "account_gone") return { outcome: "account_gone" };
  if (result.reason === "stopped") {
    return await logDuplicate(kv, keeping, entry, result.stop as Repeat);
  }
  // The plan cap: logged, but not remembered as seen, so the message can come again later.
  const rejected = await logAlone(kv, { ...keeping, identity: undefined }, {
    ...entry,
    outcome: "rejected",
    itemSummary: reading.fields.itemSummary,
    ...(reading.fields.store ? { store: reading.fields.store } : {}),
  });
  return rejected === "account_gone"
    ? { outcome: "account_gone" }
    : { outcome: "rejected", logId: entry.id, limit: result.limit };
}

async function storeAlone(kv: Deno.Kv, keeping: Keeping, entry: IntakeLogEntry): Promise<Received> {
  const stored = await logAlone(kv, keeping, entry);
  if (stored === "account_gone") return { outcome: "account_gone" };
  if (stored !== "stored") return await logDuplicate(kv, keeping, entry, stored);
  return { outcome: entry.outcome as "ignored" | "unreadable" | "blocked", logId: entry.id };
}

/** A repeat is logged too (outcome `duplicate`, pointing at the first copy), without a raw copy. */
async function logDuplicate(
  kv: Deno.Kv,
  keeping: Keeping,
  entry: IntakeLogEntry,
  repeat: Repeat,
): Promise<Received> {
  const { rawSize: _, ...rest } = entry;
  const stored = await logAlone(
    kv,
    { userId: keeping.userId, channel: keeping.channel },
    { ...rest, outcome: "duplicate", duplicateOf: repeat.duplicateOf },
  );
  if (stored === "account_gone") return { outcome: "account_gone" };
  return { outcome: "duplicate", logId: entry.id, duplicateOf: repeat.duplicateOf };
}
