/**
 * Text normalisation shared by the intake parsers (research/intake.md §1.2): one pass that makes
 * the many ways mail and chat write the same text compare equal, while display values keep
 * their printed form (money, names) apart from the invisible characters.
 */

/** Texts up to this long are remembered by `memoByText`. */
const MAX_MEMO_KEY = 4096;
/**
 * Characters of remembered texts one memo keeps at most (with `max` texts): a store's mails
 * repeat most of their texts (headings, buttons, footers, the same labels), so answers are kept
 * from one message to the next, within this bound whatever the messages hold.
 */
const MAX_MEMO_CHARS = 256 * 1024;

/**
 * A pure function of a text that remembers its answers (at most `max` texts of at most
 * `MAX_MEMO_CHARS` characters in all; when full, it starts again): a reader asks the same
 * question of the same block text many times, and of the same texts in the next mail of a
 * store. Answers are shared, so they must not be changed.
 */
export function memoByText<T>(fn: (text: string) => T, max = 4096): (text: string) => T {
  const answers = new Map<string, T>();
  let chars = 0;
  return (text: string) => {
    if (text.length > MAX_MEMO_KEY) return fn(text);
    let answer = answers.get(text);
    if (answer === undefined && !answers.has(text)) {
      answer = fn(text);
      if (answers.size >= max || chars + text.length > MAX_MEMO_CHARS) {
        answers.clear();
        chars = 0;
      }
      answers.set(text, answer);
      chars += text.length;
    }
    return answer as T;
  };
}

/** Zero-width, soft-hyphen, combining-grapheme-joiner and bidi controls: never part of a value. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD\u034F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Spaces that are not U+0020 (NBSP, narrow NBSP, thin, figure spaces, ideographic space). */
const ODD_SPACES = /[\u00A0\u202F\u2000-\u200A\u3000\t\f\v]/g;
const FULL_WIDTH = /[\uFF01-\uFF5E]/g;
const QUOTES_SINGLE = /[\u2018\u2019\u201A\u2032]/g;
const NON_ASCII = /[\u0080-\uFFFF]/;
/** ASCII whitespace the normal form rewrites: a run becomes one space, or one `\n` if it breaks a line. */
const ASCII_SPACE_RUN = /[ \t\n\v\f\r]+/g;
const LINE_BREAK = /[\r\n]/;

/**
 * The form every matcher reads: invisible characters removed, odd spaces made plain, typographic
 * single quotes folded to `'`, full-width ASCII folded (NFKC would also rewrite `™` or `½` in
 * product names, so only that block is folded), and runs of spaces collapsed.
 * Line breaks are kept (collapsed to single `\n`s with their surrounding spaces trimmed).
 */
export function normaliseText(text: string): string {
  // ASCII (most mail text) has nothing to fold: only the spaces and line breaks to collapse.
  if (!NON_ASCII.test(text)) {
    return text.replace(ASCII_SPACE_RUN, (run) => LINE_BREAK.test(run) ? "\n" : " ").trim();
  }
  return text.normalize("NFC")
    .replace(FULL_WIDTH, (c) => String.fromCharCode(c.charCodeAt(0) - 0xFEE0))
    .replace(INVISIBLE, "")
    .replace(ODD_SPACES, " ")
    .replace(QUOTES_SINGLE, "'")
    .replace(/\r\n?/g, "\n")
    .replace(/ {2,}/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{2,}/g, "\n")
    .trim();
}

/** One line: `normaliseText` with line breaks made spaces. */
export function normaliseLine(text: string): string {
  return asciiLine(text) ?? normaliseText(text).replace(/\n/g, " ");
}

/**
 * `normaliseLine` of ASCII text in one pass: words joined by single spaces, the text itself
 * when it is already so. Undefined when the text has a character beyond ASCII.
 */
function asciiLine(text: string): string | undefined {
  let out = "";
  let word = -1;
  let same = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return undefined;
    // The ASCII white space `normaliseText` collapses: space, \t, \n, \v, \f, \r.
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      if (c !== 0x20 || word < 0) same = false;
      if (word >= 0) out += (out ? " " : "") + text.slice(word, i);
      word = -1;
    } else if (word < 0) word = i;
  }
  if (word >= 0) out += (out ? " " : "") + text.slice(word);
  else if (text.length > 0) same = false;
  return same ? text : out;
}

/**
 * Lower case without diacritics, for comparing words across languages and spellings
 * (`Numéro` = `numero`, `Größe` = `grosse`). Not for display.
 */
export function foldForMatch(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(/[\u0300-\u036F]/g, "").toLowerCase()
    .replace(/ß/g, "ss");
}

/** Replaces U+00A0 and U+202F with a space: how displayed values compare. */
export function plainSpaces(text: string): string {
  return text.replace(/[\u00A0\u202F]/g, " ");
}

/** At most `max` characters, cut at a character boundary (never inside a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xD800 && code <= 0xDBFF ? max - 1 : max);
}

const SAME_LENGTH_FOLDS: Record<string, string> = {
  "№": "#",
  "ß": "s",
  "æ": "a",
  "œ": "o",
  "ø": "o",
  "ł": "l",
};

/**
 * `foldForMatch` that keeps every character at its offset (one UTF-16 unit in, one out, `№`
 * read as `#`), so a match on the folded text slices the same value out of the original.
 */
export const foldKeepingOffsets = memoByText(foldUnits);

function foldUnits(text: string): string {
  // ASCII runs fold with `toLowerCase` (A-Z only); other units one by one, each folded once.
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) continue;
    if (i > from) out += text.slice(from, i).toLowerCase();
    out += foldUnit(text[i]);
    from = i + 1;
  }
  return from === 0 ? text.toLowerCase() : out + text.slice(from).toLowerCase();
}

const foldedUnits = new Map<string, string>();

/** One non-ASCII UTF-16 unit folded to one unit (the set of units is finite: no bound needed). */
function foldUnit(c: string): string {
  let folded = foldedUnits.get(c);
  if (folded === undefined) {
    const lower = c.toLowerCase();
    const base = lower.normalize("NFKD").replace(/[\u0300-\u036F]/g, "");
    folded = SAME_LENGTH_FOLDS[lower] ??
      (base.length === 1 ? base : lower.length === 1 ? lower : c);
    foldedUnits.set(c, folded);
  }
  return folded;
}
