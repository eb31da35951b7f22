/**
 * General rules of the generic reader learned from an unseen set of store mails: section marks
 * and bracketed labels in Japanese mail, order numbers written `ordine n. …`, table header rows,
 * `each` prices, definition-list sizes, thank-you subjects, `€ 249,-` and S10 tracking numbers.
 */
import { deepEqual, equal } from "node:assert/strict";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { findMoney, moneyValue } from "../../../src/intake/money.ts";
import { findItems } from "../../../src/intake/email/items.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { bytes, mail, NOW } from "./mail.ts";
import { findTracking } from "../../../src/intake/email/tracking.ts";
import { isS10 } from "../../../src/domain/tracking/number.ts";
import { labelledValues } from "../../../src/intake/email/labels.ts";
import { orderNumberInSentence } from "../../../src/intake/email/order_number.ts";
import { perPiecePrice } from "../../../src/intake/email/item_details.ts";
import {
  headerColumns,
  isHeaderLine,
  textTableItems,
} from "../../../src/intake/email/items_text_table.ts";

const blocksOf = (html: string) => htmlToBlocks(html).blocks;
const values = (html: string, field: Parameters<typeof labelledValues>[1]) =>
  labelledValues(blocksOf(html), field, (raw) => raw.trim() || null).map((l) => l.value);

Deno.test("a label closed by a bracket needs no separator; a section mark before a label is read", () => {
  deepEqual(values("<p>【ご注文番号】3049</p>", "orderNumber"), ["3049"]);
  deepEqual(values("<p>[Order number]A-1001</p>", "orderNumber"), ["A-1001"]);
  deepEqual(values("<p>■お届け予定日</p><p>2026年11月5日</p>", "estimatedDelivery"), [
    "2026年11月5日",
  ]);
  deepEqual(values("<p>● Tracking number: ZX12345678</p>", "trackingNumber"), ["ZX12345678"]);
  deepEqual(values("<p>お支払い金額合計:53,980円</p>", "total"), ["53,980円"]);
  // A word glued to a label with no bracket is not a label.
  deepEqual(values("<p>Ordernumbers are sent later</p>", "orderNumber"), []);
});

Deno.test("an order number after `n.`, `numero` or `nummer` inside a sentence", () => {
  equal(orderNumberInSentence("Conferma ordine n. 4016725093"), "4016725093");
  equal(orderNumberInSentence("Il tuo ordine numero 55120 è stato spedito"), "55120");
  equal(orderNumberInSentence("Bestelling nummer 981234"), "981234");
  equal(orderNumberInSentence("Order now and save"), null);
});

Deno.test("a line of column headers is never an item; plain-text rows map to its columns", () => {
  deepEqual(headerColumns("Product Quantity Price"), ["item", "quantity", "price"]);
  deepEqual(headerColumns("Artikel Menge Einzelpreis"), ["item", "quantity", "price"]);
  deepEqual(headerColumns("Product Qty Unit price Total"), ["item", "quantity", "price", "total"]);
  equal(headerColumns("Smoked Tea 1 $18.50"), null);
  equal(isHeaderLine("Product Quantity Price"), true);
  const blocks = blocksOf(
    "<p>Product Qty Unit price Total</p><p>Oak Tray – Small 2 $12.00 $24.00</p>" +
      "<p>Linen Cloth 1 18,50 € 18,50 €</p><p>Subtotal: $42.50</p>",
  );
  const items = textTableItems(blocks, () => true, (f) => /^subtotal/.test(f));
  deepEqual(
    items.map((i) => [i.name, i.quantity, i.price?.display]),
    [["Oak Tray – Small", 2, "$12.00"], ["Linen Cloth", 1, "18,50 €"]],
  );
  // A row whose figures do not fit the columns ends the table.
  equal(
    textTableItems(blocksOf("<p>Item Price</p><p>Thanks for shopping</p>"), () => true, () => false)
      .length,
    0,
  );
});

Deno.test("a figure said to be each piece's is the unit price", () => {
  equal(perPiecePrice("$45.00 each")?.display, "$45.00");
  equal(perPiecePrice("12,00 € pro Stück")?.display, "12,00 €");
  equal(perPiecePrice("€ 9,95 per stuk")?.display, "€ 9,95");
  equal(perPiecePrice("$3.00/ea")?.display, "$3.00");
  equal(perPiecePrice("$45.00"), null);
  equal(perPiecePrice("each of them"), null);
});

Deno.test("whole units written with a dash for the cents are read and kept as printed", () => {
  deepEqual(moneyValue("€ 249,-"), { display: "€ 249,-", cents: 24900, currency: "EUR", index: 0 });
  equal(moneyValue("1.299,– €")?.cents, 129900);
  // A range is two figures, not one with a dash.
  deepEqual(findMoney("$12-$15").map((m) => m.display), ["$12", "$15"]);
});

Deno.test("a count cell before the name and a price makes an item", () => {
  const items = findItems(
    blocksOf("<table><tr><td>2x</td><td>Linnen theedoek set</td><td>€ 19,-</td></tr></table>"),
    [],
  );
  deepEqual(items.map((i) => [i.name, i.quantity, i.price?.display]), [[
    "Linnen theedoek set",
    2,
    "€ 19,-",
  ]]);
});

Deno.test("a thank-you subject is not the summary of a mail that names no item", async () => {
  const read = await readEmail(
    bytes(mail({
      from: "Fietsplaats <info@fietsplaats.example>",
      subject: "Bedankt voor je bestelling (40417755)",
      text: "Bestelnummer: 40417755\nTotaal: € 64,95",
    })),
    { now: NOW },
  );
  equal(read.reading.kind === "order" && read.reading.fields.itemSummary, "Order 40417755");
  // A subject that is not a notice still summarises such a mail.
  const named = await readEmail(
    bytes(mail({
      from: "Fietsplaats <info@fietsplaats.example>",
      subject: "Je bestelling 40417755",
      text:
        "Bedankt voor je bestelling bij ons, we gaan aan de slag.\nBestelnummer: 40417755\nTotaal: € 64,95",
    })),
    { now: NOW },
  );
  equal(
    named.reading.kind === "order" && named.reading.fields.itemSummary,
    "Je bestelling 40417755",
  );
});

Deno.test("a UPU S10 number after a tracking label, in a sentence too, is kept when its check digit is right", () => {
  const sentence = (n: string) =>
    findTracking(blocksOf(`<p>Royal Mail Tracked 48 tracking number: ${n}</p>`)).trackingNumber;
  equal(sentence("RK720493153GB"), "RK720493153GB");
  equal(sentence("RK720493154GB"), undefined);
  equal(isS10("TT405172635GB"), true);
  equal(isS10("TT405172636GB"), false);
  // Not the order number, even when it is S10-shaped.
  equal(
    findTracking(blocksOf("<p>Your tracking number: RK720493153GB</p>"), "RK720493153GB")
      .trackingNumber,
    undefined,
  );
});
