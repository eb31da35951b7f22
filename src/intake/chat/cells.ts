/**
 * A one-line summary printed as cells: `Kith | New Balance 1906R | Size 9.5 | $160.00 | Order: K-1`.
 * Cells that carry a label (`Order: K-1`, or a label and its value with no colon: `Size 9.5`)
 * or a bare money figure are read as pairs; the one or two cells left are the product and maybe
 * its shop. Which is which is decided only when one of them cannot be a shop's name (a figure,
 * a quote or brackets, more than three words): otherwise neither is taken.
 */
import { type LabelMeaning, labelMeaning } from "./vocabulary.ts";

/** Separators between cells: one kind per line, spaced. */
const SEPARATORS = [" | ", " • ", " · "];
const MAX_CELLS = 12;
/** Money beyond doubt: a currency sign or code next to the figure. */
const MONEY =
  /^(?:(?:[$€£¥₹₩]|[A-Z]{1,3}\$|[A-Z]{3}\s?)\s?\d[\d.,' ]*|\d[\d.,' ]*\s?(?:[$€£¥₹]|[A-Z]{3}))$/;
/** An email address, masked or not (`j***@gmail.com`). */
const EMAIL_VALUE = /^[^\s@]{1,64}@[^\s@]{1,255}\.[a-z]{2,24}$/i;
/** A size as printed after its label: short, with a digit or a letter size (`EU 41 1/3`). */
const SIZE =
  /^(?:[A-Z]{1,3}\s?)?\d{1,2}(?:[.,]5|\s[12]\/3)?(?:\s?[A-Z]{1,2})?$|^(?:XXS|XS|S|M|L|XL|XXL|XXXL|OS)$/i;

/** A size with its region and no label (`EU 43`, `US 9.5`): a size whatever stands around it. */
const REGION_SIZE = /^(?:EU|US|UK|JP|FR|IT|CM|MX|BR)\s?\d{1,2}(?:[.,]5|\s[12]\/3)?$/;
/** A bare small figure (`9`, `10.5`): a size or a quantity, so neither, and not the product. */
const BARE_FIGURE = /^\d{1,2}(?:[.,]5)?$/;
/** How the checkout was paid (`Visa`, `PayPal`): never an order field nor the product. */
const PAYMENT =
  /^(?:visa|mastercard|master card|maestro|amex|american express|discover|paypal|apple ?pay|google ?pay|shop ?pay|klarna|afterpay|clearpay|affirm|ideal|sofort|bancontact|giropay|venmo|cash ?app|card|credit card|debit card)$/i;

export interface Cells {
  pairs: [LabelMeaning, string][];
  /** The product cell, when one was told apart. */
  product?: string;
}

/** Does a value fit the field its label names? A cell that does not is plain text. */
function fits(kind: string, value: string): boolean {
  if (kind === "price" || kind === "total") return MONEY.test(value);
  if (kind === "size") return SIZE.test(value);
  if (kind === "quantity") return /^\d{1,5}$/.test(value);
  if (kind === "orderNumber") {
    return /^#?[\p{L}\p{N}][\p{L}\p{N}-]{2,40}$/u.test(value) && /\d/.test(value);
  }
  return false;
}

/**
 * A labelled cell: `Label: value`, or one or two label words then the value. Undefined for a
 * `Label: value` cell whose label we do not know: the line is then not read as cells.
 */
function labelled(cell: string): [LabelMeaning, string] | null | undefined {
  const colon = /^([^:：]{1,40})[:：]\s*(.+)$/.exec(cell);
  if (colon) {
    const meaning = labelMeaning(colon[1]);
    if (meaning) return [meaning, colon[2].trim()];
    // A value that is an email address is an account's, whatever the label calls it.
    return EMAIL_VALUE.test(colon[2].trim()) ? [{ kind: "private" }, colon[2].trim()] : undefined;
  }
  const words = cell.split(" ");
  // `Size EU 41 1/3`: without a colon the region is the size's own (`EU 41 1/3`, as written).
  const size = labelMeaning(words[0]);
  const rest = words.slice(1).join(" ");
  if (size?.kind === "size" && /^[A-Z]{2}\s/.test(rest) && fits("size", rest)) return [size, rest];
  for (let n = Math.min(2, words.length - 1); n >= 1; n--) {
    const meaning = labelMeaning(words.slice(0, n).join(" "));
    const value = words.slice(n).join(" ");
    if (meaning && fits(meaning.kind, value)) return [meaning, value];
  }
  return null;
}

/** A name a shop could have: up to three words, no figure, no quote or bracket. */
const shopLike = (cell: string) =>
  cell.split(" ").length <= 3 && cell.length <= 30 && !/[\d'"‘’“”()\[\]]/.test(cell);
/** A cell that can only be a product: more than three words, or a quote or bracket. */
const productOnly = (cell: string) =>
  cell.split(" ").length > 3 || cell.length > 30 || /['"‘’“”()\[\]]/.test(cell);
/** A shop's name with a figure in its word (`Store42`), no figure standing alone. */
const shopWithFigure = (cell: string) =>
  cell.split(" ").length <= 2 && cell.length <= 30 && !productOnly(cell) &&
  !cell.split(" ").some((w) => /^\d/.test(w));

/**
 * The cells of a line, or null when it is not such a summary: three cells or more, two of them
 * read as pairs or money, one or two plain cells, one kind of separator and no label we do not
 * know.
 */
export function readCells(line: string): Cells | null {
  const used = SEPARATORS.filter((s) => line.includes(s));
  if (used.length !== 1) return null;
  const [separator] = used;
  const cells = line.split(separator).map((c) => c.trim()).filter((c) => c !== "");
  if (cells.length < 3 || cells.length > MAX_CELLS) return null;
  const pairs: [LabelMeaning, string][] = [];
  const plain: string[] = [];
  for (const cell of cells) {
    const pair = labelled(cell);
    if (pair === undefined) return null;
    if (pair) pairs.push(pair);
    else if (MONEY.test(cell)) pairs.push([{ kind: "price" }, cell]);
    else if (REGION_SIZE.test(cell)) pairs.push([{ kind: "size" }, cell]);
    else if (!BARE_FIGURE.test(cell) && !PAYMENT.test(cell)) plain.push(cell);
  }
  if (pairs.length < 2 || plain.length === 0 || plain.length > 2) return null;
  if (plain.length === 1) return { pairs, product: plain[0] };
  let [a, b] = plain.map(shopLike);
  // Neither reads as a shop by its letters alone: one that can only be a product decides.
  if (!a && !b) {
    const [pa, pb] = plain.map(productOnly);
    if (pa !== pb) {
      [a, b] = pa ? [false, shopWithFigure(plain[1])] : [shopWithFigure(plain[0]), false];
    }
  }
  if (a === b) return { pairs };
  const [shop, product] = a ? plain : [plain[1], plain[0]];
  return { pairs: [[{ kind: "store" }, shop], ...pairs], product };
}
