/**
 * Learning from corrections (CONTRACT "Learning from corrections"): the rule that turns a
 * corrected value, found in the lines of the order's message, into a custom-template expression
 * that finds it by what stands around it, so the next mail of that layout is read the same way.
 * The expression never contains the value itself: it is anchored on the label before the value
 * on its line, the line above it, or the header of the table column it stands in, and captures
 * text of the value's shape. The caller checks each candidate on the same message (`verify`)
 * and the first that reads the value back is kept.
 */

export const LEARNABLE_FIELDS = [
  "orderNumber",
  "itemSummary",
  "store",
  "total",
  "price",
  "trackingNumber",
  "estimatedDelivery",
  "size",
  "quantity",
] as const;
export type LearnableField = typeof LEARNABLE_FIELDS[number];

/** Learned templates a workspace keeps; a new one past this drops the oldest learned one. */
export const MAX_LEARNED_TEMPLATES = 100;

export function isLearnable(field: string): field is LearnableField {
  return (LEARNABLE_FIELDS as readonly string[]).includes(field);
}

/** One line of the text templates read (the subject, then one line per block). */
export interface TextLine {
  text: string;
  /** The table cell the line is, when it is one. */
  cell?: { table: number; row: number; col: number };
  /** Quoted or forwarded history below the real message: never learned from. */
  quoted: boolean;
}

/** Where the value stands: line index and character range in that line. */
export interface Span {
  line: number;
  start: number;
  end: number;
}

export type AnchorKind = "label" | "line above" | "column";

export interface LearnedExpression {
  expression: string;
  anchor: string;
  how: AnchorKind;
}

/** Labels (and headers) longer than this, or with a digit in them, are not fixed text. */
const MAX_LABEL = 80;
/** Lines between a column header and its cell, at most. */
const MAX_COLUMN_DISTANCE = 60;
/** Spans of a value tried, at most. */
const MAX_SPANS = 20;

function escape(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}

/** Fixed text to match, spaces as any run of spaces. */
function literal(text: string): string {
  return text.trim().split(/\s+/).map(escape).join("[ \\t]+");
}

