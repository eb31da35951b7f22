/**
 * Items of a plain-text table: a line of column headers (`Product  Quantity  Price`) over rows
 * whose trailing figures line up under them (`Smoked Tea – 100g tin   1   $18.50`). The header
 * line is never an item; each row's columns are read from the right by the header's kinds.
 */
import { type Money, moneyValue } from "../money.ts";
import { foldKeepingOffsets } from "../text.ts";
import type { Block } from "./html.ts";
import { isLabel, type LabelField, labelledValues } from "./labels.ts";
import { type Item, note, sizeAfterLabel } from "./item_details.ts";
import { evidence, fromLabel } from "./evidence.ts";

type Column = "item" | "quantity" | "price" | "size" | "total" | "code";
/** A leading column of row numbers (`Pos.`, `#`, `Nr.`): read past, never part of the name. */
const POSITION = /^(?:pos\.?|position|#|nr\.?|no\.?)$/i;
const KINDS: Column[] = ["item", "quantity", "price", "size", "total"];
/**
 * `Beschreibung`, `Description`...: the item column's header in a table of columns; so is the
 * plural a column of several rows is headed by (`Articoli`, `Items`, `Productos`).
 */
const DESCRIPTION =
  /^(?:beschreibung|bezeichnung|artikelbezeichnung|description|descripci[oó]n|descrizione|omschrijving|descri[cç][aã]o|beskrivning|beskrivelse|items|products|articles|produits|art[ií]culos|productos|articoli|prodotti|artikelen|producten|produkte|produtos|artigos|itens)$/i;
/**
 * A column of article numbers before the item's (`Pos. Artikel-Nr. Beschreibung Menge …`): its
 * one-word code is read past, never part of the name.
 */
const CODE =
  /^(?:art(?:ikel)?\.?-?nr\.?|artikelnummer|art\.?-?no\.?|sku|ref\.?|r[eé]f[eé]rence|referencia|riferimento|code|item ?#|product ?code|品番|型番)$/i;
/** A line total's column (`Precio total`, `Line total`): the row's figure for all its pieces. */
const LINE_TOTAL =
  /^(?:(?:line|item) total|total price|precio total|prix total|prezzo totale|pre[cç]o total|gesamtpreis|totaalprijs|totaal prijs)$/i;
const MAX_COLUMNS = 6;
const MAX_ROWS = 50;

/** The columns of a header line, or null when any word group of it is not a column label. */
export function headerColumns(text: string): Column[] | null {
  if (!text || text.length > 120 || text.includes(":")) return null;
  const all = text.trim().split(/\s+/);
  const words = POSITION.test(all[0]) ? all.slice(1) : all;
  const columns: Column[] = [];
  for (let i = 0; i < words.length;) {
    if (columns.length >= MAX_COLUMNS) return null;
    let matched = false;
    if (columns.length === 0 && CODE.test(words[i])) {
      columns.push("code");
      i++;
      continue;
    }
    // A description column is the item's, in a line made only of column labels.
    if (DESCRIPTION.test(words[i])) {
      columns.push("item");
      i++;
      continue;
    }
    // The longest label first: `Unit Price` is one column, not `Unit` and `Price`.
    for (let len = Math.min(3, words.length - i); len >= 1 && !matched; len--) {
      const phrase = words.slice(i, i + len).join(" ");
      const kind = LINE_TOTAL.test(phrase)
        ? "total"
        : KINDS.find((k) => isLabel(phrase, k as LabelField));
      if (kind) {
        columns.push(kind);
        i += len;
        matched = true;
      }
    }
    if (!matched) return null;
  }
  return columns.length >= 2 ? columns : null;
}

/**
 * The item column's place: first, or second after a leading quantity column
 * (`Menge Artikel Preis` over `2 Vollmilch 1l 2,78 €`); -1 when the line names no item column.
 */
function itemColumn(columns: Column[] | null): number {
  if (!columns || columns.length < 2) return -1;
  const c = columns[0] === "code" ? 1 : 0;
  if (columns[c] === "item") return c;
  return c === 0 && columns[0] === "quantity" && columns[1] === "item" ? 1 : -1;
}

/** Whether a block is a header line of column labels (never an item, never a value). */
export function isHeaderLine(text: string): boolean {
  return itemColumn(headerColumns(text)) >= 0;
}

/** The trailing money figure of a row (one or two words: `$18.50`, `18,50 €`), and the rest. */
function takeMoney(words: string[]): { money: Money; rest: string[] } | null {
  for (const n of [1, 2]) {
    if (words.length <= n) continue;
    const money = moneyValue(words.slice(-n).join(" "));
    if (money) return { money, rest: words.slice(0, -n) };
  }
  return null;
}

function readRow(
  text: string,
  columns: Column[],
  header: string,
  parts?: Block["columns"],
): Omit<Item, "block"> | null {
  let words = text.trim().split(/\s+/);
  let cells = parts?.map((p) => p.text.trim()) ?? [];
  if (POSITION.test(header.trim().split(/\s+/)[0])) {
    if (!/^\d{1,3}\.?$/.test(words[0] ?? "")) return null;
    words = words.slice(1);
    if (cells[0] === text.trim().split(/\s+/)[0]) cells = cells.slice(1);
  }
  const row: Omit<Item, "block"> = { name: "", how: {}, evidence: evidence("table", header) };
  const first = itemColumn(columns);
  if (columns[0] === "code") {
    // The code: one word with a digit, or up to three words before a gap of columns
    // (`PZN 01578681  Salbe`: a prefix and its number).
    const laid = cells[0]?.split(/\s+/) ?? [];
    const code = laid.length >= 1 && laid.length <= 3 &&
        laid.join(" ") === words.slice(0, laid.length).join(" ")
      ? laid
      : words.slice(0, 1);
    if (!/\d/.test(code.join(" ")) || code.join(" ").length > 30) return null;
    words = words.slice(code.length);
  } else if (first === 1) {
    // The count leads the row: one figure, then the name.
    const n = /^[x×]?(\d{1,3})[x×]?$/i.exec(words[0] ?? "");
    if (!n || words.length < 3 || Number(n[1]) < 1) return null;
    row.quantity = Number(n[1]);
    words = words.slice(1);
  }
  const prices: Partial<Record<"price" | "total", Money>> = {};
  for (const kind of columns.slice(first + 1).reverse()) {
    if (kind === "price" || kind === "total") {
      const taken = takeMoney(words);
      if (!taken) return null;
      prices[kind] = taken.money;
      words = taken.rest;
    } else if (kind === "quantity") {
      const n = /^[x×]?(\d{1,3})$/i.exec(words.at(-1) ?? "");
      if (!n || words.length < 2 || Number(n[1]) < 1) return null;
      row.quantity = Number(n[1]);
      words = words.slice(0, -1);
    } else if (kind === "size") {
      const size = words.at(-1) ?? "";
      if (words.length < 2 || size.length > 8) return null;
      row.size = size;
      words = words.slice(0, -1);
    } else return null;
  }
  row.name = words.join(" ");
  // A line-total column is the price only when the row is one piece.
  const price = prices.price ?? ((row.quantity ?? 1) === 1 ? prices.total : undefined);
  if (price) row.price = price;
  return row;
}

/** Items of every plain-text table in the blocks. */
export function textTableItems(
  blocks: Block[],
  isName: (b: Block) => boolean,
  isTotalRow: (folded: string) => boolean,
): Item[] {
  const items: Item[] = [];
  for (let h = 0; h < blocks.length && items.length < MAX_ROWS; h++) {
    if (blocks[h].cell) continue;
    const columns = headerColumns(blocks[h].text);
    if (!columns || itemColumn(columns) < 0) continue;
    for (let i = h + 1; i < Math.min(blocks.length, h + 1 + MAX_ROWS); i++) {
      const text = blocks[i].text;
      if (!text) continue;
      if (isTotalRow(foldKeepingOffsets(text))) break;
      const last = items.at(-1);
      if (last && last.block >= h && last.size === undefined) {
        // `Maat: 8.375"` under a row: that row's size, printed on a line of its own.
        const size = labelledValues([blocks[i]], "size", sizeAfterLabel, {
          max: 1,
          sentences: false,
        })[0];
        if (size) {
          last.size = size.value;
          note(last, "size", fromLabel(size));
          continue;
        }
      }
      const row = readRow(text, columns, blocks[h].text, blocks[i].columns);
      if (!row || !isName({ ...blocks[i], text: row.name })) break;
      const item: Item = { ...row, block: i, how: {} };
      for (const field of ["quantity", "size", "price"] as const) {
        if (item[field] !== undefined) note(item, field, evidence("table", blocks[h].text));
      }
      items.push(item);
    }
  }
  return items;
}
