/**
 * The details of one line item (quantity, size, price) from its name block and the blocks after
 * it, shared by every way items are found (items.ts, items_anchored.ts).
 */
import { findMoney, type Money, moneyValue } from "../money.ts";
import { foldKeepingOffsets, memoByText } from "../text.ts";
import type { Block } from "./html.ts";
import { isLabel, labelledValues, LABELS } from "./labels.ts";
import { type Evidence, evidence, fromLabel } from "./evidence.ts";

export interface Item {
  name: string;
  quantity?: number;
  size?: string;
  price?: Money;
  image?: string;
  /** Index of the block holding the name. */
  block: number;
  /** How the item was found (a product image, a table column, a label...). */
  evidence?: Evidence;
  /** How its quantity, size and price were read. */
  how?: Partial<Record<"quantity" | "size" | "price", Evidence>>;
}

/** A quantity after its label, at the start of a line or after a `|`/`·` separator. */
export const QTY = new RegExp(
  String.raw`(?:^\(?|[|·,]\s*)(?:${LABELS.quantity})\s*[:.]?\s*(\d{1,3})\b`,
);
/** A size label followed by one size: `talla 42`, `size xl`, `grosse 38.5` (not `size guide`). */
const SIZE_WORD = /^\S+(?: \S+)? (?:\d{1,3}(?:[.,/]\d{1,2})?|x{0,3}[sml]|\dxl|xx?s|os)$/;
const COLOUR = /^(?:colou?r|farbe|couleur|coloris|kleur|colore|色|カラー)$/;
const ID_KEY =
  /^(?:sku|style(?: id| no\.?| #)?|art(?:ikel)?\.?-?nr\.?|item (?:id|#|no\.?|number)|product (?:id|code)|ref(?:erence)?|model(?: no\.?)?|jan ?(?:code|コード)?|ean|gtin|upc|isbn|品番|型番|商品(?:コード|番号)|varenr\.?|varenummer|codigo|cod\.)$/;

/** A second-hand item's condition and seller lines, among its details on a marketplace. */
const CONDITION_KEY =
  /^(?:condition|etat|zustand|estado|condizione|conditie|staat|seller|sold by|vendeur|vendu par|verkaufer|verkauft von|vendedor|vendido por|venditore|venduto da|verkoper|verkocht door)$/;

/**
 * What a (folded) line under an item name is: `counts` for a detail of the item (quantity, size,
 * price, colour), `label` for such a detail's label alone (its value in the next block),
 * `neutral` for an identifier that may stand between them (SKU, item id), else nothing.
 * Remembered per text: the item scans ask it of the same block several times.
 */
export const attributeKind = memoByText(readAttributeKind);

/** `1 st`, `3 stk.`, `2 unidades`: a count with its unit, alone on a line under the name. */
const COUNT_WITH_UNIT =
  /^(\d{1,3}) ?(?:unidad(?:es)?|unidades?|stuck|stk\.?|stykk?(?:er)?|st\.?|kpl|pcs|pezzi|個|点)$/;

function readAttributeKind(folded: string): "counts" | "label" | "neutral" | undefined {
  if (QTY.test(folded) || COUNT_WITH_UNIT.test(folded.trim())) return "counts";
  const alone = folded.trim();
  if (isLabel(alone, "size") || isLabel(alone, "quantity") || COLOUR.test(alone)) return "label";
  const key = /^([^:]{1,30}):/.exec(folded)?.[1]?.trim();
  if (key && (isLabel(key, "size") || isLabel(key, "price") || COLOUR.test(key))) return "counts";
  if (key && (ID_KEY.test(key) || CONDITION_KEY.test(key))) return "neutral";
  // The item's own delivery day (`Delivery date: 28 November`) may stand among its details.
  if (key && isLabel(key, "estimatedDelivery")) return "neutral";
  // `Talla 42`, `Size M` after a dash: a size label and a short value with no colon.
  if (SIZE_WORD.test(alone) && isLabel(alone.replace(/\s+\S+$/, ""), "size")) return "counts";
  return /^(?:price|preis|prix|precio|sku|style|art\.?-?nr)/.test(folded) ? "neutral" : undefined;
}

/** Keys of an item's details inside a line: quantity, size, colour and price labels. */
const DETAIL_KEY = new RegExp(
  String.raw`(?:^|\s\(?)(?:${LABELS.quantity}|${LABELS.size}|${LABELS.price}|` +
    String.raw`colou?r|farbe|couleur|coloris|kleur|colore|kolor|色|カラー)\s*:`,
  "g",
);

/**
 * A line cut into one part per labelled detail: `Size: L Color: Oatmeal Qty: 1` (pairs after one
 * another), `Couleur : écru - Taille : M`, `Qté : 1 - 49,99 €` (parts between dashes, bars or
 * dots); what stands before the first label is a part of its own (the name, on a name line).
 */
export function detailParts(text: string): string[] {
  // Most lines have neither a colon nor a separator: nothing to cut.
  if (text.length > 250 || !/[:：|·•]|\s[-–—]\s/.test(text)) return [text];
  const out: string[] = [];
  for (const part of text.split(/\s+[-–—|·•]\s+/).slice(0, 8)) {
    const folded = foldKeepingOffsets(part);
    let last = 0;
    DETAIL_KEY.lastIndex = 0;
    for (let m = DETAIL_KEY.exec(folded); m && out.length < 12; m = DETAIL_KEY.exec(folded)) {
      const at = m.index + m[0].length - m[0].trimStart().length;
      if (at > last) out.push(part.slice(last, at).trim());
      last = at;
    }
    out.push(part.slice(last).trim());
  }
  return out.filter(Boolean);
}

/**
 * `BRAND - Name - Taglia: 42 - Quantità: 1`, `商品:Name 数量:3`, `Name Quantità: 1`: an item's
 * details (size, quantity, colour, price under their labels) printed on its own line; a brand in
 * capitals before the name is not the name. A line with no labelled detail is the name as
 * printed.
 */
export function splitLine(value: string): { name: string; details: string[] } {
  const parts = detailParts(value);
  if (parts.length < 2) return { name: value, details: [] };
  const details = parts.filter((p) => attributeKind(foldKeepingOffsets(p)) === "counts");
  let names = parts.filter((p) => !details.includes(p));
  if (details.length === 0 || names.length === 0) {
    return { name: value, details: [] };
  }
  if (names.length > 1 && !/\p{Ll}/u.test(names[0]) && /\p{Lu}{2}/u.test(names[0])) {
    names = names.slice(1);
  }
  return { name: names.join(" - "), details };
}

/** One text an item's details are read from: a block, or one labelled part of it. */
interface Line {
  text: string;
  /** The block it stands in. */
  at: number;
  /** The block's whole text (a part of a line never is a size line or a column cell). */
  whole: boolean;
}

/** The lines of an item's blocks, a block of several labelled details cut into its parts. */
function detailLines(item: Item, blocks: Block[], from: number, to: number, own: string[]): Line[] {
  const lines: Line[] = [];
  for (let i = from; i < to; i++) {
    const text = blocks[i].text;
    lines.push({ text, at: i, whole: true });
    if (i === item.block) {
      for (const part of own) lines.push({ text: part, at: i, whole: false });
      continue;
    }
    const parts = detailParts(text);
    if (
      parts.length > 1 && parts.some((p) => attributeKind(foldKeepingOffsets(p)) === "counts")
    ) {
      lines.pop();
      for (const part of parts) lines.push({ text: part, at: i, whole: false });
    }
  }
  return lines;
}

/**
 * A count written after the name: `Coat × 1`, `Tote — Areia (x1)`; a capital X before digits is
 * a model's name (`Trail Shoe X2`), not a count.
 */
export const TIMES_SUFFIX =
  /(?:\s*×|\s+x|\s*\(\s*[x×])\s?(\d{1,3})(\s+(?:of|von|sur|de)\s+\d+)?\s*\)?\s*$/;
/** A line that is only a count: `x2`, `× 1`, `1 ×`, `2 unidades`, `3 Stk.`. */
export const COUNT_LINE =
  /^(?:[x×]\s?(\d{1,3})|(\d{1,3})\s?[x×]|(\d{1,3}) ?(?:unidad(?:es)?|unidades?|unit[ée]s?|stuck|stk\.?|stykk?(?:er)?|st\.?|kpl|pcs|pieces|pezzi|items?|articles?|個|点))$/i;
const SIZE_ALONE =
  /^(?:(?:US|UK|EU|FR|IT|JP|CM|W|M)\s?(?:M\s?|W\s?)?\d{1,2}(?:[.,]5|\.0)?(?:\s?\/\s?(?:W|M)\s?\d{1,2}(?:[.,]5)?)?|\d{1,2}(?:[.,]5|\.0)?|X{0,3}[SML]|X{1,4}L|\dXL|XXS|OS|O\/S|One Size)$/i;
/**
 * The size in a variant line under the name (`Antracite / L`, `Black · 42`): two or three parts,
 * exactly one of them a size.
 */
export function sizeInVariant(text: string): string | undefined {
  // A labelled line (`Size: M 9 / W 10`) is read by its label, whole.
  if (text.includes(":")) return undefined;
  const parts = text.split(/\s[/·|]\s/).map((p) => p.trim());
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !p || p.length > 30)) {
    return undefined;
  }
  const sizes = parts.filter((p) => SIZE_ALONE.test(p));
  return sizes.length === 1 ? sizes[0] : undefined;
}

