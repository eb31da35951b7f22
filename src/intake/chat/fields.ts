/**
 * Order fields from a checkout's label/value pairs (fixture README rules 4 to 12). Values are
 * kept as printed; a value that does not look like its field is left out rather than guessed.
 * Sources are tried in order (fields, then description, then content) and the first source
 * that has a field's label gives it.
 */
import type { MessageFields } from "../../domain/orders/order.ts";
import { detectCarrier } from "../../domain/tracking/number.ts";
import type { Pair } from "./pairs.ts";
import { firstUrl, httpUrl, isNoValue } from "./text.ts";
import { type FieldKind, labelMeaning } from "./vocabulary.ts";

/** The order schema's bounds: a longer value is not what the label promised. */
const MAX = { item: 2000, store: 200, orderNumber: 200, money: 100, size: 40, tracking: 200 };
const MAX_QUANTITY = 100_000;

/** One product as printed, with a quantity marker (`× 2`, `2x`, `x3`) taken off. */
export interface LineItem {
  name: string;
  quantity?: number;
  price?: string;
  size?: string;
}

const MONEY =
  /^(?:[$€£¥₹₩]|[A-Z]{1,3}\$|(?:USD|EUR|GBP|CAD|AUD|JPY|CHF|SEK|NOK|DKK|PLN|CZK|NZD)\s?)?\s?\d[\d.,' ]*(?:\s?(?:[$€£¥₹]|kr|zł|USD|EUR|GBP|CAD|AUD|JPY|CHF|SEK|NOK|DKK|PLN|CZK|NZD))?$/;
/** A cart line's position before its product: `Item 1: `, `Artikel 2. `, `#3) `. */
const LINE_POSITION =
  /^(?:(?:item|product|line|artikel|article|artículo|producto|articolo|prodotto|商品)\s*)?#?\d{1,3}\s*[:.)]\s+(?=\S)/iu;
/** The figure after a cart line's last dash, and a short size in brackets after it. */
const CART_TAIL = /^(.+?)(?:\s+\(([^()]{1,20})\))?$/;

/** Quantity markers around a product name. */
function takeQuantity(name: string): LineItem {
  const before = /^(\d{1,5})\s*[x×]\s+(.+)$/i.exec(name);
  if (before) return withQuantity(before[2], before[1]);
  const after = /^(.+?)\s+(?:[x×]\s*(\d{1,5})|(\d{1,5})\s*[x×]|\((?:x|qty:?)\s*(\d{1,5})\))$/i.exec(
    name,
  );
  if (after) return withQuantity(after[1], after[2] ?? after[3] ?? after[4]);
  return { name };
}

function withQuantity(name: string, digits: string): LineItem {
  const quantity = Number(digits);
  return quantity >= 1 && quantity <= MAX_QUANTITY ? { name: name.trim(), quantity } : { name };
}

/**
 * A product line as a cart prints it: `2x Name - 59.98 USD (OS)`, `Name ×3 — $35.00` (figures
 * only after the last dash). A labelled product (`strict`) gives a figure only when it is
 * plainly money (a sign, a code or two decimals): `Product: Dunk Low - 10` keeps its name.
 */
export function readLineItem(printed: string, cartLine: boolean, strict = false): LineItem {
  const line = printed.replace(LINE_POSITION, "");
  if (!cartLine) return takeQuantity(line);
  const dash = [...line.matchAll(/\s+[-–—]\s+/g)].at(-1);
  const tail = dash && dash.index > 0
    ? CART_TAIL.exec(line.slice(dash.index + dash[0].length))
    : null;
  if (!dash || !tail || !MONEY.test(tail[1]) || (strict && !PLAIN_MONEY.test(tail[1]))) {
    return takeQuantity(line);
  }
  const item = labelledSize(takeQuantity(line.slice(0, dash.index)));
  return {
    ...item,
    price: tail[1],
    ...(tail[2] && !isNoValue(tail[2]) ? { size: tail[2] } : {}),
  };
}

/** A size label and its value in brackets closing a name: `Vomero 5 (Maat 44)`, `(Size: 10.5)`. */
const BRACKETED = /^(.+?)\s*\((\p{L}[\p{L} ]{0,15}?)\s*:?\s+([^\s()][^()]{0,11})\)$/u;

/** The name without a bracketed size label and value, and that size. */
function labelledSize(item: LineItem): LineItem {
  const m = BRACKETED.exec(item.name);
  if (!m || labelMeaning(m[2])?.kind !== "size" || isNoValue(m[3])) return item;
  return { ...item, name: m[1], size: m[3].trim() };
}

/** Money beyond doubt: a currency sign or code, or a figure with two decimals. */
const PLAIN_MONEY = /[$€£¥₹₩]|\b[A-Z]{3}\b|\d[.,]\d{2}(?!\d)/;

/** A name worth calling a product: a letter, not a URL, within bounds. */
export function isName(s: string): boolean {
  return /\p{L}/u.test(s) && s.length <= MAX.item && !/^https?:\/\//i.test(s);
}

/** The values of one kind, from the first source that has any. */
function valuesOf(pairs: readonly Pair[], kind: FieldKind): Pair[] {
  const first = pairs.find((p) => p.kind === kind);
  return first ? pairs.filter((p) => p.kind === kind && p.source === first.source) : [];
}

/** The first single-line value of a kind (the matching part of a `Size/Color` value). */
function single(pairs: readonly Pair[], kind: FieldKind): string | undefined {
  for (const pair of valuesOf(pairs, kind)) {
    if (pair.lines.length !== 1) continue;
    let value = pair.lines[0];
    if (pair.part) {
      const parts = value.split("/").map((s) => s.trim());
      if (parts.length !== pair.part.count) continue;
      value = parts[pair.part.index];
    }
    if (!isNoValue(value)) return value;
  }
  return undefined;
}

/** The products named by product labels, in printed order (one per line). */
export function itemsFromPairs(pairs: readonly Pair[]): LineItem[] {
  return valuesOf(pairs, "item").flatMap((p) => p.lines)
    .filter((line) => !isNoValue(line))
    .map((line) => readLineItem(line, true, true))
    .filter((item) => isName(item.name));
}

/** `#1234` -> `1234`: one token with a digit, a leading `#` dropped, case kept. */
export function orderNumberFrom(value: string | undefined): string | undefined {
  const token = value?.trim().replace(/^#\s*/, "");
  if (!token || token.length > MAX.orderNumber) return undefined;
  return /^[\p{L}\p{N}][\p{L}\p{N}\-_./]*$/u.test(token) && /\d/.test(token) ? token : undefined;
}

/**
 * A money value: one figure with at most a short currency before or after it (`$1,599.00`,
 * `180,00 €`, `CA$280.00`, `59.98 USD`). Anything more (`$10 Zwischensumme: $9`) is left out.
 */
const money = (v: string | undefined) =>
  v !== undefined && v.length <= MAX.money && MONEY_VALUE.test(v) ? v : undefined;
const MONEY_VALUE = /^[^\d\s]{0,4}\s?\d[\d.,' ]*(?:\s?[^\d\s]{1,4})?$/u;

/** `2`, `x2`, `2x`, or a count with its unit word (`2 pcs`, `2 Stück`, `2 unidades`, `2個`). */
const QUANTITY =
  /^(?:[x×]\s*)?(\d{1,6})(?:\s*[x×]|\s*(?:pcs?|pieces?|units?|stück|stk|pièces?|unidad(?:es)?|uds|stuks?|pezzi|個|点))?\.?$/i;

function quantityFrom(value: string | undefined): number | undefined {
  const found = value && QUANTITY.exec(value);
  const n = found ? Number(found[1]) : NaN;
  return n >= 1 && n <= MAX_QUANTITY ? n : undefined;
}

/** What the pairs say besides the products: store, numbers, money, size, tracking. */
export interface PairFields {
  store?: string;
  orderNumber?: string;
  price?: string;
  total?: string;
  quantity?: number;
  size?: string;
  tracking: Pick<MessageFields, "trackingNumber" | "carrier" | "trackingUrl">;
  estimatedDelivery?: string;
}

export function fieldsFromPairs(pairs: readonly Pair[]): PairFields {
  const store = single(pairs, "store");
  const size = single(pairs, "size");
  const delivery = single(pairs, "estimatedDelivery");
  return {
    // A bare link is where the shop is, not its name as printed (a branding embed's `Website`).
    store: store && store.length <= MAX.store && !/^https?:\/\//i.test(store) ? store : undefined,
    orderNumber: orderNumberFrom(single(pairs, "orderNumber")),
    price: money(single(pairs, "price")),
    total: money(single(pairs, "total")),
    quantity: quantityFrom(single(pairs, "quantity")),
    size: size && size.length <= MAX.size ? size : undefined,
    tracking: trackingFrom(pairs),
    estimatedDelivery: delivery && /^\d{4}-\d{2}-\d{2}$/.test(delivery) ? delivery : undefined,
  };
}

/** A tracking number printed under a tracking label; its carrier from a label or its format. */
function trackingFrom(pairs: readonly Pair[]): PairFields["tracking"] {
  const out: PairFields["tracking"] = {};
  const number = single(pairs, "trackingNumber");
  const printed = number && number.length <= MAX.tracking && /\d/.test(number) &&
    /^[A-Za-z0-9][A-Za-z0-9 -]{6,}$/.test(number);
  if (number && printed) {
    const detected = detectCarrier(number);
    out.trackingNumber = detected.valid ? detected.trackingNumber : number;
    if (detected.valid) out.carrier = detected.carrier;
  }
  const carrier = single(pairs, "carrier");
  if (carrier && carrier.length <= 100 && !out.carrier) out.carrier = carrier;
  const link = valuesOf(pairs, "trackingUrl")[0];
  const url = httpUrl(link ? firstUrl(link.raw) : undefined);
  if (url) out.trackingUrl = url;
  return out;
}
