/**
 * Label/value pairs as checkout posts print them: embed fields (`name`/`value`), and in a
 * description or `content`: `Label: value` and `**Label:** value` lines, `Label: v | Label: v`
 * runs, and `Label` / value on alternating lines. Lines that are none of these are kept in order
 * as "loose" lines (a description holding only the product, a cart line).
 */
import type { ChatField } from "../../domain/intake/chat_embed.ts";
import { readCells } from "./cells.ts";
import { cleanLines } from "./text.ts";
import { type LabelMeaning, labelMeaning } from "./vocabulary.ts";

export type PairSource = "fields" | "description" | "content";

export interface Pair extends LabelMeaning {
  /** The value unwrapped, one line per printed line. */
  lines: string[];
  /** The value as sent (links keep their targets), for URLs. */
  raw: string;
  source: PairSource;
}

export interface TextReading {
  pairs: Pair[];
  /** Lines read as no label or value, with their position among the text's lines. */
  loose: { line: string; index: number }[];
}

/** A known label inside a line: where it starts, where its value starts, what it means. */
interface LabelAt {
  start: number;
  valueStart: number;
  /** Null for a label we do not know that still ends the value before it. */
  meaning: LabelMeaning | null;
}

/** The pairs a label gives: one, or one per field part of a split label (`Size / Price`). */
function pairsOf(meaning: LabelMeaning, lines: string[], raw: string, source: PairSource): Pair[] {
  return [meaning, ...meaning.more ?? []].map(({ more: _, ...one }) => ({
    ...one,
    lines,
    raw,
    source,
  }));
}

/** Up to four words before a colon may be a label (`Order Number:`, `N° de commande :`). */
const LABEL_WORDS = 4;
const LABEL_REACH = 80;
/** Separators bots put between `Label: value` segments, trimmed off values and prefixes. */
const SEPARATOR_ENDS = /^[\s|•·;,/\-–—]+|[\s|•·;,/\-–—]+$/g;
const COLON = /\s*[:：]\s*/g;

/**
 * The labels of a line, in order: each `<words>:` whose last one to four words (with a letter
 * each, so a value's figure is never part of the next label) name a label we know, longest
 * first; and, right after a `|`, `•`, `·` or `;`, one to three words we do not know (`• Gender:
 * Men`), which give nothing but end the value before them. A URL's `https:` is not a label.
 * Bounded: a line is at most a value's length.
 */
function labelsIn(line: string): LabelAt[] {
  const out: LabelAt[] = [];
  let floor = 0;
  for (const colon of line.matchAll(COLON)) {
    const at = colon.index;
    const valueStart = at + colon[0].length;
    if (at <= floor && out.length > 0) continue;
    if (line.startsWith("//", valueStart)) continue;
    // The label's words follow the last separator before the colon.
    // A label is short: look back at most LABEL_REACH characters, so a line costs linear time.
    const from = Math.max(floor, at - LABEL_REACH);
    const cut = Math.max(from, lastSeparator(line, from, at) + 1);
    const words = [...line.slice(cut, at).matchAll(/\S+/g)].slice(-LABEL_WORDS);
    const separated = cut > 0 && "|•·;".includes(line[cut - 1]);
    // After a separator the label is the whole segment: in `| Product Ref:` `Ref` is no label.
    const found = knownLabel(line, words, cut, at, valueStart);
    const known = found && (!separated || found.start === cut + (words[0].index ?? 0))
      ? found
      : null;
    const unknown = !known && separated && words.length >= 1 && words.length <= 3 &&
      words.every((w) => /^\p{L}/u.test(w[0])) && at - cut <= 30;
    if (!known && !unknown) continue;
    out.push(known ?? { start: cut + words[0].index, valueStart, meaning: null });
    floor = valueStart;
  }
  return out;
}