/** A figure for one piece: `$45.00 each`, `12,00 € pro Stück`, `€ 9,95 per stuk`, `$3/ea`. */
const PER_PIECE =
  /^(.{1,30}?)\s*(?:\/\s*(?:ea|pc|unit|stk|st)\.?|(?:each|ea\.|apiece|per (?:item|unit|piece)|pro stuck|je stuck|l'unite|la piece|cada uno|por unidad|per stuk|per pezzo|cad\.|l'una|cada))$/;

/** The unit price a line states as one piece's (`$45.00 each`), if it does. */
export function perPiecePrice(text: string): Money | null {
  if (text.length > 60) return null;
  const m = PER_PIECE.exec(foldKeepingOffsets(text).trim());
  return m ? moneyValue(text.trim().slice(0, m[1].length)) : null;
}

/** The text of the first row's cell in a block's column (the header of a column table). */
export function columnHeader(blocks: Block[], i: number): string | undefined {
  const cell = blocks[i].cell;
  if (!cell) return undefined;
  for (let j = i - 1; j >= 0 && j > i - 60; j--) {
    const c = blocks[j].cell;
    if (
      c && c.table === cell.table && c.col === cell.col && c.row < cell.row &&
      blocks[j].tag === "th"
    ) return blocks[j].text;
    // A cell of the first row heads the rows under it, never its own row's other lines.
    if (c && c.table === cell.table && c.row === 0 && cell.row > 0 && c.col === cell.col) {
      return blocks[j].text;
    }
  }
  return undefined;
}

