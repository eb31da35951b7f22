/**
 * Line items (research/intake.md §1.9): product rows anchored on a product image, rows of a
 * table under a `Product | Qty | Price` header, and lines followed by `Size:`/`Qty:` attribute
 * lines or under an `Items shipped:` label (plain-text mails). Each item keeps its name as
 * printed (without the `× 1` suffix), quantity, size, price and image.
 */
import { moneyValue } from "../money.ts";
import { foldKeepingOffsets } from "../text.ts";
import type { Block, Image } from "./html.ts";
import { isLabel } from "./labels.ts";
import { attributeKind, describe, type Item, note, sameRow, splitLine } from "./item_details.ts";
import {
  countedItems,
  countedLine,
  countedRun,
  labelledItems,
  pricedRows,
} from "./items_anchored.ts";
import { textTableItems } from "./items_text_table.ts";
import { evidence } from "./evidence.ts";
import { isBoilerplate, isOtherId } from "./boilerplate.ts";
import {
  isBrandLine,
  isDetailLine,
  isProductImage,
  ITEM_HEADERS,
  ITEMS_LABEL,
  itemsHeading,
  nameLike,
  type NameTest,
  TOTAL_ROW,
  valueOfLabel,
} from "./item_lines.ts";

export type { Item };

const MAX_ITEMS = 50;
const RECOMMENDATIONS =
  /^(?:keep shopping|top picks|you (?:may|might) also (?:like|love)|recommended for you|customers (?:who bought|also)|related products|more to explore|inspired by your|shop (?:more|similar)|empfehlungen|das konnte (?:dir|ihnen) auch gefallen|vous aimerez aussi|vous aimerez peut-etre|te puede interesar|tambien te puede gustar)/;
/** Item-table header cells tried (a mail of thousands of "Item" cells stays cheap). */
const MAX_HEADER_TRIES = 10;
/** Items anchored on product images. */
function imageItems(blocks: Block[], storeNames: string[], isName: NameTest): Item[] {
  const anchors: { block: number; image: Image }[] = [];
  for (let i = 0; i < blocks.length && anchors.length < MAX_ITEMS; i++) {
    const image = blocks[i].images.find((img) => isProductImage(img, storeNames));
    if (image) anchors.push({ block: i, image });
  }
  const items: Item[] = [];
  anchors.forEach((anchor, k) => {
    const end = k + 1 < anchors.length ? anchors[k + 1].block : blocks.length;
    let nameAt = -1;
    for (let i = anchor.block; i < Math.min(end, anchor.block + 4); i++) {
      if (blocks[i].text && isName(blocks[i])) {
        nameAt = i;
        break;
      }
      // A price may stand between the picture and the name.
      if (blocks[i].text && i > anchor.block && !moneyValue(blocks[i].text)) break;
    }
    if (nameAt < 0) return;
    if (nameAt + 1 < end && isBrandLine(blocks[nameAt], blocks[nameAt + 1], isName)) nameAt++;
    // The item's details: the rest of its table row, or the next few blocks of a stacked layout.
    const row = blocks[anchor.block];
    // Image, name and details each in a row of their own (a stacked table): the details are
    // the rows under the name, up to the totals, not the image's row alone.
    const stacked = !!(row.cell && blocks[nameAt].cell && !sameRow(row, blocks[nameAt]));
    let to = nameAt + 1;
    while (to < end && to < nameAt + 12) {
      const b = blocks[to];
      if (
        !stacked && row.cell && b.cell && !sameRow(row, b) &&
        !(b.cell.table > row.cell.table && to <= nameAt + 10) &&
        // Detail rows under the picture-and-name row (`JAN: …`, `単価:￥6,380 × 1個`) are its own.
        !(to < nameAt + 4 && isDetailLine(b))
      ) break;
      if (!row.cell && b.cell) break;
      if (!sameRow(row, b) && TOTAL_ROW.test(foldKeepingOffsets(b.text))) break;
      to++;
    }
    items.push(
      describe(
        {
          name: blocks[nameAt].text,
          image: anchor.image.src,
          block: nameAt,
          evidence: evidence("generic", "product image"),
        },
        blocks,
        nameAt,
        to,
      ),
    );
    if (k === anchors.length - 1 || anchors[k + 1].block > to) {
      items.push(...siblingRows(blocks, nameAt, to, end, isName));
    }
  });
  return items;
}

/**
 * Rows after an image-anchored item that repeat its layout without an image (only the first
 * item of a list has a picture): a name in the same column, then a quantity or a price.
 */
function siblingRows(
  blocks: Block[],
  nameAt: number,
  from: number,
  end: number,
  isName: NameTest,
): Item[] {
  const first = blocks[nameAt].cell;
  if (!first) return [];
  const out: Item[] = [];
  let i = from;
  while (i < end && out.length < MAX_ITEMS) {
    const b = blocks[i];
    if (
      !b.cell || b.cell.table !== first.table || b.cell.col !== first.col || b.cell.row <= first.row
    ) break;
    if (!isName(b) || TOTAL_ROW.test(foldKeepingOffsets(b.text))) break;
    let to = i + 1;
    while (to < end && blocks[to].cell && sameRow(blocks[to], b)) to++;
    const item = describe(
      { name: b.text, block: i, evidence: evidence("generic", "row like the item above") },
      blocks,
      i,
      to,
    );
    if (item.quantity === undefined && item.price === undefined) break;
    out.push(item);
    i = to;
  }
  return out;
}

