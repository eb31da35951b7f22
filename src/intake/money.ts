/**
 * Money as stores print it (research/intake.md §1.8): the display string is kept as printed,
 * the amount is parsed only to compare figures (which one is the total, does markup's `price`
 * match a printed figure). The decimal separator is the last `.` or `,` followed by exactly
 * one or two digits at the end; any other separator (`.`, `,`, `'`, space) groups thousands.
 */
import { CURRENCIES } from "../domain/insights/currency.ts";
import { memoByText } from "./text.ts";

export interface Money {
  /** As printed (after text normalisation), e.g. `$1,134.65`, `1.234,56 €`, `CHF 1'234.56`. */
  display: string;
  /** Amount in minor units (cents), for comparisons only. */
  cents: number;
  currency?: string;
  /** Offset of the display string in the text it was found in. */
  index: number;
}

const SYMBOLS: Record<string, string> = {
  "$": "USD",
  "US$": "USD",
  "US $": "USD",
  "C$": "CAD",
  "R$": "BRL",
  "CA$": "CAD",
  "A$": "AUD",
  "AU$": "AUD",
  "€": "EUR",
  "£": "GBP",
  "¥": "JPY",
  "￥": "JPY",
  "円": "JPY",
  // Japanese shop systems put the unit in brackets: `2,480(円)`.
  "(円)": "JPY",
  "（円）": "JPY",
  "₹": "INR",
  "Rs": "INR",
  "Rs.": "INR",
  // Dollars of other countries, marked by letters before the sign.
  "S$": "SGD",
  "HK$": "HKD",
  "NZ$": "NZD",
  "NT$": "TWD",
  "MX$": "MXN",
  // The rand, the ringgit, the rupiah; won, peso, baht, lira, shekel, dong.
  "R": "ZAR",
  "RM": "MYR",
  "Rp": "IDR",
  "₩": "KRW",
  "₱": "PHP",
  "฿": "THB",
  "₺": "TRY",
  "₪": "ILS",
  "₫": "VND",
  "Kč": "CZK",
  "Ft": "HUF",
  "lei": "RON",
  "kr": "SEK",
  // Danish and Norwegian shops write the krone with a dot: `599,00 kr.`.
  "kr.": "SEK",
  "zł": "PLN",
  "Fr.": "CHF",
};
const CODES = CURRENCIES.join("|");
/** A code written after a figure that has its sign (`₱17,200.00 PHP`): any currency we know a sign of. */
const TRAILING_CODES = [...new Set([...CURRENCIES, ...Object.values(SYMBOLS)])].join("|");
/**
 * A lone `R` (the rand) only before an amount with cents (`R 2 998,00`, `R1,299.00`): a letter
 * before a bare figure is too often a size or a model.
 */
const RAND = String.raw`R(?=\s?\d{1,3}(?:[ ,.\u00A0\u202F]\d{3})*[.,]\d{2}(?!\d))`;
const SYMBOL = String
  .raw`(?:US ?\$|C\$|CA\$|A\$|AU\$|R\$|S\$|HK\$|NZ\$|NT\$|MX\$|\$|€|£|¥|￥|₹|Rs\.?|RM|Rp|₩|₱|฿|₺|₪|₫|${RAND})`;
