/**
 * The order number of a letter: under an order label, in the subject (`order #1001`, a `#`
 * number in a subject that says what happened to an order), in a sentence that names the
 * order's reference, or after the word for the order in the text; with the shape tests that
 * keep dates, words and short figures out. Kept apart from `extract.ts`, which gathers every
 * field of a letter, because this one field has the most ways to be written and its own
 * acceptance rules. Pure.
 */
import { foldForMatch, foldKeepingOffsets } from "../text.ts";
import { readPhase } from "./signals.ts";
import { labelledValues } from "./labels.ts";
import { type Evidence, evidence, fromLabel } from "./evidence.ts";
import type { Letter } from "./letter.ts";

/** The order number and how it was found, as `extractFields` reports it. */
export interface OrderNumberFields {
  orderNumber?: string;
  /** How the order number was found: a label in the body, the subject, or a sentence. */
  orderNumberFrom?: "label" | "subject" | "sentence";
}

type OrderNumber = OrderNumberFields & { how?: Evidence };

const ORDER_TOKEN =
  /^[\s:#.\-–]*(?:(?:n\.?[°º]\.?|nr\.?|no\.?|#)\s*)?#?\s*([A-Za-z0-9][A-Za-z0-9-]{2,40}[A-Za-z0-9]|\d{3})(?![A-Za-z0-9/.,]*\d)/i;
/**
 * `ME/2026/11/4419082`, `ZAM/1042/2026`: a number of parts joined by slashes (as Polish and
 * Czech shop systems print them), with at least six digits; never a date (`19/11/2026`).
 */
const SLASHED_TOKEN =
  /^[\s:#.\-–]*(?:(?:n\.?[°º]\.?|nr\.?|no\.?|#)\s*)?([A-Za-z0-9]{1,12}(?:\/[A-Za-z0-9]{1,12}){1,4})(?![\w/.,-]*\d)/;
const DATE_SHAPE = /^(\d{1,4})\/(\d{1,2})(?:\/\d{1,4})?$/;

/** `19/11/2026`, `11/19/2026`, `2026/11/19`: slashed parts that can be a date. */
function isDate(token: string): boolean {
  const m = DATE_SHAPE.exec(token);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return m[1].length === 4 ? b <= 12 : (a <= 31 && b <= 12) || (a <= 12 && b <= 31);
}

/** An order number as printed: letters, digits and dashes with at least three digits. */
export function acceptOrderNumber(raw: string): string | null {
  const slashed = SLASHED_TOKEN.exec(raw)?.[1];
  if (slashed) {
    const digits = slashed.replace(/\D/g, "").length;
    return digits >= 6 && !isDate(slashed) ? slashed : null;
  }
  const m = ORDER_TOKEN.exec(raw);
  if (!m) return null;
  const token = m[1];
  const digits = token.replace(/\D/g, "").length;
  if (digits < 3 || token.length > 40) return null;
  if (/^\d{1,2}-\d{1,2}-\d{2,4}$/.test(token)) return null;
  return token;
}

/**
 * A reference of capital letters only (`MTRVBXKPC`), as some shop systems print: taken only
 * right after an order label, 8 to 16 letters, and unlike a word (few vowels), so that
 * `Order: CONFIRMED` or `Commande : PAYÉE` is never an order number.
 */
export function acceptLetterReference(raw: string): string | null {
  const m = /^[\s:#.\-–]*([A-Z]{8,16})(?![\p{L}\p{N}])/u.exec(raw);
  if (!m) return null;
  const vowels = m[1].replace(/[^AEIOUY]/g, "").length;
  return vowels / m[1].length < 0.3 ? m[1] : null;
}

/** `order #1001`, `Bestellung 1001`, `commande n° FR…`, `(Receipt #…)` inside a sentence or subject. */
const ORDER_IN_SENTENCE =
  /(?:(?:ご)?注文番号|受注番号|\b(?:order|bestellung|commande|pedido|receipt|ordine|bestelling|ordre|compra|encomenda|orden|zamowieni[aeu]|tilaus|tilauksesi|tilauksen|bestallning|bestilling))(?:\s+(?:number|numero|nummer|no\.?|nr\.?|n\.?[°º]\.?|n\.o\.?|n\.|#|id))?\s*[:(]?\s*(#?\s*[a-z0-9][a-z0-9/-]{2,40}[a-z0-9]|#\s*\d{3}(?![\w.,]))/g;

/** `Ihre Bestellung bei X (Nummer: 10045)`: the order, then its number named a few words on. */
const NUMBER_LATER =
  /\b(?:order|bestellung|commande|pedido|ordine|bestelling)\b[^.!?:]{0,40}?\(?\b(?:number|nummer|numero|nr\.?|no\.?|n°)\s*:\s*#?([a-z0-9][a-z0-9-]{2,40}[a-z0-9])/;

/**
 * The number a sentence names under its own label after the order (`Bestellung bei X (Number:
 * 10482)`): a labelled value, as good as one on its own line.
 */
function orderNumberNamedLater(text: string): { value: string; label: string } | null {
  const folded = foldKeepingOffsets(text);
  const later = NUMBER_LATER.exec(folded);
  if (!later) return null;
  const start = later.index + later[0].length - later[1].length;
  const value = acceptOrderNumber(text.slice(start, start + later[1].length + 1));
  const label = text.slice(later.index, start).replace(/[\s:#(]+$/, "");
  return value ? { value, label } : null;
}

export function orderNumberInSentence(text: string): string | null {
  return orderNumberNamedLater(text)?.value ?? orderNumberAfterWord(text);
}

/** `order #1001`, `Bestellung 1001`: the number right after the word for the order. */
function orderNumberAfterWord(text: string): string | null {
  const folded = foldKeepingOffsets(text);
  for (const m of folded.matchAll(ORDER_IN_SENTENCE)) {
    const start = m.index! + m[0].length - m[1].length;
    const value = acceptOrderNumber(text.slice(start, start + m[1].length + 1));
    if (value) return value;
  }
  return null;
}

/** `#PF10233`: a number marked `#`, not part of a word. */
const MARKED_NUMBER = /(?:^|[\s(\[])#\s?([A-Za-z0-9][A-Za-z0-9-]{2,30})(?![\w-])/;

/**
 * `Thanks for your order! (#PF10233)`: a number marked `#` in a subject that says what happened
 * to an order is the order's number.
 */
function markedInSubject(subject: string): string | null {
  const m = MARKED_NUMBER.exec(subject);
  if (!m || readPhase([foldForMatch(subject)]) === undefined) return null;
  return acceptOrderNumber(m[1]);
}

/**
 * `Your order with the reference KXQ… has been shipped`, `Su pedido con la referencia …`: a
 * sentence that names the order's reference as such (shop systems that number orders by a
 * reference of letters write it so). The words between are the label.
 */
const REFERENCE_IN_SENTENCE =
  /\b(?:order|bestellung|commande|pedido|ordine|bestelling|encomenda)\s+(?:with(?: the)?|con(?: la| il)?|avec(?: la)?|mit(?: der)?|met(?: de)?|com(?: a)?)\s+(?:reference|referencia|riferimento|referenz|referentie)\s*:?\s*/g;

function referenceInSentence(blocks: Letter["blocks"]): { value: string; label: string } | null {
  for (const b of blocks.slice(0, 200)) {
    const folded = foldKeepingOffsets(b.text);
    for (const m of folded.matchAll(REFERENCE_IN_SENTENCE)) {
      const rest = b.text.slice(m.index! + m[0].length);
      const value = acceptOrderNumber(rest) ?? acceptLetterReference(rest);
      if (value) return { value, label: b.text.slice(m.index!, m.index! + m[0].length).trim() };
    }
  }
  return null;
}

export function findOrderNumber(letter: Letter): OrderNumber {
  const labelled = labelledValues(letter.blocks, "orderNumber", acceptOrderNumber, { max: 5 });
  const strong = labelled.find((l) => l.shape !== "sentence");
  if (strong) {
    return { orderNumber: strong.value, orderNumberFrom: "label", how: fromLabel(strong) };
  }
  const subject = orderNumberInSentence(letter.subject) ?? markedInSubject(letter.subject);
  if (subject) {
    return {
      orderNumber: subject,
      orderNumberFrom: "subject",
      how: evidence("generic", "subject"),
    };
  }
  const reference = referenceInSentence(letter.blocks);
  if (reference) {
    return {
      orderNumber: reference.value,
      orderNumberFrom: "label",
      how: evidence("label", reference.label),
    };
  }
  const lettered = labelledValues(letter.blocks, "orderNumber", acceptLetterReference, { max: 5 })
    .find((l) => l.shape === "same" || l.shape === "next");
  if (lettered) {
    return { orderNumber: lettered.value, orderNumberFrom: "label", how: fromLabel(lettered) };
  }
  if (labelled[0]) {
    return {
      orderNumber: labelled[0].value,
      orderNumberFrom: "sentence",
      how: fromLabel(labelled[0]),
    };
  }
  for (const b of letter.blocks.slice(0, 200)) {
    const later = orderNumberNamedLater(b.text);
    if (later) {
      return {
        orderNumber: later.value,
        orderNumberFrom: "label",
        how: evidence("label", later.label),
      };
    }
    const value = orderNumberAfterWord(b.text);
    if (value) {
      return { orderNumber: value, orderNumberFrom: "sentence", how: evidence("generic", b.text) };
    }
  }
  return {};
}
