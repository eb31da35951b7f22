/**
 * Calendar dates as mails and mail clients write them, in English, German, French, Spanish,
 * Italian, Dutch and Polish: full dates, dates without a year
 * and weekday-only dates resolved against an anchor (the original mail's own date), numeric
 * dates, and ranges (which give no single day). Pure.
 */
import { foldForMatch } from "../text.ts";
import { MONTH_NAMES, MONTHS, RELATIVE, WEEKDAYS } from "./date_words.ts";

/** A calendar day; `weekday` 0 = Sunday. */
export interface Day {
  year: number;
  month: number;
  day: number;
}

export function dayString(d: Day): string {
  return `${String(d.year).padStart(4, "0")}-${String(d.month).padStart(2, "0")}-${
    String(d.day).padStart(2, "0")
  }`;
}

function valid(year: number, month: number, day: number): Day | null {
  if (month < 1 || month > 12 || day < 1 || year < 1970 || year > 2200) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCDate() === day ? { year, month, day } : null;
}

function addDays(d: Day, n: number): Day {
  const date = new Date(Date.UTC(d.year, d.month - 1, d.day + n));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function weekdayOf(d: Day): number {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

/** A year-less day: the anchor's year, or the next one when that day is well before the anchor. */
function withYear(month: number, day: number, anchor?: Day): Day | null {
  if (!anchor) return null;
  const same = valid(anchor.year, month, day);
  if (same && (month > anchor.month - 2 || anchor.month <= 2 && month >= 11)) {
    // December anchor, January day: rolls forward across New Year.
    if (anchor.month === 12 && month <= 2) return valid(anchor.year + 1, month, day);
    if (anchor.month <= 2 && month >= 11) return valid(anchor.year - 1, month, day);
    return same;
  }
  return valid(anchor.year + 1, month, day);
}

type Token = { kind: "word"; text: string } | {
  kind: "num";
  value: number;
  text: string;
  sep: string;
  /** Part of a time of day (`9:31`, `18:31:05`). */
  time: boolean;
};

function tokens(text: string): Token[] {
  const out: Token[] = [];
  // `ł` has no decomposition: folded by hand, so `poniedziałek` is one word.
  const folded = foldForMatch(text).replace(/ł/g, "l");
  for (const m of folded.matchAll(/(\d+)([./-]?)|([a-z']+)/g)) {
    if (m[1] !== undefined) {
      const end = m.index! + m[1].length;
      const time = folded[end] === ":" || folded[m.index! - 1] === ":";
      out.push({ kind: "num", value: Number(m[1]), text: m[1], sep: m[2] ?? "", time });
    } else out.push({ kind: "word", text: m[3] });
    if (out.length > 40) break;
  }
  return out;
}

/** `2026年8月19日`, `8月19日(水)`: a Japanese date, with or without its year. */
const JAPANESE_DAY = /(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*日/;
/** `in 2-4 días laborables`, `within 3 business days`: a duration names no day. */
const DURATION =
  /\b\d{1,2}(?:\s*[-–]\s*\d{1,2})?\s+(?:(?:business|working|werk|arbeits)\s*)?(?:days?|dias|tagen?|werktagen?|jours|giorni|dagen|werkdagen|dni)\b/;
/** Two day numbers joined by a dash (`10-12`), not part of a numeric date (`10-12-2026`). */
const DAY_SPAN = /(?<![\d./-])\d{1,2}\s?[-–]\s?\d{1,2}(?![\d./-])/;
const RANGE = /\s(?:-|–|—|~|〜|to|bis|au|al|tot)\s|[〜~]|\bentre\b|\bbetween\b|\bzwischen\b/i;
/**
 * Hours of one day (`10:00 - 12:00 Uhr`, `tussen 18:00 en 19:00`, `entre 9h et 13h`): a time
 * window, not a range of days; it is cut before the range test.
 */
const TIME = String.raw`(?:[01]?\d|2[0-3])(?:(?::[0-5]\d)?\s*[ap]\.?m\.?|:[0-5]\d|h(?:[0-5]\d)?)`;
const TIME_WINDOW = new RegExp(
  String
    .raw`(?:\b(?:between|zwischen|tussen|entre|tra|fra|from|von|van|de|dalle)\s+)?\b${TIME}\s*(?:-|–|—|~|〜|to|bis|tot|à|a|and|und|en|et|y|e|alle)\s*${TIME}(?:\s*(?:uhr|uur)\b)?`,
  "gi",
);

export interface DateOptions {
  /** The day the mail was written: year-less and weekday-only dates are resolved against it. */
  anchor?: Day;
  /** Read `1/2/2026` as 2 January (default) or, for English, as January 2. */
  monthFirst?: boolean;
}

/** Whether a text names a month, a weekday or a relative day (`today`). */
function hasDateWord(text: string): boolean {
  return tokens(text).some((t) =>
    t.kind === "word" &&
    (MONTHS[t.text] !== undefined || WEEKDAYS[t.text] !== undefined ||
      RELATIVE[t.text] !== undefined)
  );
}

/**
 * `Wed, Dec 2 2026 - Standard Delivery`: a note after a dash that holds no digit and no date
 * word is no second day of a range; it is cut off.
 */
function withoutNote(text: string): string {
  const m = /\s[-–—]\s(\D*)$/.exec(text);
  return m && !hasDateWord(m[1]) ? text.slice(0, m.index) : text;
}

/**
 * The one calendar day a short text names, or null (no date, several days, a range). Numeric
 * `dd.mm.yyyy`, `yyyy-mm-dd`, `mm/dd/yyyy` (with `monthFirst`), month names with or without a
 * year, weekday names and today/tomorrow (against the anchor).
 */
export function parseDay(text: string, options: DateOptions = {}): Day | null {
  if (text.length > 120) return null;
  const iso = /\b(\d{4})-(\d{2})-(\d{2})(?!\d)/.exec(text);
  if (iso) return valid(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  text = withoutNote(text.replace(TIME_WINDOW, " "));
  if (RANGE.test(` ${text} `) || DURATION.test(foldForMatch(text))) return null;
  // `2026/11/21(土)`, `2026.11.21`: year first, as Japanese, Chinese and Swedish mail write it.
  const yearFirst = /(?<![\d/.])(\d{4})[/.](\d{1,2})[/.](\d{1,2})(?![\d/.])/.exec(text);
  if (yearFirst) {
    return valid(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
  }
  const ja = JAPANESE_DAY.exec(text);
  if (ja) {
    const [month, day] = [Number(ja[2]), Number(ja[3])];
    return ja[1] ? valid(Number(ja[1]), month, day) : withYear(month, day, options.anchor);
  }
  const toks = tokens(text);
  const { anchor } = options;
  let weekday: number | undefined;
  const months: { month: number; alsoWeekday: boolean }[] = [];
  const dayNumbers: Extract<Token, { kind: "num" }>[] = [];
  for (const t of toks) {
    if (t.kind === "word") {
      const isWeekday = WEEKDAYS[t.text] !== undefined;
      if (MONTHS[t.text] !== undefined) {
        months.push({ month: MONTHS[t.text], alsoWeekday: isWeekday });
      } else if (isWeekday && weekday === undefined) weekday = WEEKDAYS[t.text];
      else if (RELATIVE[t.text] !== undefined && anchor) return addDays(anchor, RELATIVE[t.text]);
    } else if (!t.time) dayNumbers.push(t);
  }
  // `mar.` is Tuesday in French and March in English: a plain month name wins.
  const named = months.find((m) => !m.alsoWeekday) ?? months[0];
  if (named && months.length > 1 && named !== months[0] && weekday === undefined) {
    weekday = WEEKDAYS[
      MONTH_NAMES[months[0].month - 1].find((n) => WEEKDAYS[n] !== undefined) ?? ""
    ];
  }
  const month = named?.month;
  let found: Day | null = null;
  if (month !== undefined) {
    // `Nov 10-12`, `10–12 novembre`: days joined by a dash under one month are a range.
    if (DAY_SPAN.test(text)) return null;
    const day = dayNumbers.find((n) => n.value >= 1 && n.value <= 31 && n.text.length <= 2);
    const year = dayNumbers.find((n) => n.text.length === 4);
    if (!day) return null;
    found = year ? valid(year.value, month, day.value) : withYear(month, day.value, anchor);
  } else if (dayNumbers.length >= 2 && dayNumbers[0].sep !== "") {
    const [a, b, c] = dayNumbers;
    if (a.text.length > 2 || b.text.length > 2) return null;
    const year = c && c.text.length === 4
      ? c.value
      : c && c.text.length === 2
      ? 2000 + c.value
      : undefined;
    const dotted = a.sep === ".";
    const monthFirst = !dotted && (options.monthFirst ?? false);
    let [m, d] = monthFirst ? [a.value, b.value] : [b.value, a.value];
    if (m > 12 && d <= 12) [m, d] = [d, m];
    found = year ? valid(year, m, d) : withYear(m, d, anchor);
  } else if (weekday !== undefined && dayNumbers.length === 0 && anchor) {
    // A weekday alone: the next such day after the anchor (the same day counts as today).
    const delta = (weekday - weekdayOf(anchor) + 7) % 7;
    return addDays(anchor, delta);
  }
  if (found && weekday !== undefined && weekdayOf(found) !== weekday) {
    // A weekday that contradicts the date: trust neither.
    return null;
  }
  return found;
}

/** The calendar day of an RFC 5322 `Date` header in the writer's own time zone. */
export function headerDay(value: string | undefined): Day | null {
  if (!value) return null;
  const m = /(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{4})/.exec(value);
  if (m) {
    const month = MONTHS[m[2].toLowerCase()];
    if (month) return valid(Number(m[3]), month, Number(m[1]));
  }
  const t = Date.parse(value);
  if (Number.isNaN(t)) return null;
  const d = new Date(t);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Earliest message date believed: older dates are a writer's wrong clock. */
const EARLIEST_MESSAGE_MS = Date.UTC(2000, 0, 1);
/** A date this far past the reading's clock is a wrong clock too. */
const FUTURE_SLACK_MS = 24 * 3600_000;

/**
 * The instant a message was written, from its `Date` header or a forward block's date line
 * ("Mon, Nov 24, 2026 at 10:00 AM"), as ISO; null when absent, unreadable or implausible.
 */
export function messageTime(value: string | undefined, now: number): string | null {
  if (!value) return null;
  const text = value.slice(0, 200).replace(/\s+at\s+/i, " ").replace(/\s*\([^)]*\)\s*$/, "");
  const t = Date.parse(text);
  if (Number.isNaN(t) || t < EARLIEST_MESSAGE_MS || t > now + FUTURE_SLACK_MS) return null;
  return new Date(t).toISOString();
}