const NUMBER = String.raw`\d{1,3}(?:[.,' \u00A0\u202F]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
/** Whole units written with a dash for the cents (`€ 249,-`, `1.299,– €`): kept in the display. */
const WHOLE = String.raw`(?:(?<=\d)[.,][-–—]{1,2}(?![\d-–—]))?`;
const PREFIX = new RegExp(
  String
    .raw`(?<![\w$€£])(?:(?:(${CODES})\s(?=\S*\$))?(${SYMBOL})\s?|(${CODES})\s)-?(${NUMBER})${WHOLE}(?:\s(${TRAILING_CODES})\b)?(?![\d.,]*\d)`,
  "g",
);
const SUFFIX = new RegExp(
  String
    .raw`(?<![\w.,'])(-?)(${NUMBER})${WHOLE}\s?(?:(€|£|\$|kr\.?|zł|Fr\.|円|\(円\)|（円）|(?:Kč|Ft|lei)(?![A-Za-z])|₺|₫|₩)(?:\s(${TRAILING_CODES})\b)?|(${CODES})\b)`,
  "g",
);

/** What every figure holds besides a digit: a currency symbol or code (a cheap test first). */
const CURRENCY_MARK = new RegExp(
  String.raw`[$€£¥￥₹円₩₱฿₺₪₫]|kr|zł|Fr\.|Kč|Ft|lei|R\s?\d|RM|Rp|Rs|${CODES}`,
);
const DIGIT = /\d/;

/** The amount of a number as printed, in cents, or null. */
export function parseAmount(number: string): number | null {
  const text = number.replace(/\s/g, " ").trim();
  const decimal = /[.,](\d{1,2})$/.exec(text);
  const whole = (decimal ? text.slice(0, decimal.index) : text).replace(/[.,' ]/g, "");
  if (!/^\d+$/.test(whole) || whole.length > 12) return null;
  const fraction = decimal ? decimal[1].padEnd(2, "0") : "00";
  return Number(whole) * 100 + Number(fraction);
}

/** Every money figure in a text, in order; a figure needs a currency symbol or code. */
export function findMoney(text: string, max = 50): Money[] {
  if (!DIGIT.test(text) || !CURRENCY_MARK.test(text)) return [];
  const found: Money[] = [];
  const taken: [number, number][] = [];
  const overlaps = (a: number, b: number) => taken.some(([x, y]) => a < y && b > x);
  // `exec` loops rather than `matchAll`, which copies the pattern on every call.
  PREFIX.lastIndex = 0;
  for (let m = PREFIX.exec(text); m; m = PREFIX.exec(text)) {
    if (found.length >= max) break;
    const cents = parseAmount(m[4]);
    if (cents === null) continue;
    const currency = m[5] ?? m[1] ?? m[3] ?? SYMBOLS[m[2]?.replace(/\s/g, " ") ?? ""] ??
      SYMBOLS[m[2] ?? ""];
    found.push({ display: m[0].trim(), cents, currency, index: m.index! });
    taken.push([m.index!, m.index! + m[0].length]);
  }
  SUFFIX.lastIndex = 0;
  for (let m = SUFFIX.exec(text); m; m = SUFFIX.exec(text)) {
    if (found.length >= max) break;
    if (overlaps(m.index!, m.index! + m[0].length)) continue;
    const cents = parseAmount(m[2]);
    // `6 Ft` is more often feet than forints: the forint is read from a hundred up.
    if (cents === null || (m[3] === "Ft" && cents < 10000)) continue;
    found.push({
      display: m[0].trim(),
      cents,
      currency: m[5] ?? m[4] ?? SYMBOLS[m[3] ?? ""],
      index: m.index!,
    });
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * The one money figure a short text is made of (`$170.00`, `1 234,56 €`), or null. Remembered
 * per text: the figure returned is shared and must not be changed.
 */
export const moneyValue = memoByText(readMoneyValue);

/** A subscription's billing period after its figure (`£16.50 / month`, `9,99 € pro Monat`). */
const PERIOD =
  /\s*(?:\/|\bper\b|\bpro\b|\bpar\b|\bpor\b|\bal\b|\ba\b)\s*(?:month|mo|year|yr|week|wk|monat|jahr|woche|mois|an|semaine|mes|año|semana|maand|jaar|week|mese|anno|settimana|月|年)(?![a-z])\.?/i;

function readMoneyValue(text: string): Money | null {
  const found = findMoney(text, 3);
  if (found.length !== 1) return null;
  const rest =
    (text.slice(0, found[0].index) + text.slice(found[0].index + found[0].display.length))
      .replace(PERIOD, "")
      .replace(/\([^)]{0,40}\)|\b(?:USD|EUR|GBP|CHF|CAD|AUD|TTC|HT)\b|[()*:\s]/gi, "");
  return rest.length <= 3 ? found[0] : null;
}
