/**
 * General rules of the readers from the seventh unseen set (issue 22): status wording with an
 * adverb or as a noun phrase in more languages, totals labelled as what is payable, an order's
 * number named under its own label after the order in a sentence.
 */
import { deepEqual, equal } from "node:assert/strict";
import { readEmail } from "../../../src/intake/email/read.ts";
import { readPhase } from "../../../src/intake/email/signals.ts";
import { foldForMatch } from "../../../src/intake/text.ts";
import { isLabel } from "../../../src/intake/email/labels.ts";
import { isBoilerplate } from "../../../src/intake/email/boilerplate.ts";
import { findItems } from "../../../src/intake/email/items.ts";
import { parseDay } from "../../../src/intake/email/dates.ts";
import { isHeaderLine } from "../../../src/intake/email/items_text_table.ts";
import { bytes, mail, type MailParts, NOW, textBlock as block } from "./mail.ts";

const readMail = (parts: MailParts) => readEmail(bytes(mail(parts)), { now: NOW });

const phase = (text: string) => readPhase([foldForMatch(text)]);

Deno.test("an order said to be placed with an adverb, or confirmed as a noun phrase, is ordered", () => {
  for (
    const text of [
      "Your order has been successfully placed",
      "Your order was successfully placed.",
      "Confirmation de votre commande 55012",
      "Bestätigung Ihrer Bestellung",
      "Conferma dell'ordine 4410",
      "Bevestiging van je bestelling",
      "Orderbevestiging 88120",
      "Your order was placed successfully",
      "We got your order",
      "Ihre Bestellung wurde erfolgreich aufgegeben",
      "Deine Bestellung ist bei uns eingegangen",
      "Votre commande a bien été enregistrée",
      "Nous avons bien reçu votre commande",
      "Tu pedido se ha realizado correctamente",
      "Hemos recibido tu pedido",
      "Il tuo ordine è stato ricevuto",
      "Abbiamo ricevuto il tuo ordine",
      "Je bestelling is geplaatst",
      "We hebben je bestelling ontvangen",
      "ご注文が確定しました",
    ]
  ) equal(phase(text), "confirmed", text);
  // Shipping and cancellation wording still win over it; a question about receiving is none.
  equal(phase("Your order has been successfully placed and has shipped"), "shipped");
  equal(phase("Hemos recibido tu pedido y lo hemos cancelado"), "canceled");
  equal(phase("Haben Sie Ihre Bestellung erhalten?"), undefined);
});

Deno.test("what is payable is the total", () => {
  for (
    const label of [
      "Amount Payable",
      "Total payable",
      "Total due",
      "Montant à payer",
      "Zu zahlender Betrag",
      "Importe a pagar",
      "Totale da pagare",
    ]
  ) {
    equal(isLabel(label, "total"), true, label);
  }
});

Deno.test("an order number under its own label after the order in a sentence is label evidence", async () => {
  const text = [
    "Guten Tag,",
    "",
    "der Status Ihrer Bestellung bei Beispielhaus (Number: 30518) wurde aktualisiert.",
    "",
    "Neuer Lieferstatus: Versandt",
  ].join("\r\n");
  const read = await readMail({
    from: "Beispielhaus <shop@beispielhaus.example>",
    subject: "Neuigkeiten",
    text,
  });
  equal(read.reading.kind, "order", JSON.stringify(read.reading));
  equal(read.reading.kind === "order" && read.reading.fields.orderNumber, "30518");
  equal(read.evidence?.orderNumber?.kind, "label");
  equal(read.signals.shipped, true);
  // Without a status that moves the order, such a mail is no order on its own.
  const quiet = await readMail({
    from: "Beispielhaus <shop@beispielhaus.example>",
    subject: "Neuigkeiten",
    text: "Guten Tag, Ihre Bestellung bei Beispielhaus (Number: 30518) hat eine Notiz.",
  });
  equal(quiet.reading.kind, "unreadable");
});

Deno.test("a model number or a bracketed variant is a product line, never a brand line", () => {
  const items = findItems([
    block("Product"),
    block("Sony X-900ZR (Silver)"),
    block("Portable speaker with a long battery and a carry strap"),
    block("Qty: 1"),
  ], []);
  equal(items[0]?.name, "Sony X-900ZR (Silver)");
  // A maker in one short line over a longer name is still a brand line.
  equal(
    findItems(
      [block("Northwind"), block("Merino Trail Crew Socks Twin Pack"), block("Qty: 2")],
      [],
    )[0]
      ?.name,
    "Merino Trail Crew Socks Twin Pack",
  );
  // A maker in katakana alone over a name in Latin letters.
  equal(
    findItems([block("リバーウォーク"), block("GX200 Trail"), block("数量:1")], [])[0]?.name,
    "GX200 Trail",
  );
});

Deno.test("identifier lines in Japanese are never the item; billed totals and waybill labels", () => {
  for (const text of ["商品番号 :2G-0418-07", "品番:AB-12", "商品コード:4901234", "会員ID:123"]) {
    equal(isBoilerplate(block(text)), true, text);
  }
  equal(isBoilerplate(block("八女玉露 詰め合わせ")), false);
  equal(isLabel("ご請求金額合計", "total"), true);
  equal(isLabel("お問い合わせ送り状番号", "trackingNumber"), true);
  equal(isLabel("Qtà", "quantity"), true);
});

