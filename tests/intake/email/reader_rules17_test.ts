/**
 * General rules of the email reader learned from a seventeenth set: a size label's value ends
 * before the separator of the next part (`サイズ: 3 / カラー: グレー`); a code cell of two words
 * in a plain-text table laid out in columns (`PZN 01578681`); counted lines under an items label
 * (`In this box:` / `1 x …` / `2 x …`) are items each; an item's own delivery day among its
 * details; a sender name the text gives as the place of the order keeps its noise word.
 */
import { deepEqual, equal } from "node:assert/strict";
import { readEmail } from "../../../src/intake/email/read.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { textTableItems } from "../../../src/intake/email/items_text_table.ts";
import { sizeAfterLabel } from "../../../src/intake/email/item_details.ts";
import { storeFromSender } from "../../../src/intake/email/merge.ts";
import { bytes, mail, NOW } from "./mail.ts";

async function fieldsOf(from: string, subject: string, text: string) {
  const read = (await readEmail(bytes(mail({ from, subject, text })), { now: NOW })).reading;
  equal(read.kind, "order");
  return read.kind === "order" ? read.fields : undefined;
}

Deno.test("a size label's value ends before the separator of the next labelled part", async () => {
  equal(sizeAfterLabel("3 /"), "3");
  equal(sizeAfterLabel("S/M"), "S/M");
  const fields = await fieldsOf(
    "Kobo Atelier <noreply@kobo-atelier.example>",
    "ご注文ありがとうございます",
    "■ 注文番号\n8800412271\n\n■ 注文内容\nウール テーパードパンツ\nサイズ: 3 / カラー: グレー\n" +
      "¥9,800 × 1\n\n合計 ¥10,700\n",
  );
  equal(fields?.size, "3");
});

Deno.test("a code cell of two words in a table laid out in columns is read past", () => {
  const blocks = textToBlocks(
    "Pos.   Artikel-Nr.   Beschreibung                 Menge   Preis     Summe\n" +
      "1      KL 4471002    Salbeitee lose 250 g         3       6,40 €    19,20 €\n" +
      "2      KL 4471518    Kamillenblüten 100 g         1       4,10 €    4,10 €\n",
  );
  deepEqual(
    textTableItems(blocks, () => true, () => false).map((i) => [i.name, i.quantity]),
    [["Salbeitee lose 250 g", 3], ["Kamillenblüten 100 g", 1]],
  );
  // Without columns (one space apart) a code is still one word: the row is not guessed.
  const flat = textToBlocks(
    "Pos. Artikel-Nr. Beschreibung Menge Preis Summe\n1 KL 4471002 Salbeitee 3 6,40 € 19,20 €\n",
  );
  deepEqual(textTableItems(flat, () => true, () => false), []);
});

Deno.test("counted lines under an items label are one item each, with no order quantity", async () => {
  const fields = await fieldsOf(
    "Paper Moon Books <ship@papermoon.example>",
    "Your crate PMB-4410 has shipped",
    "Hi Sam,\n\nYour crate left today via USPS.\n\nTracking: 9400111899223854107789\n\n" +
      "In this box:\n  1 x The Long Winter Map (Hardcover)\n  2 x Harbour Lights\n" +
      "  1 x A Field Guide to Moss\n\nThanks!\n",
  );
  equal(fields?.itemSummary, "The Long Winter Map (Hardcover) (+2 more)");
  equal(fields?.quantity, undefined);
});

Deno.test("an item's own delivery day among its details does not cut off its price", async () => {
  const fields = await fieldsOf(
    "Nettle & Fern <store+1@t.shopifyemail.example>",
    "Order #NF-2210 confirmed",
    "Nettle & Fern\nOrder #NF-2210\n\nOrder summary\nThe Meadow Posy × 1\nSize: Large\n" +
      "Delivery date: 3 December 2026\n€48.00\n\nSubtotal: €48.00\nTotal: €55.00 EUR\n",
  );
  equal(fields?.itemSummary, "The Meadow Posy");
  equal(fields?.price, "€48.00");
  equal(fields?.size, "Large");
});

Deno.test("a sender name the text gives as the place of the order keeps its noise word", () => {
  const blocks = textToBlocks("Ihre Bestellung bei Löwen-Drogerie Versand (Nummer: 77120).");
  equal(
    storeFromSender("Löwen-Drogerie Versand", "info@loewen.example", blocks),
    "Löwen-Drogerie Versand",
  );
  // Only named in a greeting or sign-off: the noise word goes.
  const signed = textToBlocks("Mit freundlichen Grüßen\nIhr Team von Löwen-Drogerie Versand");
  equal(storeFromSender("Löwen-Drogerie Versand", "info@loewen.example", signed), "Löwen-Drogerie");
  equal(storeFromSender("Kiln Street Orders", "o@kiln.example", blocks), "Kiln Street");
});
