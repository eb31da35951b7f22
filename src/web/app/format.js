// @ts-check
/** How values read to a person: money from cents, times in the account's timezone. */

const money = new Intl.NumberFormat(undefined, {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * 123456 -> "1,234.56" (the API keeps no currency: cents are the user's own).
 * @param {number | undefined | null} cents
 */
export const centsText = (cents) =>
  cents === undefined || cents === null ? "" : money.format(cents / 100);

/** Currency formatters by code: making one costs far more than using it. */
const currencies = new Map();

/**
 * 123456 in "EUR" -> "€1,234.56": cents with the workspace currency's symbol; without a
 * currency (settings not loaded yet), plain as `centsText`.
 * @param {number | undefined | null} cents
 * @param {string} [currency] ISO 4217
 */
export function moneyText(cents, currency) {
  if (cents === undefined || cents === null) return "";
  if (!currency) return centsText(cents);
  let f = currencies.get(currency);
  if (!f) {
    f = new Intl.NumberFormat(undefined, { style: "currency", currency });
    currencies.set(currency, f);
  }
  return f.format(cents / 100);
}

/**
 * What a person types as money to integer cents: "12", "12.5", "$1,234.56". Empty is null.
 * @param {string} text
 * @returns {number | null}
 */
export function parseCents(text) {
  const plain = text.replace(/[\s,$€£]/g, "");
  if (plain === "") return null;
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) throw new Error("Enter an amount like 12.50");
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/**
 * The cents of money as a store printed it ("$125.21", "1.234,56 €", "CHF 1'234.56"), or null:
 * the decimal separator is the last `.` or `,` followed by one or two digits at the end; other
 * separators group thousands (the rule of src/intake/money.ts, for the browser).
 * @param {string | undefined} printed
 * @returns {number | null}
 */
export function printedCents(printed) {
  const number = /\d[\d.,' \u00A0\u202F]*/.exec(printed ?? "")?.[0].trim();
  if (!number) return null;
  const decimal = /[.,](\d{1,2})$/.exec(number);
  const whole = (decimal ? number.slice(0, decimal.index) : number).replace(
    /[.,' \u00A0\u202F]/g,
    "",
  );
  if (!/^\d{1,12}$/.test(whole)) return null;
  return Number(whole) * 100 + Number((decimal?.[1] ?? "").padEnd(2, "0"));
}

/** Formatters by style and zone: making one costs far more than using it (a table of 200 rows). */
const formatters = new Map();

/**
 * @param {"dateTime" | "date"} style
 * @param {string | undefined} timeZone
 * @returns {Intl.DateTimeFormat}
 */
function formatter(style, timeZone) {
  const key = `${style} ${timeZone ?? ""}`;
  let f = formatters.get(key);
  if (!f) {
    const options = style === "dateTime"
      ? { dateStyle: /** @type {const} */ ("medium"), timeStyle: /** @type {const} */ ("short") }
      : { dateStyle: /** @type {const} */ ("medium") };
    try {
      f = new Intl.DateTimeFormat(undefined, { ...options, timeZone });
    } catch {
      // An unknown zone: the browser's own.
      f = new Intl.DateTimeFormat(undefined, options);
    }
    formatters.set(key, f);
  }
  return f;
}

/**
 * @param {string | undefined} iso
 * @param {string} [timeZone]
 */
export const dateTime = (iso, timeZone) =>
  iso ? formatter("dateTime", timeZone).format(new Date(iso)) : "";

/**
 * @param {string | undefined} iso
 * @param {string} [timeZone]
 */
export const dateOnly = (iso, timeZone) =>
  iso ? formatter("date", timeZone).format(new Date(iso)) : "";

/** @param {number} n */
export function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** @param {number} n */
export const count = (n) => n.toLocaleString();

/**
 * A count with its noun, singular for one: `plural(1, "new order")` -> "1 new order".
 * @param {number} n
 * @param {string} one
 * @param {string} [many] default: `one` + "s"
 */
export const plural = (n, one, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

/** The browser's own timezone, the default for a new account. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