/** Items in the rows of a table whose header row names an item column. */
function tableItems(blocks: Block[], isName: NameTest): Item[] {
  const items: Item[] = [];
  let tries = 0;
  for (let h = 0; h < blocks.length && items.length === 0 && tries < MAX_HEADER_TRIES; h++) {
    const head = blocks[h];
    const folded = head.cell ? foldKeepingOffsets(head.text).replace(/[:.]$/, "") : "";
    // A column headed like an item list (`In this parcel | Qty`) is an item column too, when a
    // column of its row is headed by a detail.
    const listHead = !ITEM_HEADERS.test(folded) && ITEMS_LABEL.test(folded);
    if (!head.cell || !(listHead || ITEM_HEADERS.test(folded))) continue;
    tries++;
    const headers = blocks.filter((b) => b.cell && sameRow(b, head));
    // A header row has cells side by side; blocks of one layout cell are no header row.
    if (new Set(headers.map((b) => b.cell!.col)).size < 2) continue;
    const column = (field: "quantity" | "size" | "price") =>
      headers.find((b) => isLabel(b.text, field))?.cell?.col;
    const [qtyCol, sizeCol, priceCol] = [column("quantity"), column("size"), column("price")];
    if (listHead && qtyCol === undefined && sizeCol === undefined && priceCol === undefined) {
      continue;
    }
    const table = head.cell.table;
    let row = head.cell.row + 1;
    for (let guard = 0; guard < MAX_ITEMS; guard++, row++) {
      const cells = blocks.map((b, i) => ({ b, i })).filter(({ b }) =>
        b.cell?.table === table && b.cell.row === row
      );
      if (cells.length === 0) break;
      const nameCell = cells.filter(({ b }) => b.cell!.col === head.cell!.col);
      if (
        nameCell.length === 0 || !isName(nameCell[0].b) ||
        TOTAL_ROW.test(foldKeepingOffsets(nameCell[0].b.text))
      ) break;
      const first = nameCell[0];
      const item = describe(
        {
          name: first.b.text,
          block: first.i,
          image: cells.flatMap(({ b }) => b.images)[0]?.src,
          evidence: evidence("table", head.text),
        },
        blocks,
        first.i,
        cells.at(-1)!.i + 1,
      );
      const qty = qtyCol === undefined
        ? undefined
        : cells.find(({ b }) => b.cell!.col === qtyCol)?.b.text;
      const header = (col?: number) =>
        evidence("table", headers.find((b) => b.cell!.col === col)?.text);
      // The count alone, or with its times sign (`× 1`, `2x`) as a checkout prints it.
      const count = qty && /^(?:[×x]\s?)?(\d{1,3})(?:\s?[×x])?$/i.exec(qty);
      if (count) {
        item.quantity = Number(count[1]);
        note(item, "quantity", header(qtyCol));
      }
      // A size column and a unit-price column (beside a line-total column) say which is which.
      const cellOf = (col?: number) =>
        col === undefined ? undefined : cells.find(({ b }) => b.cell!.col === col)?.b.text;
      const size = cellOf(sizeCol);
      if (size && size.length <= 24) {
        item.size = size;
        note(item, "size", header(sizeCol));
      }
      const price = moneyValue(cellOf(priceCol) ?? "");
      if (price) {
        item.price = price;
        note(item, "price", header(priceCol));
      }
      items.push(item);
    }
  }
  return items;
}