Deno.test("the value of a short label closed by a colon is no item", () => {
  const items = findItems([
    block("Metodo di pagamento:"),
    block("PayPal"),
    block("Quantità: 1"),
  ], []);
  equal(items.length, 0);
  // A colon label that is no payment, address or shipping method may head the item.
  equal(
    findItems([block("Order summary:"), block("Merino Trail Socks"), block("Qty: 1")], [])[0]?.name,
    "Merino Trail Socks",
  );
});

Deno.test("a time window names one day; a span of days stays a range", () => {
  const anchor = { year: 2026, month: 11, day: 24 };
  const day = (text: string) => parseDay(text, { anchor });
  deepEqual(day("Samstag, 28.11.2026, 10:00 - 12:00 Uhr"), { year: 2026, month: 11, day: 28 });
  deepEqual(day("Donderdag 26 november tussen 18:00 en 19:00"), { year: 2026, month: 11, day: 26 });
  deepEqual(day("Fri, Nov 27 between 9am and 1pm"), { year: 2026, month: 11, day: 27 });
  deepEqual(day("jeudi 26 novembre entre 9h et 13h"), { year: 2026, month: 11, day: 26 });
  equal(day("Nov 10-12"), null);
  equal(day("10.11 - 12.11.2026"), null);
  equal(day("Thu, Nov 26 - Mon, Nov 30"), null);
});

Deno.test("a text table whose count column leads", () => {
  equal(isHeaderLine("Menge Artikel Preis"), true);
  equal(isHeaderLine("Qty Product Price"), true);
  const items = findItems([
    block("Qty Product Price"),
    block("2 Oat Crunch Granola 500g $9.98"),
    block("1 Cold Brew Concentrate $7.49"),
    block("Subtotal $17.47"),
  ], []);
  deepEqual(items.map((i) => [i.name, i.quantity]), [
    ["Oat Crunch Granola 500g", 2],
    ["Cold Brew Concentrate", 1],
  ]);
});

Deno.test("a name cell, then a count cell and a price cell in its row, is an item", () => {
  const cell = (text: string, col: number) => block(text, { cell: { table: 1, row: 0, col } });
  const items = findItems([
    cell("Linden Hand Cream", 0),
    cell("75 ml", 0),
    cell("2x", 1),
    cell("€ 9,90", 2),
  ], []);
  equal(items[0]?.name, "Linden Hand Cream");
  equal(items[0]?.quantity, 2);
  // Something other than a count between the name and the price: no item from this rule.
  equal(
    findItems([cell("Linden Hand Cream", 0), cell("Gift wrap", 1), cell("€ 9,90", 2)], []).length,
    0,
  );
});

Deno.test("a subject about the order as a whole names no item: the order number summarises", async () => {
  for (
    const subject of [
      "Neuigkeiten zu Ihrer Bestellung bei Beispielhaus",
      "An update on your order #30518",
      "Your order at Beispielhaus",
    ]
  ) {
    const read = await readMail({
      from: "Beispielhaus <shop@beispielhaus.example>",
      subject,
      text:
        "Ihre Bestellung bei Beispielhaus (Number: 30518) hat jetzt den Lieferstatus: Versandt.",
    });
    equal(read.reading.kind === "order" && read.reading.fields.itemSummary, "Order 30518", subject);
  }
});

Deno.test("a sentence closing on a colon that says the order will come introduces its day", async () => {
  const read = await readMail({
    from: "Shop <orders@shop.example>",
    subject: "Order #77120 confirmed",
    date: "Tue, 24 Nov 2026 10:00:00 +0000",
    text:
      "Thanks, your order is confirmed.\nWe will deliver your order on:\nThursday, Nov 26, 8am - 12pm\nOrder #: 77120\nFleece Blanket × 1\n$40.00",
  });
  equal(read.reading.kind === "order" && read.reading.fields.estimatedDelivery, "2026-11-26");
  // A colon line that is no delivery (`Order date:`) introduces nothing.
  const dated = await readMail({
    from: "Shop <orders@shop.example>",
    subject: "Order #77120 confirmed",
    date: "Tue, 24 Nov 2026 10:00:00 +0000",
    text:
      "Thanks, your order is confirmed.\nThis is the day you placed it on:\nTuesday, Nov 24\nOrder #: 77120\nFleece Blanket × 1\n$40.00",
  });
  equal(dated.reading.kind === "order" && dated.reading.fields.estimatedDelivery, undefined);
});

Deno.test("delivery days and slots are delivery labels in every language", () => {
  for (
    const label of [
      "Delivery slot",
      "Liefertag",
      "Lieferfenster",
      "Jour de livraison",
      "Créneau de livraison",
      "Día de entrega",
      "Giorno di consegna",
    ]
  ) equal(isLabel(label, "estimatedDelivery"), true, label);
});

Deno.test("a product code alone under its key is never the item, and may stand under the name", () => {
  for (
    const text of [
      "Artikelnummer: 123456",
      "Art.-Nr.: 4471-22",
      "Réf. : ABC123",
      "Referencia: 12345",
      "Codice articolo: X12",
      "EAN: 4012345678901",
      "Item # 158WH1XM6B",
      "SKU 12345",
      "Model number: KX-100",
    ]
  ) {
    equal(isBoilerplate(block(text)), true, text);
    const items = findItems([
      block("Field Jacket Olive"),
      block(text),
      block("Qty: 1"),
      block("$10.00"),
    ], []);
    equal(items[0]?.name, "Field Jacket Olive", text);
  }
  // A name that only opens with such a word is a name.
  equal(isBoilerplate(block("Model 3 Charging Cable")), false);
  equal(isBoilerplate(block("Reference Trail Runner 2")), false);
});
