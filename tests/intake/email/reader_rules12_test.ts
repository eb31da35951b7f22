/**
 * General rules of the email reader learned from a twelfth set (one round): a text table's item
 * column headed by a plural (`Artículos`, `Producten`).
 */
import { equal } from "node:assert/strict";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { extractFields } from "../../../src/intake/email/extract.ts";

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
