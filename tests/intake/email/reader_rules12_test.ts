/**
 * General rules of the email reader learned from a twelfth set (one round): a text table's item
 * column headed by a plural (`Artículos`, `Producten`); a label standing in a column of a
 * plain-text line has its value in the part of the next line under it (one row only); an item
 * column or list headed by what holds the items or what happened to them (`Cart Items`,
 * `Shipped Items`); blocks of one layout cell are no table header row; a text table's line-total
 * column (`Precio total`, `Line total`) is one column; `お支払い合計金額` is a total; a labelled
 * count may carry its unit (`[数量] 1個`).
 */
import { equal } from "node:assert/strict";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { extractFields } from "../../../src/intake/email/extract.ts";
import { labelledValues } from "../../../src/intake/email/labels.ts";
import { headerColumns } from "../../../src/intake/email/items_text_table.ts";

const letterOf = (text: string, html = false) => ({
  subject: "Order",
  blocks: html ? htmlToBlocks(text).blocks : textToBlocks(text),
  jsonLd: [],
  microdata: [],
});
/** The generic reading of an HTML body written as parts joined. */
const readHtml = (...parts: string[]) => extractFields(letterOf(parts.join(""), true), []);

Deno.test("a text table whose item column is headed by a plural reads its row", () => {
  const read = extractFields(
    letterOf([
      "Artículos                      Unidades   Precio",
      "Tetera de hierro fundido Kyoto  2          38,00 €",
    ].join("\n")),
    [],
  );
  equal(read.items.length, 1);
  equal(read.items[0].name, "Tetera de hierro fundido Kyoto");
  equal(read.items[0].quantity, 2);
  equal(read.items[0].price?.display, "38,00 €");
  // The header line itself is never an item.
  const head = extractFields(letterOf("Products   Qty\nNothing under it: see you soon."), []);
  equal(head.items.length, 0);
});

Deno.test("a label in a column of plain text has its value in the part of the next line under it", () => {
  const read = extractFields(
    letterOf([
      "Your order 55120 is on its way.",
      "Shipped with        Tracking number",
      "Evri                JD014600003828341234",
    ].join("\n")),
    [],
  );
  equal(read.trackingNumber, "JD014600003828341234");
  equal(read.carrier, undefined);
  // Tabs lay out columns too (a stop every 8 places).
  const tabbed = textToBlocks("Qty\tSize\n1\tM");
  equal(
    labelledValues(tabbed, "size", (raw) => raw)[0]?.value,
    "M",
  );
  // Under a header of several rows alike, a cell is one row's, never the order's.
  const rows = textToBlocks([
    "Product                 Qty   Unit price",
    "Linen Apron Indigo      1     £24.00",
    "Oven Glove Pair         2     £12.50",
  ].join("\n"));
  equal(labelledValues(rows, "price", (raw) => raw).length, 0);
  equal(labelledValues(rows, "quantity", (raw) => raw).length, 0);
});

Deno.test("an item column headed 'Cart Items' and a list headed 'Shipped Items' name the item", () => {
  const table = readHtml(
    "<table><tr><td>Cart Items</td><td>Qty</td><td>Item Price</td><td>Item Total</td></tr>",
    "<tr><td>Walnut Chess Board 45 cm</td><td>1</td><td>$89.00</td><td>$89.00</td></tr>",
    "<tr><td>Grand Total:</td><td></td><td></td><td>$97.50</td></tr></table>",
  );
  equal(
    `${table.itemSummary} | ${table.quantity} | ${table.price?.display}`,
    "Walnut Chess Board 45 cm | 1 | $89.00",
  );
  const list = readHtml(
    "<table><tr><td><p>Order #3012 is now Shipped.</p><p>Shipped Items</p>",
    "<p>3 x Beeswax Food Wrap Set</p><p>Shipping Method: Royal Mail</p></td></tr>",
    "<tr><td>Hive &amp; Hearth · 2 Orchard Row, Frome</td></tr></table>",
  );
  equal(`${list.itemSummary} | ${list.quantity}`, "Beeswax Food Wrap Set | 3");
});

Deno.test("blocks of one layout cell are no header row: the next row is never taken as an item", () => {
  const read = readHtml(
    "<table><tr><td><p>Your Items</p><p>Thanks for shopping with us.</p></td></tr>",
    "<tr><td>Hive &amp; Hearth · 2 Orchard Row, Frome</td></tr></table>",
  );
  equal(read.items.length, 0);
});

Deno.test("a line-total column of a text table is one column, its row's figure for all pieces", () => {
  equal(headerColumns("Item Qty Price Line total")?.join(" "), "item quantity price total");
  equal(
    headerColumns("Producto Cantidad Precio Precio total")?.join(" "),
    "item quantity price total",
  );
  const read = extractFields(
    letterOf([
      "Producto                    Cantidad  Precio    Precio total",
      "Jabón de Alepo 200 g        3         6,20 €    18,60 €",
      "Esponja natural de mar      1         9,90 €    9,90 €",
    ].join("\n")),
    [],
  );
  equal(
    read.items.map((i) => `${i.name} ${i.quantity} ${i.price?.display}`).join(", "),
    "Jabón de Alepo 200 g 3 6,20 €, Esponja natural de mar 1 9,90 €",
  );
  // Two items: no order price or quantity.
  equal(read.price, undefined);
  equal(read.quantity, undefined);
});

Deno.test("'お支払い合計金額' is a total; a count under its label may carry its unit", () => {
  const read = extractFields(
    letterOf([
      "[商品名] 南部鉄器 急須 0.6L 黒",
      "[価格] 8,800円(税込)",
      "[数量] 3個",
      "お支払い合計金額 26,400円",
    ].join("\n")),
    [],
  );
  equal(read.itemSummary, "南部鉄器 急須 0.6L 黒");
  equal(read.quantity, 3);
  equal(read.total?.display, "26,400円");
  // A count with a word that is no unit is not read.
  const other = extractFields(letterOf("[商品名] 急須\n[数量] 3個口\n[価格] 8,800円"), []);
  equal(other.quantity, undefined);
});
