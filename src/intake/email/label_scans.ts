/**
 * What a field's label patterns find in one block text (labels.ts `labelledValues`). Readers ask
 * the same field of the same text several times over (the tracking number four times, the order
 * number twice...) with different `accept` rules, and a store's next mail repeats most texts:
 * what the patterns find is worked out once per text and field (each part when first asked), and
 * only the rules run again. Offsets, so values are sliced from the text as printed.
 */
import { foldKeepingOffsets, memoByText } from "../text.ts";

export interface Scan {
  text: string;
  folded: string;
  /** The text is only the label. */
  alone?: boolean;
  /** Length of the value after a label at the start, -1 when none. */
  same?: number;
  /** Labels opening a later sentence: where the sentence starts, and its value's length. */
  leading?: { start: number; value: number }[];
  /** A label inside a sentence: where the match starts, and its value's length. */
  inside?: { index: number; value: number } | null;
}

/** Per field, its scans of texts (remembered as `memoByText` remembers). */
const scans = new Map<string, (text: string) => Scan>();

export function scanOf(field: string, text: string): Scan {
  let scan = scans.get(field);
  if (!scan) {
    scan = memoByText((t: string): Scan => ({ text: t, folded: foldKeepingOffsets(t) }));
    scans.set(field, scan);
  }
  return scan(text);
}

// The parts of a scan are filled in as the shapes are tried, each once, always by the same
// field's patterns: a scan is a function of its text and field.
export const aloneIn = (scan: Scan, alone: RegExp) => scan.alone ??= alone.test(scan.folded);
export const sameIn = (scan: Scan, same: RegExp) =>
  scan.same ??= same.exec(scan.folded)?.[1].length ?? -1;

export function insideOf(scan: Scan, inside: RegExp): Scan["inside"] {
  if (scan.inside === undefined) {
    const s = inside.exec(scan.folded);
    scan.inside = s ? { index: s.index, value: s[1].length } : null;
  }
  return scan.inside;
}

/** The labels `same` finds opening a later sentence of the text (the first 8 breaks). */
export function leadingOf(scan: Scan, same: RegExp): { start: number; value: number }[] {
  if (scan.leading) return scan.leading;
  const { text, folded } = scan;
  const found: { start: number; value: number }[] = [];
  // A sentence's end, or a spaced dash that opens a note after a value (`Coursier X – livraison le …`).
  const breaks = /[.!?]\s+(?=\p{Lu})|\s[–—]\s+/gu;
  for (let n = 0, b = breaks.exec(text); b && n < 8; n++, b = breaks.exec(text)) {
    const start = b.index + b[0].length;
    const m = same.exec(folded.slice(start));
    if (m) found.push({ start, value: m[1].length });
  }
  return scan.leading = found;
}
