/**
 * Line items found without a picture or an item table (issue 22): the item block anchored by its
 * quantity and price (`Harris Tweed Field Coat × 1` with `£595.00` a block or two below,
 * `1 x Baker Deck for CA$89.99 each`), and an item named after an item label (`Item: …`,
 * `Artikel: …`, `商品名：…`).
 */
import { moneyValue } from "../money.ts";
import { foldKeepingOffsets } from "../text.ts";
import type { Block } from "./html.ts";
import { COUNT_LINE, describe, type Item, note, sameRow, TIMES_SUFFIX } from "./item_details.ts";
import { labelledValues } from "./labels.ts";
import { isOtherId } from "./boilerplate.ts";
import { evidence, fromLabel } from "./evidence.ts";

const MAX_ITEMS = 50;
/** `2 x Name for CA$24.99 each`, `1 × Name @ 9,50 €`, `Name x 2 à 12,00 € l'unité`, `Name x 1 - £45.00`. */
const COUNT_FOR_PRICE =
  /^(?:(\d{1,3})\s?[x×]\s+)?(.+?)(?:\s?[x×]\s?(\d{1,3}))?\s+(?:for|@|at|a|à|zu|je|per|voor|por|[-–—:])\s+(\S.{0,20}?)(?:\s+(?:each|ea\.?|apiece|l['’]unit[eé]|pi[eè]ce|cada uno|cada|pro st[uü]ck|per stuk|stuk|cad\.?|l['’]una))?$/i;

/** A count before a name (`2 x Harbour Lights`). */
const COUNT_FIRST = /^(\d{1,3})\s?[x×]\s+(\S.*)$/i;

/** The lines from `from` on that each give a count and a name, as items (at most MAX_ITEMS). */
export function countedRun(
  blocks: Block[],
  from: number,
  isName: (b: Block) => boolean,
): Item[] {
  const run: Item[] = [];
  for (let k = from; k < blocks.length && run.length < MAX_ITEMS; k++) {
    const m = COUNT_FIRST.exec(blocks[k].text);
    if (!m || Number(m[1]) < 1 || !isName({ ...blocks[k], text: m[2] })) break;
    const item: Item = { name: m[2], quantity: Number(m[1]), block: k };
    note(item, "quantity", evidence("generic", blocks[k].text));
    run.push(item);
  }
  return run;
}

/** The item a line states whole, `2 x Name for CA$24.99 each`, `2x Name - R$ 39,90 cada`, or null. */
export function countedLine(text: string, block: number): Item | null {
  const line = COUNT_FOR_PRICE.exec(text);
  const count = line && (line[1] ?? line[3]);
  const price = line && count ? moneyValue(line[4]) : null;
  if (!line || !price) return null;
  return {
    name: line[2].trim(),
    quantity: Number(count),
    price,
    block,
    evidence: evidence("generic", "quantity and price"),
    how: { quantity: evidence("generic", line[0]), price: evidence("generic", line[0]) },
  };
}

/** Whether a block is a money figure on its own. */
const isMoney = (b: Block) => !!b.text && moneyValue(b.text) !== null;

/** The first money block among the three after block `i`, or -1. */
function moneyAfter(blocks: Block[], i: number): number {
  for (let j = i + 1; j < Math.min(blocks.length, i + 4); j++) if (isMoney(blocks[j])) return j;
  return -1;
}

/**
 * Items whose name block carries a count (`× 1`, `1 x`) and is followed by its price within the
 * next three blocks, or which say `N x name for PRICE each` in one line.
 */