/** The value's shape: what the expression captures, without the value itself. */
export function valuePattern(field: LearnableField, value: string): string {
  if (field === "quantity") return "[0-9]+";
  if (field === "orderNumber" || field === "trackingNumber") {
    let out = "";
    for (const part of value.match(/[0-9]+|[A-Za-z]+|\s+|./gu) ?? []) {
      out += /^[0-9]+$/.test(part)
        ? "[0-9]+"
        : /^[A-Za-z]+$/.test(part)
        ? "[A-Za-z]+"
        : /^\s+$/.test(part)
        ? "[ \\t]*"
        : escape(part);
    }
    return out.replace(/(\[[^\]]+\]\+)(?:\1)+/g, "$1");
  }
  if (field === "total" || field === "price") {
    return value.trim().split(/([0-9][0-9.,' ]*[0-9]|[0-9])/).map((part, i) =>
      i % 2 === 1 ? "[0-9][0-9.,']*" : literal(part)
    ).filter(Boolean).join("[ \\t]*");
  }
  return ".+?";
}

/** What ends the capture: the first mark or word after the value on its line, else line end. */
function terminator(rest: string): string {
  const after = rest.trim();
  if (!after) return "[ \\t]*$";
  const mark = /^[^\p{L}\p{N}\s]/u.exec(after)?.[0];
  if (mark) return `[ \\t]*${escape(mark)}`;
  const word = /^[\p{L}\p{N}]+/u.exec(after)?.[0] ?? "";
  return word && !/[0-9]/.test(word) ? `[ \\t]+${escape(word)}` : "[ \\t]*$";
}

/** Text that can anchor: short, with a letter, no digit, and none of the order's own values. */
function fixedText(text: string, variable: string[]): boolean {
  const t = text.trim();
  if (!t || t.length > MAX_LABEL || /[0-9]/.test(t) || !/\p{L}/u.test(t)) return false;
  const lower = t.toLowerCase();
  return !variable.some((v) => v.length >= 3 && lower.includes(v.toLowerCase()));
}

function previousLine(lines: TextLine[], i: number): number {
  let j = i - 1;
  while (j >= 0 && !lines[j].text.trim()) j--;
  return j;
}

/** The expression: the anchor's text, what lies between it and the value, the value's shape. */
function anchored(
  label: string,
  between: string,
  capture: string,
  rest: string,
  how: AnchorKind,
): LearnedExpression {
  return {
    expression: `^[ \\t]*${literal(label)}[ \\t]*${between}(${capture})${terminator(rest)}`,
    anchor: label,
    how,
  };
}

function labelOnLine(
  lines: TextLine[],
  s: Span,
  capture: string,
  variable: string[],
): LearnedExpression | null {
  const line = lines[s.line].text;
  const label = line.slice(0, s.start).trim();
  if (!fixedText(label, variable)) return null;
  return anchored(label, "", capture, line.slice(s.end), "label");
}

/** The value starts its line (spaces aside): what stands above or in its column can anchor it. */
function startsLine(lines: TextLine[], s: Span): boolean {
  return !lines[s.line].text.slice(0, s.start).trim();
}

function lineAbove(
  lines: TextLine[],
  s: Span,
  capture: string,
  variable: string[],
): LearnedExpression | null {
  if (!startsLine(lines, s)) return null;
  const j = previousLine(lines, s.line);
  if (j < 0 || !fixedText(lines[j].text, variable)) return null;
  const rest = lines[s.line].text.slice(s.end);
  return anchored(lines[j].text.trim(), "\\n(?:[ \\t]*\\n)*[ \\t]*", capture, rest, "line above");
}

function column(
  lines: TextLine[],
  s: Span,
  capture: string,
  variable: string[],
): LearnedExpression | null {
  const cell = lines[s.line].cell;
  if (!cell || !startsLine(lines, s)) return null;
  // The header: the nearest line above in the same table and column, in an earlier row.
  for (let j = s.line - 1; j >= 0 && s.line - j <= MAX_COLUMN_DISTANCE; j--) {
    const c = lines[j].cell;
    if (!c || c.table !== cell.table || c.col !== cell.col || c.row >= cell.row) continue;
    if (!fixedText(lines[j].text, variable)) return null;
    const between = s.line - j - 1;
    const skip = `\\n${between > 0 ? `(?:.*\\n){${between}}` : ""}[ \\t]*`;
    const rest = lines[s.line].text.slice(s.end);
    return anchored(lines[j].text.trim(), skip, capture, rest, "column");
  }
  return null;
}

/** The anchors worth trying for a span, most telling first. */
function candidates(
  lines: TextLine[],
  s: Span,
  capture: string,
  variable: string[],
): LearnedExpression[] {
  const prev = previousLine(lines, s.line);
  const cell = lines[s.line].cell;
  const prevCell = prev >= 0 ? lines[prev].cell : undefined;
  // A cell whose left neighbour is in its row has a row label; any other cell, a column header.
  const rowLabel = !cell ||
    (prevCell && prevCell.table === cell.table && prevCell.row === cell.row);
  const order = rowLabel ? [labelOnLine, lineAbove, column] : [labelOnLine, column, lineAbove];
  return order.map((f) => f(lines, s, capture, variable)).filter((e) => e !== null);
}

/**
 * The expression for a corrected value: for each place the value stands in the real message
 * (not in quoted history), the anchors around it, the first that `verify` confirms reads the
 * value back from the same message. `variable` are the order's other values, never an anchor.
 */
export function learnExpression(
  lines: TextLine[],
  field: LearnableField,
  value: string,
  spans: Span[],
  variable: string[],
  verify: (expression: string) => boolean,
): LearnedExpression | null {
  const capture = valuePattern(field, value);
  const own = variable.filter((v) => v.trim().toLowerCase() !== value.trim().toLowerCase());
  for (const s of spans.slice(0, MAX_SPANS)) {
    if (!lines[s.line] || lines[s.line].quoted) continue;
    for (const c of candidates(lines, s, capture, own)) {
      if (verify(c.expression)) return c;
    }
  }
  return null;
}

/** Where a plain value stands in the lines: case and spacing ignored, whole tokens only. */
export function findSpans(lines: TextLine[], value: string): Span[] {
  const needle = value.trim().replace(/\s+/g, " ").toLowerCase();
  if (!needle) return [];
  const spans: Span[] = [];
  const token = /[\p{L}\p{N}]/u;
  for (let i = 0; i < lines.length && spans.length < MAX_SPANS; i++) {
    if (lines[i].quoted) continue;
    const text = lines[i].text.replace(/\s/g, " ").toLowerCase();
    let at = text.indexOf(needle);
    while (at >= 0 && spans.length < MAX_SPANS) {
      const end = at + needle.length;
      const before = text[at - 1] ?? " ";
      const after = text[end] ?? " ";
      const edgeStart = !token.test(needle[0]) || !token.test(before);
      const edgeEnd = !token.test(needle.at(-1)!) || !token.test(after);
      if (edgeStart && edgeEnd) spans.push({ line: i, start: at, end });
      at = text.indexOf(needle, at + 1);
    }
  }
  return spans;
}

/**
 * Spans of a line's tail that `reads` as the value (a date written in words): the tail after a
 * colon first, then tails after ever more leading words (the label being the words before, free
 * of digits and of words that are a date on their own), then the whole line (for a label above
 * it or a column header).
 */
export function findReadSpans(
  lines: TextLine[],
  reads: (text: string) => boolean,
  /** Whether a word is a date on its own (a weekday): such a word is no label. */
  isDay: (word: string) => boolean,
): Span[] {
  const spans: Span[] = [];
  for (let i = 0; i < lines.length && spans.length < MAX_SPANS; i++) {
    const text = lines[i].text;
    if (lines[i].quoted || text.length > 200) continue;
    const end = text.trimEnd().replace(/[.!]$/, "").length;
    const starts = [...text.matchAll(/[\s:]+(?=\S)/g)].map((m) => m.index! + m[0].length)
      .filter((s) => s < end && !/[0-9]/.test(text.slice(0, s))).slice(0, 12);
    const colon = starts.filter((s) => /:\s*$/.test(text.slice(0, s)));
    for (const start of new Set([...colon, ...starts, 0])) {
      const label = text.slice(0, start).split(/[\s:,]+/).filter(Boolean);
      if (label.some(isDay)) continue;
      if (reads(text.slice(start, end))) spans.push({ line: i, start, end });
    }
  }
  return spans;
}