/** Items of plain lists: a line followed by attribute lines, or lines under an items label. */
function listItems(blocks: Block[], isName: NameTest): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < blocks.length && items.length < MAX_ITEMS; i++) {
    const folded = foldKeepingOffsets(blocks[i].text);
    if (ITEMS_LABEL.test(folded) && i + 1 < blocks.length && isName(blocks[i + 1])) {
      // `2x Name - R$ 39,90 cada` under the label: the line says count, name and price.
      const counted = countedLine(blocks[i + 1].text, i + 1);
      if (counted && isName({ ...blocks[i + 1], text: counted.name })) {
        items.push({ ...counted, evidence: evidence("label", blocks[i].text) });
        i++;
        continue;
      }
      // `1 x Name` lines one under another below the label: one counted item each.
      const run = countedRun(blocks, i + 1, isName);
      if (run.length >= 2) {
        items.push(
          ...run.map((item) => ({ ...item, evidence: evidence("label", blocks[i].text) })),
        );
        i += run.length;
        continue;
      }
      let end = i + 2;
      while (
        end < Math.min(blocks.length, i + 8) &&
        !TOTAL_ROW.test(foldKeepingOffsets(blocks[end].text))
      ) end++;
      const item = {
        name: blocks[i + 1].text,
        block: i + 1,
        evidence: evidence("label", blocks[i].text),
      };
      items.push(describe(item, blocks, i + 1, end));
      // Past the item's detail lines: their values are not names of further items.
      let k = i + 2;
      for (let kind; k < end && (kind = attributeKind(foldKeepingOffsets(blocks[k].text)));) {
        k += kind === "label" ? 2 : 1;
      }
      i = k - 1;
      continue;
    }
    // The attribute lines first: most blocks have none, and then the name test is moot.
    let attributes = 0;
    let j = i + 1;
    for (; j < Math.min(blocks.length, i + 6); j++) {
      const kind = attributeKind(foldKeepingOffsets(blocks[j].text));
      if (kind === "counts") attributes++;
      else if (kind === "label") {
        // A lone label (`Size` / `L` in two blocks): its value is the next block.
        attributes++;
        j++;
      } else if (sameRow(blocks[j], blocks[i])) continue; // a cell of the name's own row
      else if (attributes > 0 && !kind && moneyValue(blocks[j].text)) {
        // The item's figure right after its details (`Qty: 1` / `$42.00`) closes the item.
        j++;
        break;
      } else if (kind !== "neutral" && attributes > 0) break;
      else if (attributes === 0 && j > i + 1 && kind !== "neutral") break;
      // Boilerplate never stands between a name and its details (`Commande n° 7712`).
      // A product code line (`Art.-Nr.: 123`) may: it is the item's own.
      else if (
        attributes === 0 && kind !== "neutral" && isBoilerplate(blocks[j]) &&
        !isOtherId(blocks[j].text)
      ) break;
    }
    // The item's price may stand alone under its details (`Cantidad: 1` / `64,90 €`).
    if (attributes > 0 && j < Math.min(blocks.length, i + 6) && moneyValue(blocks[j].text)) j++;
    if (attributes === 0) {
      // `Name - Taille : M - Qté : 1`: a name carrying its own labelled details is an item.
      const { name, details } = splitLine(blocks[i].text);
      if (details.length > 0 && isName({ ...blocks[i], text: name })) {
        const item = { name, block: i, evidence: evidence("generic", "item details") };
        // The other cells of its row (`Name - Size 10` | `$139.95`) are its own too.
        let end = i + 1;
        while (end < Math.min(blocks.length, i + 6) && sameRow(blocks[end], blocks[i])) end++;
        items.push(describe(item, blocks, i, end));
        i = end - 1;
        continue;
      }
    }
    if (
      attributes > 0 && isName(blocks[i]) && !isLabel(blocks[i].text, "quantity") &&
      !valueOfLabel(blocks, i) && attributeKind(foldKeepingOffsets(blocks[i].text)) !== "neutral"
    ) {
      const at = i + 1 < j && isBrandLine(blocks[i], blocks[i + 1], isName) ? i + 1 : i;
      const item = {
        name: blocks[at].text,
        block: at,
        evidence: evidence("generic", "item details"),
      };
      items.push(describe(item, blocks, at, j));
      i = j - 1;
    }
  }
  return items;
}

/**
 * The line items of a message, first method that finds any: image-anchored product rows, an
 * item table, then plain lists. `storeNames` keeps logos (alt text = the store) out.
 */
export function findItems(all: Block[], storeNames: string[], subject = ""): Item[] {
  // The heading of an item list (`In this parcel`, `Artikel`) is never an item itself.
  const isName: NameTest = (b) =>
    nameLike(b.text) && !isBoilerplate(b, subject) && !itemsHeading(b.text);
  // Recommendations after the order ("Keep shopping for", "You may also like") are not items.
  const cut = all.findIndex((b) => RECOMMENDATIONS.test(foldKeepingOffsets(b.text)));
  const blocks = cut > 0 ? all.slice(0, cut) : all;
  // Tried in order, each only when the ones before found nothing.
  const methods = [
    () => imageItems(blocks, storeNames, isName),
    () => tableItems(blocks, isName),
    () => textTableItems(blocks, isName, (folded) => TOTAL_ROW.test(folded)),
    () => listItems(blocks, isName),
    () => countedItems(blocks, isName),
    () => labelledItems(blocks, isName, (folded) => TOTAL_ROW.test(folded)),
    () => pricedRows(blocks, isName, (folded) => TOTAL_ROW.test(folded)),
  ];
  for (const find of methods) {
    const method = find();
    const unique = method.filter((item, i) =>
      item.name && method.findIndex((o) => o.name === item.name) === i
    );
    if (unique.length > 0) return unique.slice(0, MAX_ITEMS);
  }
  return [];
}

/** `Name (+N more)` as the fixtures and the inbox show a multi-item order. */
export function itemSummary(items: Item[]): string | undefined {
  if (items.length === 0) return undefined;
  return items.length === 1 ? items[0].name : `${items[0].name} (+${items.length - 1} more)`;
}
