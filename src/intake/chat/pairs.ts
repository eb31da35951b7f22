/**
 * Label/value pairs as checkout posts print them: embed fields (`name`/`value`), and in a
 * description or `content`: `Label: value` and `**Label:** value` lines, `Label: v | Label: v`
 * runs, and `Label` / value on alternating lines. Lines that are none of these are kept in order
 * as "loose" lines (a description holding only the product, a cart line).
 */
import type { ChatField } from "./body.ts";
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

/** `Label: value` with a label we know (a URL's `https:` is not a label). */
function labelled(line: string): { meaning: LabelMeaning; value: string } | null {
  const found = /^([^:：]{1,60}?)\s*[:：]\s*(.*)$/.exec(line);
  if (!found || found[2].startsWith("//")) return null;
  const meaning = labelMeaning(found[1]);
  return meaning ? { meaning, value: found[2] } : null;
}

/** A line that is only a label we know (`Order Number`), the value on the next line. */
function bareLabel(line: string): LabelMeaning | null {
  return line.length <= 60 ? labelMeaning(line) : null;
}

const isLabelLine = (line: string) => labelled(line) !== null || bareLabel(line) !== null;

/** Pairs and loose lines of a description or `content`. */
export function readText(text: string | undefined, source: PairSource): TextReading {
  const lines = cleanLines(text);
  const pairs: Pair[] = [];
  const loose: TextReading["loose"] = [];
  const add = (meaning: LabelMeaning, value: string) =>
    pairs.push({ ...meaning, lines: value ? [value] : [], raw: value, source });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = lines[i + 1];
    const head = labelled(line);
    if (head) {
      if (head.value === "" && next !== undefined && !isLabelLine(next)) {
        add(head.meaning, next);
        i++;
      } else {
        readRun(line, add);
      }
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
 * A line of `Label: v | Label: v` segments; a segment that is no pair continues the value
 * before it (`Proxy: Resi | http://...`).
 */
function readRun(line: string, add: (meaning: LabelMeaning, value: string) => void): void {
  let current: { meaning: LabelMeaning; value: string } | null = null;
  for (const segment of line.split(/\s*\|\s*/)) {
    const pair = labelled(segment);
    if (pair) {
      if (current) add(current.meaning, current.value.trim());
      current = pair;
    } else if (current) {
      current.value += ` | ${segment}`;
    }
  }
  if (current) add(current.meaning, current.value.trim());
}

/**
 * Pairs of an embed's fields. A field whose name we do not know (or a blank, zero-width name)
 * is read as text, so `**Size:** 10` lines inside a value still count.
 */
export function readFields(fields: readonly ChatField[]): Pair[] {
  const pairs: Pair[] = [];
  for (const field of fields) {
    const meaning = labelMeaning(field.name ?? "");
    if (meaning) {
      const raw = field.value ?? "";
      pairs.push({ ...meaning, lines: cleanLines(raw), raw, source: "fields" });
    } else {
      pairs.push(...readText(`${field.name ?? ""}\n${field.value ?? ""}`, "fields").pairs);
    }
  }
  return pairs;
}

/** Whether a line is a private `Label: value` pair, or a private label whose value follows. */
export function privateLine(line: string): "pair" | "label" | null {
  const pair = labelled(line);
  if (pair) return pair.meaning.kind === "private" ? "pair" : null;
  return bareLabel(line)?.kind === "private" ? "label" : null;
}
