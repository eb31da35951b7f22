/**
 * `readEmail`: raw message bytes in, an intake `Reading` out (docs/intake.md). The pipeline:
 * MIME -> the message a forward wraps (an attached `message/rfc822`, else the innermost
 * client forward block) -> schema.org markup > matching custom template > built-in template >
 * generic extraction -> status signals -> the order rule: an order needs strong evidence, and
 * a mail that is never an order (newsletter, code, review request...) is `ignored`.
 */
import type { MessageFacts, Reading } from "../../domain/intake/reading.ts";
import type { MessageFields, StatusSignals } from "../../domain/orders/order.ts";
import { clip, foldForMatch } from "../text.ts";
import { type CompiledTemplate } from "./custom.ts";
import { type Extracted, extractFields } from "./extract.ts";
import { messageTime } from "./dates.ts";
import { stripForwardPrefix, unwrapForward } from "./forward.ts";
import { type Letter, letterOf } from "./letter.ts";
import { readMarkup } from "./markup.ts";
import { parseMime } from "./mime.ts";
import { merge, type Sources, storeFromSender } from "./merge.ts";
import { evidence, type FieldEvidence } from "./evidence.ts";
import { nonOrderWording, type Phase, readPhase, statusScope } from "./signals.ts";
import { type BuiltInTemplate, matchBuiltIn, subjectRule } from "./templates.ts";
import { type CustomReading, readCustom } from "./custom_read.ts";

export interface ReadOptions {
  now: number;
  /** The user's custom templates, newest first. */
  customTemplates?: CompiledTemplate[];
  /**
   * The person asked for an order from this message ("Make an order from this"): what was
   * read becomes an order even when the message would be ignored or is not sure enough.
   */
  asOrder?: boolean;
}

export interface EmailReading {
  reading: Reading;
  /** The real sender, the original subject, and the Message-ID of the message as received. */
  facts: MessageFacts;
  /** The real sender's address, lower case (what allow-lists check). */
  realSender?: string;
  /** What makes two copies one message: the Message-ID, else `sha256:` + hex of the bytes. */
  identity: string;
  /** The built-in template id, a custom template id, `markup` or `generic`. */
  template: string;
  /** For each field of an order reading, where it came from. */
  evidence?: FieldEvidence;
  signals: StatusSignals;
}

/** Forwards as attachments nest at most this deep before the innermost is read anyway. */
const MAX_ATTACHED_DEPTH = 3;
/** Local parts that only ever send marketing. */
const MARKETING_SENDER =
  /^(?:news|newsletters?|promo|promos|promotions?|marketing|offers|deals|sale|hello-news)@/i;

/**
 * A subject about the order as a whole (`Neuigkeiten zu Ihrer Bestellung bei X`, `Your order at
 * X`, `Update on your order #12`): it names no item. A bare `Je bestelling 4041…` stays the
 * summary.
 */
const YOUR_ORDER = String
  .raw`(?:your|ihre?[rnms]?|deine?[rnms]?|votre|ta|tu|su|je|uw|il tuo|la tua)\s+(?:order|bestellung|commande|pedido|bestelling|ordine)\b(?:\s*(?:#|no\.?|nr\.?|n°)?\s*[\w-]*\d[\w-]*)?`;
const ABOUT_THE_ORDER = new RegExp(
  String
    .raw`^(?:[^:]{0,30}\b(?:zu|zur|about|on|to|regarding|sur|sobre|over|su|sul|per)\s+${YOUR_ORDER}(?:\s+(?:at|bei|beim|chez|en|bij|da|from|with|von|in)\s+[^,.!?]{1,60})?|${YOUR_ORDER}\s+(?:at|bei|beim|chez|en|bij|da|from|with|von|in)\s+[^,.!?]{1,60})[\s.!]*$`,
);

async function identityOf(raw: Uint8Array, messageId?: string): Promise<string> {
  if (messageId?.trim()) return messageId.trim();
  // The bytes at hand, not a copy (a copy only for a view of a shared buffer, which digest
  // does not take).
  const bytes = raw.buffer instanceof ArrayBuffer ? raw as Uint8Array<ArrayBuffer> : raw.slice();
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return `sha256:${new Uint8Array(digest).toHex()}`;
}

/** The store mail inside a forward: an attached message first, then a client forward block. */
export async function innermost(
  letter: Letter,
  attached: Uint8Array[],
  depth = 0,
): Promise<Letter> {
  if (attached.length > 0 && depth < MAX_ATTACHED_DEPTH) {
    const parsed = await parseMime(attached[0]);
    if (parsed.ok && parsed.message.from?.address) {
      return innermost(letterOf(parsed.message), parsed.message.attached, depth + 1);
    }
  }
  return unwrapForward(letter).letter;
}

