/**
 * Text normalisation shared by the intake parsers (research/intake.md §1.2): one pass that makes
 * the many ways mail and chat write the same text compare equal, while display values keep
 * their printed form (money, names) apart from the invisible characters.
 */

/** Zero-width, soft-hyphen, combining-grapheme-joiner and bidi controls: never part of a value. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD\u034F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Spaces that are not U+0020 (NBSP, narrow NBSP, thin, figure spaces, ideographic space). */
const ODD_SPACES = /[\u00A0\u202F\u2000-\u200A\u3000\t\f\v]/g;
const FULL_WIDTH = /[\uFF01-\uFF5E]/g;
const QUOTES_SINGLE = /[\u2018\u2019\u201A\u2032]/g;

/**
 * The form every matcher reads: invisible characters removed, odd spaces made plain, typographic
 * single quotes folded to `'`, full-width ASCII folded (NFKC would also rewrite `™` or `½` in
 * product names, so only that block is folded), and runs of spaces collapsed.
 * Line breaks are kept (collapsed to single `\n`s with their surrounding spaces trimmed).
 */
export function normaliseText(text: string): string {
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
  return normaliseText(text).replace(/\n/g, " ");
}

/**
 * Lower case without diacritics, for comparing words across languages and spellings
 * (`Numéro` = `numero`, `Größe` = `grosse`). Not for display.
 */
export function foldForMatch(text: string): string {
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
export function foldKeepingOffsets(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const code = c.charCodeAt(0);
    if (code < 128) {
      out += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : c;
      continue;
    }
    const lower = c.toLowerCase();
    const special = SAME_LENGTH_FOLDS[lower];
    if (special) {
      out += special;
      continue;
    }
    const base = lower.normalize("NFKD").replace(/[\u0300-\u036F]/g, "");
    out += base.length === 1 ? base : lower.length === 1 ? lower : c;
  }
  return out;
}
