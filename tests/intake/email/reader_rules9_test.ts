/**
 * General rules of the email reader learned from a ninth set (one round): a maker's name in
 * brackets glued to a product's name (`【マルノート】方眼ノート`, `<カワセミ工房>ケトル`) opens the
 * name, while a bracket holding a field's or section's words stays a label; a store whose own text
 * writes its name with its domain keeps the domain; a tax row (`Impuestos incluidos`) is a summary
 * row, never an item; a table row `Name | × 2 | 24,50 €` is an item with its count; a payment or
 * shipping method line (`Zahlungsart: Rechnung`) is never an item.
 */
import { equal } from "node:assert/strict";
import { isBoilerplate } from "../../../src/intake/email/boilerplate.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { extractFields } from "../../../src/intake/email/extract.ts";
import { storeFromSender } from "../../../src/intake/email/merge.ts";

const boiler = (text: string) => isBoilerplate(textToBlocks(text)[0]);

Deno.test("a maker in brackets glued to a name opens the name; a bracketed label stays a label", () => {
  equal(boiler("【マルノート】方眼ノート B5 5冊パック"), false);
  equal(boiler("＜カワセミ工房＞ステンレスケトル 1.2L"), false);
  equal(boiler("【ご注文商品】"), true);
  equal(boiler("【お届け先】東京都渋谷区神宮前1-2-3"), true);
  equal(boiler("【ご注文日】 2026年8月15日"), true);
  equal(boiler("【お支払方法】クレジットカード"), true);
  equal(boiler("<ご注文番号>KW-2611"), true);
});

const letterOf = (blocks: ReturnType<typeof textToBlocks>) => ({
  subject: "Order",
  blocks,
  jsonLd: [],
  microdata: [],
});

Deno.test("a Japanese item whose name opens with a bracketed maker is read, not the order number", () => {
  const text = [
    "◆ご注文番号：BM2611050042",
    "◆ご注文商品",
    "【マルノート】方眼ノート B5 5冊パック",
    "　価格：1,320円（税込）　数量：3",
  ].join("\n");
  const read = extractFields(letterOf(textToBlocks(text)), []);
  equal(read.items[0]?.name, "【マルノート】方眼ノート B5 5冊パック");
  equal(read.items[0]?.quantity, 3);
});

Deno.test("a store that writes its name with its domain keeps it; one named only in links does not", () => {
  const blocks = textToBlocks("Vielen Dank für Deine Bestellung bei Kletterkiste.de.");
  equal(storeFromSender("Kletterkiste.de", "info@kletterkiste.de", blocks), "Kletterkiste.de");
  const links = textToBlocks(
    "Track it: https://www.kletterkiste.de/orders/1\nmail@kletterkiste.de",
  );
  equal(storeFromSender("Kletterkiste.de", "info@kletterkiste.de", links), "Kletterkiste");
  equal(storeFromSender("Kletterkiste.de", "info@kletterkiste.de", []), "Kletterkiste");
});

const table = (rows: string[][]) =>
  htmlToBlocks(
    `<table>${
      rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")
    }</table>`,
  ).blocks;

Deno.test("a row with a count cell between name and price is an item; a tax row never is", () => {
  const read = extractFields(
    letterOf(table([
      ["Carcassonne Cazadores y Recolectores", "× 2", "24,50 €"],
      ["Subtotal", "49,00 €"],
      ["Impuestos incluidos", "9,20 €"],
    ])),
    [],
  );
  equal(read.items.length, 1);
  equal(read.items[0].name, "Carcassonne Cazadores y Recolectores");
  equal(read.items[0].quantity, 2);
  equal(read.items[0].price?.display, "24,50 €");
  // Without an item row, the tax row is not taken for one.
  const none = extractFields(letterOf(table([["Impuestos incluidos", "9,20 €"]])), []);
  equal(none.items.length, 0);
});

Deno.test("a payment or shipping method line is never the item", () => {
  const text = [
    "Bestellnummer: 40027815",
    "Zahlungsart: Rechnung",
    "",
    "Boulderbürste Pro Doppelkopf",
    "  Anzahl: 2   Gesamt: 17,80 €",
  ].join("\n");
  const read = extractFields(letterOf(textToBlocks(text)), []);
  equal(read.items[0]?.name, "Boulderbürste Pro Doppelkopf");
});

const letterAt = (text: string) => ({
  ...letterOf(textToBlocks(text)),
  date: "Tue, 10 Nov 2026 15:31:54 +0100",
});
const NOV_10 = Date.parse("2026-11-10T12:00:00Z");

Deno.test("a delivery label opening a later sentence of a line gives the day", () => {
  const day = (text: string) => extractFields(letterAt(text), [], NOV_10).estimatedDelivery;
  equal(
    day(
      "Je bestelling is vandaag met PostNL verzonden. Verwachte bezorging: woensdag 11 november.",
    ),
    "2026-11-11",
  );
  equal(
    day("Votre commande a été expédiée par Colissimo. Livraison prévue le mardi 24 novembre."),
    "2026-11-24",
  );
  // A label inside a sentence (not opening one) is still not read as a field line.
  equal(day("We told you the delivery date: soon. Thanks."), undefined);
});

Deno.test("a total label with a bare tax note (inkl. MwSt., incl. btw) labels the total", () => {
  const total = (text: string) => extractFields(letterAt(text), [], NOV_10).total?.display;
  equal(total("Gesamtsumme inkl. MwSt. 638,90 €"), "638,90 €");
  equal(total("Totaal incl. btw: €44,95"), "€44,95");
  equal(total("Total inc. GST $89.00"), "$89.00");
});

Deno.test("a parcel number no format names takes its carrier from the shipping method line", () => {
  const text = [
    "Bestellnummer: BH-2611-7730",
    "Versandart: DHL Paket",
    "Sendungsnummer: 324628194829",
  ].join("\n");
  const read = extractFields(letterAt(text), [], NOV_10);
  equal(read.trackingNumber, "324628194829");
  equal(read.carrier, "dhl");
  // A method naming no carrier of ours gives none.
  const other = extractFields(
    letterAt(text.replace("DHL Paket", "Standardversand")),
    [],
    NOV_10,
  );
  equal(other.carrier, undefined);
});