export function sameRow(a: Block, b: Block): boolean {
  return !!a.cell && !!b.cell && a.cell.table === b.cell.table && a.cell.row === b.cell.row;
}

/** The evidence anchor of a price that is only the last figure of the item's row. */
export const LAST_FIGURE = "last figure of the item";

/** A value after a size label: short, and no sentence. */
export function sizeAfterLabel(raw: string): string | null {
  // `サイズ: 2 / カラー: ネイビー`: the separator before the next part's label is no part of it.
  const v = raw.trim().replace(/\s+[/|·•]$/, "");
  return v.length >= 1 && v.length <= 24 && !/[.!?]$/.test(v) ? v : null;
}

/** Reads quantity, size and price from an item's name block and its attribute blocks. */
export function describe(item: Item, blocks: Block[], from: number, to: number): Item {
  // Details printed on the name's own line (`Name - Taille : M - Qté : 1`) are not the name.
  const own = splitLine(item.name);
  item.name = own.name;
  const details = own.details.length > 0 || item.block < from || item.block >= to
    ? own.details
    : splitLine(blocks[item.block].text).details;
  const lines = detailLines(item, blocks, from, to, details);
  const virtual = lines.map((l) => ({ ...blocks[l.at], text: l.text }));
  // A count written on the name (`Coat × 1`, `1 x Kettle`) is the quantity unless a detail line
  // says otherwise: then it is part of the name (`Capsules x 100`, `Quantità: 2`).
  const suffix = TIMES_SUFFIX.exec(item.name);
  const leading = /^(\d{1,3})\s?[x×]\s+/i.exec(item.name);
  const given = item.quantity;
  const prices: Money[] = [];
  let unit: { money: Money; text: string; column?: boolean } | undefined;
  for (const { text, at: i, whole } of lines) {
    const folded = foldKeepingOffsets(text);
    const qty = QTY.exec(folded) ?? (COUNT_LINE.test(text) ? COUNT_LINE.exec(text) : null) ??
      (whole && /^\d{1,3}$/.test(text) && isLabel(columnHeader(blocks, i) ?? "", "quantity")
        ? [text, text]
        : null);
    if (qty && item.quantity === undefined) {
      const n = Number(qty[1] ?? qty[2] ?? qty[3]);
      if (n >= 1) {
        item.quantity = n;
        const header = QTY.test(folded) ? undefined : columnHeader(blocks, i);
        note(item, "quantity", header ? evidence("table", header) : evidence("label", text));
      }
    }
    const sizeLine = whole && i === item.block + 1 && item.size === undefined
      ? (SIZE_ALONE.test(text) ? text : sizeInVariant(text))
      : undefined;
    if (
      i > item.block && sizeLine !== undefined &&
      (blocks[i].cell === undefined || sameRow(blocks[i], blocks[item.block]))
    ) {
      if (!(blocks[i].cell && blocks[i].cell!.col !== blocks[item.block].cell?.col)) {
        item.size = sizeLine;
        note(item, "size", evidence("generic", "size line under the name"));
      }
    }
    const money = moneyValue(text.replace(/^(?:price|preis|prix|precio|total|summe)\s*:?\s*/i, ""));
    const name = whole && i === item.block;
    if (money && !name) prices.push(money);
    // A figure under a unit-price column header (`Item Price` beside `Item Total`); a part of a
    // line is never a column cell.
    const header = money && whole && !name && !unit ? columnHeader(blocks, i) : undefined;
    if (money && header && isLabel(header, "price")) unit = { money, text: header, column: true };
    const each = !name && !unit ? perPiecePrice(text) : null;
    if (each) unit = { money: each, text };
    const sum = !name && !unit ? unitTimesCount(text) : null;
    if (sum) {
      unit = { money: sum.unit, text };
      if (item.quantity === undefined) {
        item.quantity = sum.count;
        note(item, "quantity", evidence("generic", text));
      }
    }
  }
  if (item.size === undefined) {
    const size = labelledValues(virtual, "size", sizeAfterLabel, { max: 1, sentences: false })[0];
    if (size) {
      item.size = size.value;
      note(item, "size", fromLabel(size));
    }
  }
  if (item.size === undefined) {
    // `Size S · Sold by @x`, `Colour: Sage | Size: M`: a detail line of several labelled parts.
    for (let i = from; i < to && item.size === undefined; i++) {
      const parts = blocks[i].text.split(/\s[·|•]\s/).slice(0, 8);
      if (parts.length < 2) continue;
      const size = labelledValues(parts.map((text) => ({ ...blocks[i], text })), "size", (raw) => {
        const v = raw.trim();
        return v.length >= 1 && v.length <= 12 && !/\s{2}|[.!?]$/.test(v) ? v : null;
      }, { max: 1, sentences: false })[0];
      if (size) {
        item.size = size.value;
        note(item, "size", fromLabel(size));
      }
    }
  }
  const written = suffix && !suffix[2]
    ? Number(suffix[1])
    : leading
    ? Number(leading[1])
    : undefined;
  const fromDetails = item.quantity !== given ? item.quantity : undefined;
  if (suffix && (fromDetails === undefined || fromDetails === written || suffix[2])) {
    item.name = item.name.slice(0, suffix.index).trim();
  }
  if (leading) item.name = item.name.slice(leading[0].length).trim();
  if (item.quantity === undefined && written !== undefined) {
    item.quantity = written;
    note(item, "quantity", evidence("generic", (suffix ?? leading)![0]));
  }
  if (item.quantity === undefined) {
    // `Quantity` / `2` in two blocks or cells; `[数量] 1個`: the count may carry its unit.
    const qty = labelledValues(blocks, "quantity", (raw) =>
      /^\s*\d{1,3}\s*$/.test(raw)
        ? raw.trim()
        : COUNT_WITH_UNIT.exec(foldKeepingOffsets(raw).trim())?.[1] ?? null, {
      from,
      to,
      max: 1,
      sentences: false,
    })[0];
    if (qty && Number(qty.value) >= 1) {
      item.quantity = Number(qty.value);
      note(item, "quantity", fromLabel(qty));
    }
  }
  // A figure under a price label is the unit price; else the row's last figure.
  const labelled = labelledValues(
    virtual.filter((_, k) => !(lines[k].whole && lines[k].at === item.block)),
    "price",
    (raw) => moneyValue(raw) ? raw : null,
    { max: 1, sentences: false },
  )[0];
  // A figure under a price label is the unit price, then one said to be each piece's, else the
  // row's last figure.
  const price = labelled ? moneyValue(labelled.value) : unit?.money ?? prices[prices.length - 1];
  if (price) {
    item.price = price;
    note(
      item,
      "price",
      labelled
        ? fromLabel(labelled)
        : unit
        ? evidence(unit.column ? "table" : "generic", unit.text)
        : evidence("generic", LAST_FIGURE),
    );
  }
  return item;
}