export function countedItems(blocks: Block[], isName: (b: Block) => boolean): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < blocks.length && items.length < MAX_ITEMS; i++) {
    const text = blocks[i].text;
    if (!text || text.length > 250) continue;
    const counted = countedLine(text, i);
    if (counted) {
      if (!isName({ ...blocks[i], text: counted.name })) continue;
      items.push(counted);
      continue;
    }
    // The name's cell, then a count cell and a price cell in its row (`Name` | `2x` | `€ 9,98`).
    const row = countAndPriceCells(blocks, i, isName);
    if (row) {
      const count = COUNT_LINE.exec(blocks[row.countAt].text)!;
      const item = {
        name: text,
        block: i,
        quantity: Number(count[1] ?? count[2] ?? count[3]),
        evidence: evidence("generic", "quantity and price"),
      };
      note(item, "quantity", evidence("generic", blocks[row.countAt].text));
      items.push(describe(item, blocks, i, row.priceAt + 1));
      i = row.priceAt;
      continue;
    }
    // A count alone before the name (`1x` | `Airfryer XL` | `€ 249,-` in three cells).
    const alone = COUNT_LINE.exec(text);
    if (alone && i + 1 < blocks.length && isName(blocks[i + 1])) {
      const priceAt = moneyAfter(blocks, i + 1);
      if (priceAt >= 0) {
        const item = {
          name: blocks[i + 1].text,
          block: i + 1,
          quantity: Number(alone[1] ?? alone[2] ?? alone[3]),
          evidence: evidence("generic", "quantity and price"),
        };
        note(item, "quantity", evidence("generic", text));
        items.push(describe(item, blocks, i + 1, priceAt + 1));
        i = priceAt;
        continue;
      }
    }
    if (!(TIMES_SUFFIX.test(text) || /^\d{1,3}\s?[x×]\s+\S/.test(text)) || !isName(blocks[i])) {
      continue;
    }
    const priceAt = moneyAfter(blocks, i);
    if (priceAt < 0) {
      // `Balón de fútbol talla 5 x 1` alone: a name carrying its count is an item, with no price.
      if (TIMES_SUFFIX.test(text) && /\p{L}{3}.*\s.*\p{L}{3}/u.test(text)) {
        const item = { name: text, block: i, evidence: evidence("generic", "count on the name") };
        items.push(describe(item, blocks, i, i + 1));
      }
      continue;
    }
    const item = { name: text, block: i, evidence: evidence("generic", "quantity and price") };
    items.push(describe(item, blocks, i, priceAt + 1));
    i = priceAt;
  }
  return items;
}

/**
 * A name opening its table cell, followed in the same row (after detail lines in its own cell)
 * by a cell that is only a count (`2x`) and then one that is only a price.
 */
function countAndPriceCells(
  blocks: Block[],
  i: number,
  isName: (b: Block) => boolean,
): { countAt: number; priceAt: number } | null {
  const name = blocks[i];
  const prev = blocks[i - 1];
  if (!name.cell || (prev && sameRow(prev, name) && prev.cell!.col === name.cell.col)) return null;
  let countAt = -1;
  for (let j = i + 1; j < Math.min(blocks.length, i + 6); j++) {
    const b = blocks[j];
    if (!sameRow(b, name)) return null;
    if (b.cell!.col === name.cell.col) continue;
    if (countAt < 0 && COUNT_LINE.test(b.text)) countAt = j;
    else if (countAt >= 0 && isMoney(b)) return isName(name) ? { countAt, priceAt: j } : null;
    else return null;
  }
  return null;
}

/** Items named after an item label, with their details in the blocks that follow. */
export function labelledItems(
  blocks: Block[],
  isName: (b: Block) => boolean,
  isTotalRow: (folded: string) => boolean = () => false,
): Item[] {
  const found = labelledValues(blocks, "item", (raw) => {
    const value = raw.trim();
    return value && isName({ ...blocks[0], text: value, links: [], heading: false }) &&
        !/^[\s\p{P}\p{S}]*$/u.test(value)
      ? value
      : null;
  }, { max: MAX_ITEMS, sentences: false });
  return found.filter((l) => !isOtherId(blocks[l.block].text)).sort((a, b) => a.block - b.block)
    .map((l) => {
      const end = Math.min(blocks.length, l.block + 6);
      let to = l.block + 1;
      // The item's details end at the next item or at the totals (`小計`, `Subtotal`).
      while (
        to < end && !isItemLabel(blocks[to].text) &&
        !isTotalRow(foldKeepingOffsets(blocks[to].text))
      ) to++;
      // Details printed on the item's line (`商品:Name 数量:3`) are read by `describe`.
      return describe(
        { name: l.value, block: l.block, evidence: fromLabel(l) },
        blocks,
        l.block,
        to,
      );
    });
}

