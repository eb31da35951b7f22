/**
 * General rules of the generic reader learned from a second unseen set of store mails: order
 * references of capital letters only, `Total payé`, `n.º`, carriers' own notices (`Numero
 * spedizione`, `Tu envío <number> ha sido entregado`).
 */
import { deepEqual, equal } from "node:assert/strict";
import {
  acceptLetterReference,
  acceptOrderNumber,
  orderNumberInSentence,
} from "../../../src/intake/email/order_number.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { findTracking } from "../../../src/intake/email/tracking.ts";
import { findItems } from "../../../src/intake/email/items.ts";
import { headerColumns } from "../../../src/intake/email/items_text_table.ts";
import { sizeInVariant, unitTimesCount } from "../../../src/intake/email/item_details.ts";
import { moneyValue } from "../../../src/intake/money.ts";
import { bytes, mail, NOW } from "./mail.ts";

Deno.test("an order reference of capital letters only is taken after a label, never a word", async () => {
  equal(acceptLetterReference(" : QZKVNTBHW passée le 2026-11-06"), "QZKVNTBHW");
  equal(acceptLetterReference(": CONFIRMED"), null);
  equal(acceptLetterReference(": PROCESSING"), null);
  equal(acceptLetterReference(": ABC"), null);
  equal(acceptLetterReference(": Qzkvntbhw"), null);
  const read = await readEmail(
    bytes(mail({
      from: "Comptoir Vert <shop@comptoirvert.example>",
      subject: "Confirmation de commande",
      text: "Commande : QZKVNTBHW\nProduit : Savon noir 500 ml\nPrix unitaire : 9,90 €\n" +
        "Total payé : 15,80 €",
    })),
    { now: NOW },
  );
  equal(read.reading.kind, "order");
  if (read.reading.kind !== "order") return;
  equal(read.reading.fields.orderNumber, "QZKVNTBHW");
  equal(read.reading.fields.total, "15,80 €");
  // A word in capitals after the label is not a reference.
  const word = await readEmail(
    bytes(mail({
      from: "Comptoir Vert <shop@comptoirvert.example>",
      subject: "Votre commande",
      text: "Commande : CONFIRMEE\nProduit : Savon noir 500 ml\nTotal payé : 15,80 €",
    })),
    { now: NOW },
  );
  equal(word.reading.kind === "order" ? word.reading.fields.orderNumber : undefined, undefined);
});

Deno.test("an order number after `n.º`, `n.°` or `nº.`", () => {
  equal(acceptOrderNumber(" n.º 771-0042918-3305"), "771-0042918-3305");
  equal(acceptOrderNumber(" nº. 58213"), "58213");
  equal(orderNumberInSentence("Pedido n.º 771-0042918-3305"), "771-0042918-3305");
  equal(orderNumberInSentence("Commande n.° FR-20931"), "FR-20931");
});

Deno.test("a long number right after the word for the parcel in a sentence is a tracking number", () => {
  const tracking = (html: string, order?: string, subject = "Your parcel 4420019938") =>
    findTracking(htmlToBlocks(html).blocks, order, subject).trackingNumber;
  equal(
    tracking(
      "<p>Tu envío XK7Q2M0093315507712004B ha sido entregado.</p>",
      undefined,
      "Tu envío XK7Q2M0093315507712004B ha sido entregado",
    ),
    "XK7Q2M0093315507712004B",
  );
  equal(tracking("<p>Your parcel 4420019938 is on its way.</p>"), "4420019938");
  // A number the subject does not repeat is a mention only.
  equal(tracking("<p>Your parcel 4420019938 is on its way.</p>", undefined, "Shipped"), undefined);
  // Short counts, words and the order number are not.
  equal(tracking("<p>Your package 1 of 2 is on its way.</p>"), undefined);
  equal(tracking("<p>Votre colis préparé avec soin est en route.</p>"), undefined);
  equal(tracking("<p>Your shipment 4420019938 is on its way.</p>", "4420019938"), undefined);
  // A label in a sentence hands over a number of a carrier we do not look up with a colon only.
  equal(tracking("<p>Je Track & Trace-code is: 3SLBTH0571203</p>", undefined, ""), "3SLBTH0571203");
  equal(
    tracking("<p>Je Track & Trace-code volgt later 3SLBTH0571203</p>", undefined, ""),
    undefined,
  );
  // `Numero spedizione` without `di` is a tracking label.
  equal(tracking("<p>Numero spedizione: 551200348817</p>"), "551200348817");
});

Deno.test("a key run into its value, or a key that calls its value a name, is never the item", () => {
  const names = (texts: string[]) =>
    findItems(
      texts.map((text) => ({ text, tag: "p", heading: false, links: [], images: [], quote: 0 })),
      [],
    )
      .map((i) => i.name);
  equal(
    names(["ショップ名:コモレビ", "商品名:リネンシャツ", "カラー:白", "数量:1", "価格:4,400円"])[0],
    "リネンシャツ",
  );
  equal(
    names(["Shop name: Lindqvist", "Product: Wool Scarf", "Quantity: 1", "Price: €39.00"])[0],
    "Wool Scarf",
  );
  // A title's colon has a space after it: still a name.
  equal(
    names(["Star Trail: Deluxe Edition", "Quantity: 1", "Price: $59.99"])[0],
    "Star Trail: Deluxe Edition",
  );
});

Deno.test("a price line written as a sum gives the unit price and the count; '(円)' is yen", () => {
  const sum = unitTimesCount("価格  2,480(円) x 2(個) = 4,960(円)");
  equal(sum?.unit.display, "2,480(円)");
  equal(sum?.unit.currency, "JPY");
  equal(sum?.count, 2);
  equal(unitTimesCount("$12.00 × 3 = $36.00")?.count, 3);
  // No sum sign, or not two figures: not a sum.
  equal(unitTimesCount("Capsules x 100"), null);
  equal(unitTimesCount("2 x 1 = 2"), null);
  equal(moneyValue("5,840(円)")?.cents, 584000);
});

Deno.test("the one size in a variant line under the name is the size", () => {
  equal(sizeInVariant("Salvia / M"), "M");
  equal(sizeInVariant("Black · 42"), "42");
  equal(sizeInVariant("Navy / Organic Cotton"), undefined);
  equal(sizeInVariant("S / M"), undefined);
  equal(sizeInVariant("Size: M 9 / W 10"), undefined);
});

Deno.test("a text table's leading position column is read past", () => {
  deepEqual(headerColumns("Pos. Bezeichnung Menge Preis Summe"), [
    "item",
    "quantity",
    "price",
    "total",
  ]);
  deepEqual(headerColumns("# Product Qty Price"), ["item", "quantity", "price"]);
  equal(headerColumns("Pos. Lieferung Datum"), null);
});