/** The reading of a message that could not be read, with `why`; its identity is its bytes'. */
export async function unreadableEmail(raw: Uint8Array, why: string): Promise<EmailReading> {
  return {
    reading: { kind: "unreadable", why },
    facts: {},
    identity: await identityOf(raw),
    template: "generic",
    signals: {},
  };
}

/** Reads one message. Never throws: an unparseable message is an `unreadable` reading. */
export async function readEmail(raw: Uint8Array, options: ReadOptions): Promise<EmailReading> {
  const parsed = await parseMime(raw);
  if (!parsed.ok) return await unreadableEmail(raw, parsed.why);
  const outer = parsed.message;
  const identity = await identityOf(raw, outer.messageId);
  try {
    const letter = await innermost(letterOf(outer), outer.attached);
    return { ...readLetter(letter, outer.messageId, options), identity };
  } catch (error) {
    // Bounded parsers should never get here; if one does, the message is logged, not lost.
    return {
      reading: {
        kind: "unreadable",
        why: `unreadable: ${clip(String((error as Error)?.message), 120)}`,
      },
      facts: { from: outer.from?.address, subject: outer.subject, messageId: outer.messageId },
      identity,
      template: "generic",
      signals: {},
    };
  }
}

/**
 * Order evidence of the message's own, whatever its sender address looks like: markup, a
 * tracking number, an order number under its label or in the subject, or an item with a price.
 */
function ownEvidence(generic: Extracted, fields: MessageFields, hasMarkup: boolean): boolean {
  return hasMarkup || !!fields.trackingNumber ||
    generic.orderNumberFrom === "label" || generic.orderNumberFrom === "subject" ||
    generic.items.some((i) => i.price !== undefined);
}

/**
 * `Your order has shipped: Boss DS-1W Distortion`: what a subject names after a status phrase
 * and a colon, when that is a name (no order number, no further status, not a sentence).
 */