/** `× 2 =`, `x 1(個) =`: the count between a unit price and the line's sum. */
const TIMES_EQUALS =
  /[x×*]\s*(\d{1,3})\s*(?:\([^()\d]{1,4}\)|（[^（）\d]{1,4}）|[^\s\d=]{1,4})?\s*=/u;

/** A line written as a sum, `2,480(円) x 2(個) = 4,960(円)`: its unit price and count. */
export function unitTimesCount(text: string): { unit: Money; count: number } | null {
  const times = TIMES_EQUALS.exec(text);
  if (!times) return priceTimesCount(text);
  const figures = findMoney(text, 3);
  if (figures.length !== 2 || figures[0].index > times.index || figures[1].index < times.index) {
    return null;
  }
  const count = Number(times[1]);
  return count >= 1 ? { unit: figures[0], count } : null;
}

/** A count after a line's one figure: `単価:￥18,700(税込) × 1個`, `$45.00 x 2`. */
const TIMES_END = /[x×]\s*(\d{1,3})\s*(?:\([^()\d]{1,4}\)|（[^（）\d]{1,4}）|[^\s\d=]{1,4})?\s*$/u;

function priceTimesCount(text: string): { unit: Money; count: number } | null {
  const times = TIMES_END.exec(text);
  if (!times || text.length > 80) return null;
  const figures = findMoney(text, 2);
  if (figures.length !== 1 || figures[0].index > times.index) return null;
  const count = Number(times[1]);
  return count >= 1 ? { unit: figures[0], count } : null;
}

/** Records how one detail of an item was read. */
export function note(item: Item, field: "quantity" | "size" | "price", how: Evidence): void {
  item.how = { ...item.how, [field]: how };
}