function isItemLabel(text: string): boolean {
  return labelledValues(
        [{ text, tag: "p", heading: false, links: [], images: [], quote: 0 }],
        "item",
        (v) => v,
        {
          max: 1,
          sentences: false,
        },
      ).length > 0 || foldKeepingOffsets(text).length === 0;
}

/** `× 1`, `x2`, `1 ×`: a cell that is only an item's count. */
const COUNT_CELL = /^(?:[×x]\s?\d{1,3}|\d{1,3}\s?[×x])$/i;

/**
 * Rows of a table that hold a name and its price and nothing else (`Trail Shoe X2 - Size 10` |
 * `$139.95`, or with a count cell between them): tried last, when no picture, header, count or
 * label anchors an item. The rows stop at the first total or shipping row. When no row has a
 * price, rows of a name and a cell that is only its count (`粉引 八寸皿` | `× 2`), as a shipping
 * notice lists what the parcel holds, are the items: the count cell anchors the name.
 */
export function pricedRows(
  blocks: Block[],
  isName: (b: Block) => boolean,
  isTotal: (folded: string) => boolean,
): Item[] {
  const items: Item[] = [];
  const countOnly: Item[] = [];
  for (let i = 0; i + 1 < blocks.length && items.length < MAX_ITEMS; i++) {
    const [b, next] = [blocks[i], blocks[i + 1]];
    if (!b.cell || !next.cell || !sameRow(b, next)) continue;
    if (isTotal(foldKeepingOffsets(b.text))) {
      if (items.length > 0 || countOnly.length > 0) break;
      continue;
    }
    // `Name` | `× 1` | `39,95 €`: a cell holding only the count may stand between them.
    const count = COUNT_CELL.test(next.text.trim()) ? next.text.trim() : undefined;
    const counted = !!count && !!blocks[i + 2]?.cell && sameRow(blocks[i + 2], b);
    if (count && !counted) {
      if (countOnly.length < MAX_ITEMS && wholeRow(blocks, i, 2) && isName(b)) {
        countOnly.push(countedItem(b.text, i, count));
        i++;
      }
      continue;
    }
    const price = counted ? blocks[i + 2] : next;
    const width = counted ? 3 : 2;
    // The row holds those cells and nothing else (`Name` | `Gift wrap` | `€ 9,90` is not one).
    if (!wholeRow(blocks, i, width) || !isMoney(price) || !isName(b)) continue;
    const item = describe(
      { name: b.text, block: i, evidence: evidence("generic", "name and price in one row") },
      blocks,
      i,
      i + width,
    );
    if (count && item.quantity === undefined) {
      item.quantity = Number(/\d{1,3}/.exec(count)![0]);
      note(item, "quantity", evidence("generic", count));
    }
    items.push(item);
    i += width - 1;
  }
  return items.length > 0 ? items : countOnly.filter((item) => item.quantity! >= 1);
}

/** An item of a name and its count cell. */
function countedItem(name: string, block: number, count: string): Item {
  const item: Item = {
    name,
    block,
    quantity: Number(/\d{1,3}/.exec(count)![0]),
    evidence: evidence("generic", "name and count in one row"),
  };
  note(item, "quantity", evidence("generic", count));
  return item;
}

/** Whether the `width` cells from block `i` on are a table row of their own. */
function wholeRow(blocks: Block[], i: number, width: number): boolean {
  const [first, before, after] = [blocks[i], blocks[i - 1], blocks[i + width]];
  return (!before || !before.cell || !sameRow(before, first)) &&
    (!after || !after.cell || !sameRow(after, first));
}