/** `Your package`, `We've got news`: words of a message about an order, not of a product. */
const GENERIC_WORDS =
  /\b(?:your|you|we|we've|our|us|has|have|is|are|was|package|parcel|shipment|delivery|purchase|items?|votre|vos|ton|tu|tus|su|sus|seu|sua|dein|deine|ihr|ihre|je|jouw|uw|din|dit|ditt|dine|dina)\b|荷物|注文/;

function itemInSubject(subject: string): string | undefined {
  const m = /^([^:]{3,60}):\s+(.{3,120})$/.exec(subject);
  if (!m || readPhase([foldForMatch(m[1])]) === undefined) return undefined;
  const name = m[2].replace(/^["“'](.*)["”']$/, "$1").trim();
  const folded = foldForMatch(name);
  if (
    /\d{4,}|#|\border\b/.test(folded) || readPhase([folded]) !== undefined ||
    GENERIC_WORDS.test(folded) ||
    /[.!?]$/.test(name) || name.split(/\s+/).length > 14
  ) return undefined;
  return name;
}

function signalsOf(phase: Phase | undefined): StatusSignals {
  if (phase === "canceled") return { canceled: true };
  if (phase === "delivered") return { delivered: true };
  if (phase === "shipped" || phase === "out_for_delivery") return { shipped: true };
  return {};
}

/** A text marker of the mail's make: image sources, link targets and the first lines. */
function signature(letter: Letter): string {
  const parts: string[] = [];
  for (const b of letter.blocks.slice(0, 400)) {
    for (const i of b.images) parts.push(i.src);
    for (const l of b.links) parts.push(l.href);
    if (parts.length < 200) parts.push(b.text);
  }
  return clip(parts.join("\n"), 100_000).toLowerCase();
}

/** The fields a learned template gave are `learned` (anchored on its id), not `template`. */
function markLearned(how: FieldEvidence, read: CustomReading) {
  for (const field of read.learnedFields as (keyof FieldEvidence)[]) {
    if (how[field]?.kind === "template") how[field] = evidence("learned", read.learnedId);
  }
}

function readLetter(
  letter: Letter,
  receivedId: string | undefined,
  options: ReadOptions,
): Omit<EmailReading, "identity"> {
  const realSender = letter.from?.address?.toLowerCase() || undefined;
  const subject = stripForwardPrefix(letter.subject);
  const facts: MessageFacts = {
    ...(realSender ? { from: realSender } : {}),
    ...(subject ? { subject } : {}),
    ...(receivedId ? { messageId: receivedId } : {}),
  };
  const customRead = readCustom(options.customTemplates, realSender, subject, letter);
  const custom = customRead.template;
  const builtIn: BuiltInTemplate | undefined = matchBuiltIn(
    realSender,
    letter.messageId,
    signature(letter),
  );
  const markup = readMarkup(letter.jsonLd, letter.microdata);
  const storeNames = [letter.from?.name ?? "", builtIn?.storeName ?? "", markup?.merchant ?? ""];
  const generic = extractFields(letter, storeNames.filter(Boolean), options.now);
  const sources: Sources = {
    letter,
    generic,
    markup,
    builtIn,
    custom: customRead.values,
    customId: custom?.id,
  };
  const { fields, evidence, template, hasMarkup } = merge(sources);
  // A forward whose header block was not found: its sender is the person who forwarded it, so
  // the store is what the body names (`Thanks for shopping at X`), never the person's name.
  if (subject !== letter.subject.trim() && evidence.store?.kind === "generic") {
    const named = storeFromSender(undefined, undefined, letter.blocks);
    if (named) fields.store = named;
    else delete fields.store;
    if (!named) delete evidence.store;
  }
  markLearned(evidence, customRead);
  // A learned template reads fields like a template, but is no proof the mail is an order.
  const hand = customRead.handWritten;

  const scope = statusScope(subject, letter.blocks);
  const rule = subjectRule(builtIn, subject);
  const phase: Phase | undefined = custom?.status
    ? (custom.status === "ordered" ? "confirmed" : custom.status)
    : markup?.status && markup.status !== "ordered" && markup.status !== "issue"
    ? markup.status
    : rule && rule !== "ignore"
    ? rule
    : readPhase(scope);
  const signals = signalsOf(phase);
  const base = { facts, ...(realSender ? { realSender } : {}), template, signals };

  const never = rule === "ignore"
    ? `subject: ${clip(subject, 80)}`
    : builtIn?.ignoreSenders?.test(realSender?.split("@")[0] ?? "")
    ? `sender: ${realSender}`
    : realSender && MARKETING_SENDER.test(realSender) && !ownEvidence(generic, fields, hasMarkup)
    ? `marketing sender: ${realSender}`
    : undefined;
  const wording = nonOrderWording(scope);
  const moving = phase === "canceled" || phase === "delivered" || phase === "shipped" ||
    phase === "out_for_delivery";
  if (!options.asOrder && !hand && !hasMarkup && (never || (wording && !moving))) {
    return {
      ...base,
      signals: {},
      reading: { kind: "ignored", why: never ?? `not an order: ${wording}` },
    };
  }
  const hasItemOrMoney = !!(fields.itemSummary || fields.total || fields.price);
  const strong = hasMarkup || (hand && hand.found > 0) ||
    ((fields.orderNumber || fields.trackingNumber) && (hasItemOrMoney || fields.trackingNumber) &&
      (phase !== undefined || builtIn !== undefined)) ||
    // A known store's status update ("Delivered", "Canceled") names the order and nothing else.
    (builtIn !== undefined && fields.orderNumber && moving) ||
    // So does any store's, when the order number stands under its label or in the subject.
    (moving && (generic.orderNumberFrom === "label" || generic.orderNumberFrom === "subject"));
  if (!strong && !options.asOrder) {
    return {
      ...base,
      signals: {},
      reading: { kind: "unreadable", why: "no order found in the message" },
    };
  }
  // A mail that names no item is summarised by its subject, and says so; a subject that only
  // says what happened (`Bedankt voor je bestelling (982…)`) names no item: the order number does.
  const notice = subject && fields.orderNumber &&
    (readPhase([foldForMatch(subject)]) !== undefined ||
      ABOUT_THE_ORDER.test(foldForMatch(subject)));
  const named = fields.itemSummary ? undefined : itemInSubject(subject);
  const itemSummary = fields.itemSummary ?? named ??
    clip(notice ? `Order ${fields.orderNumber}` : subject || "Order", 200);
  // The order is dated by the message's own date (the forwarded message's for a forward),
  // not by when it was read: a 30-day backfill puts each order on its own day.
  const written = messageTime(letter.date, options.now);
  const orderFields: MessageFields & { itemSummary: string } = {
    ...fields,
    itemSummary,
    ...(written && !fields.receivedAt ? { receivedAt: written } : {}),
  };
  if (!fields.itemSummary) {
    evidence.itemSummary = {
      kind: "generic",
      anchor: named ? "subject" : notice ? "order number" : "subject",
    };
  }
  // Dated by the message's `Date:` header (the forwarded message's for a forward).
  if (written && !fields.receivedAt) evidence.receivedAt = { kind: "generic", anchor: "Date" };
  return { ...base, evidence, reading: { kind: "order", fields: orderFields, signals } };
}