/** The longest run of the last words before a colon that is a label we know. */
function knownLabel(
  line: string,
  words: RegExpMatchArray[],
  cut: number,
  at: number,
  valueStart: number,
): LabelAt | null {
  for (let n = 0; n < words.length; n++) {
    const candidate = words.slice(n);
    if (!candidate.every((w) => /[\p{L}#№°º]/u.test(w[0]))) continue;
    const start = cut + (candidate[0].index ?? 0);
    const meaning = labelMeaning(line.slice(start, at));
    if (meaning) return { start, valueStart, meaning };
  }
  return null;
}

function lastSeparator(line: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if ("|•·;,".includes(line[i])) return i;
  return -1;
}

const trimSeparators = (s: string) => s.replace(SEPARATOR_ENDS, "");

/**
 * The label segments of a line, or null when the line is not read as pairs: it must start with
 * a known label, or hold two or more (`Jordan 1 - Size: 10 - Price: $180`).
 */
function segmentsOf(line: string): { prefix: string; pairs: [LabelMeaning, string][] } | null {
  const labels = labelsIn(line);
  const known = labels.filter((l) => l.meaning !== null);
  if (known.length === 0) return labels.length === 0 ? dashed(line) : null;
  if (known[0].start !== 0 && known.length < 2) return null;
  const pairs: [LabelMeaning, string][] = [];
  for (const [n, l] of labels.entries()) {
    const end = labels[n + 1]?.start ?? line.length;
    if (l.meaning) pairs.push([l.meaning, trimSeparators(line.slice(l.valueStart, end))]);
  }
  return { prefix: trimSeparators(line.slice(0, labels[0].start)), pairs };
}

/**
 * `Label - value` (a hyphen, an en or em dash, an arrow or chevron (`→ » › ➜ ▸`), a middle dot or
 * bullet, or a table's `|` or tab) with a label we know and no colon in the line.
 */
const DASHED = /^([^-–—|→»›➜➔➤⇒▸▶►·•:：\t]{1,40}?)(?:\s+[-–—|→»›➜➔➤⇒▸▶►·•]\s+|\s*\t\s*)(.+)$/;
function dashed(line: string): { prefix: string; pairs: [LabelMeaning, string][] } | null {
  const found = DASHED.exec(line);
  const meaning = found && labelMeaning(found[1]);
  return meaning ? { prefix: "", pairs: [[meaning, found[2].trim()]] } : null;
}

/** A line that is only a label we know (`Order Number`), the value on the next line. */
function bareLabel(line: string): LabelMeaning | null {
  return line.length <= 60 ? labelMeaning(line) : null;
}

/** A line that is a label (with or without its value). */
export const isLabelLine = (line: string) => segmentsOf(line) !== null || bareLabel(line) !== null;

/**
 * Pairs and loose lines of a description or `content`. A line may hold one pair or several
 * (`Store: X | Size: 10`, `Store: X • Size: 10`, `**Store:** X **Size:** 10`); text before its
 * first label is a loose line (a product the pairs describe).
 */
export function readText(text: string | undefined, source: PairSource): TextReading {
  const lines = cleanLines(text);
  const pairs: Pair[] = [];
  const loose: TextReading["loose"] = [];
  const add = (meaning: LabelMeaning, value: string) =>
    pairs.push(...pairsOf(meaning, value ? [value] : [], value, source));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = lines[i + 1];
    const cells = readCells(line);
    if (cells) {
      for (const [m, v] of cells.pairs) add(m, v);
      if (cells.product) loose.push({ line: cells.product, index: i });
      continue;
    }
    const segments = segmentsOf(line);
    if (segments) {
      if (segments.prefix) loose.push({ line: segments.prefix, index: i });
      const [[meaning, value], ...rest] = segments.pairs;
      if (rest.length === 0 && value === "" && next !== undefined && !isLabelLine(next)) {
        add(meaning, next);
        i++;
        continue;
      }
      for (const [m, v] of segments.pairs) add(m, v);
      continue;
    }
    const label = bareLabel(line);
    if (label && next !== undefined && !isLabelLine(next)) {
      add(label, next);
      i++;
      continue;
    }
    loose.push({ line, index: i });
  }
  return { pairs, loose };
}

/**
 * Pairs of an embed's fields. A field whose name we do not know (or a blank, zero-width name),
 * or one that gives nothing itself, is read as text too, so `**Size:** 10` lines inside a value
 * still count.
 */
export function readFields(fields: readonly ChatField[]): Pair[] {
  const pairs: Pair[] = [];
  for (const field of fields) {
    const meaning = labelMeaning(field.name ?? "");
    if (meaning) {
      const raw = field.value ?? "";
      pairs.push(...pairsOf(meaning, cleanLines(raw), raw, "fields"));
      // A field that gives nothing itself (`Details`) may hold `Size: 9` lines.
      if (meaning.kind === "other") pairs.push(...readText(raw, "fields").pairs);
    } else {
      pairs.push(...readText(`${field.name ?? ""}\n${field.value ?? ""}`, "fields").pairs);
    }
  }
  return pairs;
}

/**
 * Whether a line holds a private `Label: value` pair (the whole line is then private), or is a
 * private label whose value follows.
 */
export function privateLine(line: string): "pair" | "label" | null {
  const segments = segmentsOf(line);
  if (segments) return segments.pairs.some(([m]) => m.kind === "private") ? "pair" : null;
  return bareLabel(line)?.kind === "private" ? "label" : null;
}

/**
 * Names of fields that are no label but head the product's details: a field named
 * `Nike Dunk Low 'Panda'` whose value is `Size: 10` / `Price: $115.00`.
 */
/** A name that heads a section (`Shipping Info`, `Purchase Details`), not a product. */
const SECTION = /\b(?:info|information|details|summary|overview|data|stats|settings)\b/i;
/**
 * The same in DE (also closing a compound: `Bestelldetails`, `Bestellübersicht`), FR, ES, NL, IT,
 * JA: `Détails de la commande`, `Detalles del pedido`, `Bestelgegevens`, `Riepilogo`, `注文詳細`.
 */
const SECTION_ABROAD =
  /(?:details|übersicht|informationen|zusammenfassung|angaben|gegevens|overzicht)(?!\p{L})|(?<!\p{L})(?:détails?|récapitulatif|detalles|resumen|dettagli|riepilogo)(?!\p{L})|詳細|概要/iu;

/** A field or embed name that is a section's or a label we know: never a product. */
export function isSectionName(name: string): boolean {
  return SECTION.test(name) || SECTION_ABROAD.test(name) || labelMeaning(name) !== null;
}

export function productHeadings(fields: readonly ChatField[]): string[] {
  const out: string[] = [];
  for (const field of fields) {
    const name = cleanLines(field.name).join(" ");
    if (!name || labelMeaning(field.name ?? "") || isSectionName(name)) continue;
    const details = readText(field.value, "fields").pairs;
    if (details.some((p) => p.kind === "price" || p.kind === "size" || p.kind === "quantity")) {
      out.push(name);
    }
  }
  return out;
}
