/**
 * General rules of the email reader learned from a twelfth set (one round): a text table's item
 * column headed by a plural (`Artículos`, `Producten`); a label standing in a column of a
 * plain-text line has its value in the part of the next line under it (one row only).
 */
import { equal } from "node:assert/strict";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { extractFields } from "../../../src/intake/email/extract.ts";
import { labelledValues } from "../../../src/intake/email/labels.ts";

const letterOf = (text: string) => ({
  subject: "Order",
  blocks: textToBlocks(text),
  jsonLd: [],
  microdata: [],
});

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
