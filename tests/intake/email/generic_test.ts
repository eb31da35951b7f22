/**
 * The generic reader's general rules (issue 22): status from what the message says happened in
 * seven languages, the marketing-sender rule giving way to the message's own order evidence, and
 * boilerplate blocks never taken as an item name.
 */
import { deepEqual, equal } from "node:assert/strict";
import { readEmail } from "../../../src/intake/email/read.ts";
import { readPhase, statusScope } from "../../../src/intake/email/signals.ts";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { isBoilerplate } from "../../../src/intake/email/boilerplate.ts";
import { labelledValues } from "../../../src/intake/email/labels.ts";
import { findTracking } from "../../../src/intake/email/tracking.ts";
import { dayString, parseDay } from "../../../src/intake/email/dates.ts";
import { moneyValue } from "../../../src/intake/money.ts";
import { findItems } from "../../../src/intake/email/items.ts";
import { bytes, mail, NOW, storeHtml, textBlock } from "./mail.ts";

const phase = (subject: string, html = "") =>
  readPhase(statusScope(subject, htmlToBlocks(html).blocks));

Deno.test("being prepared or getting ready to ship is ordered, in every language", () => {
  equal(
    phase("Order #1001 confirmed", "<p>We're getting your order ready to be shipped.</p>"),
    "confirmed",
  );
  equal(phase("Your order", "<p>Your order is being prepared in our workroom.</p>"), "confirmed");
  equal(
    phase(
      "Bestellung 1",
      "<p>Deine Bestellung wird gerade vorbereitet und ist bald bereit zum Versand.</p>",
    ),
    "confirmed",
  );
  equal(phase("Commande 1", "<p>Votre commande est en cours de préparation.</p>"), "confirmed");
  equal(
    phase("Pedido 1", "<p>Tu pedido se está preparando y pronto será enviado.</p>"),
    "confirmed",
  );
  equal(
    phase("Bestelling 1", "<p>Bedankt voor je bestelling, we maken hem klaar voor verzending.</p>"),
    "confirmed",
  );
  equal(phase("Ordine 1", "<p>Grazie per il tuo ordine! È in preparazione.</p>"), "confirmed");
  equal(phase("ご注文ありがとうございます"), "confirmed");
});

Deno.test("dispatched, handed to the carrier, delivered and canceled in every language", () => {
  equal(
    phase("Update", "<p>Good news: order 55 has been handed to Royal Mail today.</p>"),
    "shipped",
  );
  equal(phase("Je bestelling is onderweg"), "shipped");
  equal(phase("Il tuo ordine è stato spedito"), "shipped");
  equal(phase("商品を発送しました"), "shipped");
  equal(phase("Je pakket is bezorgd"), "delivered");
  equal(phase("Il tuo pacco è stato consegnato"), "delivered");
  equal(phase("配達完了のお知らせ"), "delivered");
  equal(phase("Je bestelling is geannuleerd"), "canceled");
  equal(phase("ご注文のキャンセル"), "canceled");
  // A delivery still to come is not a delivery: tomorrow is shipped, a later day says nothing.
  equal(phase("Je bestelling 2026-0417 wordt morgen bezorgd"), "shipped");
  equal(phase("Your order will be delivered tomorrow"), "shipped");
  equal(phase("Deine Bestellung wird heute zugestellt"), "out_for_delivery");
  equal(phase("Thanks for your order", "<p>It will be delivered on Friday.</p>"), "confirmed");
  equal(phase("Votre commande sera livrée le 4 septembre"), undefined);
});

Deno.test("a marketing-looking sender with the message's own order evidence is an order; without it, not", async () => {
  const html = storeHtml({ orderNumber: "DR-2210", item: "Canvas Weekender", total: "$120.00" });
  const order = await readEmail(
    bytes(mail({ from: "Shop <drops@shop.example>", subject: "Order DR-2210 confirmed", html })),
    { now: NOW },
  );
  equal(order.reading.kind, "order");
  const blast = await readEmail(
    bytes(mail({
      from: "Shop <news@shop.example>",
      subject: "New season, new bags",
      html: "<h1>Fresh drops</h1><p>Canvas Weekender now in five colours.</p>",
    })),
    { now: NOW },
  );
  equal(blast.reading.kind, "ignored");
});

Deno.test("buttons, greetings, other ids, field lines, legal lines and the subject heading are boilerplate", () => {
  const block = textBlock;
  const link = (text: string) => block(text, { links: [{ href: "https://x.example/o", text }] });
  equal(isBoilerplate(link("View or edit order")), true);
  equal(isBoilerplate(link("Sendung verfolgen")), true);
  equal(isBoilerplate(link("Track Jacket")), true);
  equal(isBoilerplate(block("Track Jacket")), false);
  equal(isBoilerplate(link("Harbour Rain Jacket")), false);
  equal(isBoilerplate(block("Thanks for your order!")), true);
  equal(isBoilerplate(block("Bedankt voor je bestelling")), true);
  equal(isBoilerplate(block("Member #: 0048812733")), true);
  equal(isBoilerplate(block("Bestellnummer: 40817")), true);
  equal(isBoilerplate(block("Order Total: $20.00")), true);
  equal(isBoilerplate(block("© 2026 Shop Ltd. All rights reserved.")), true);
  equal(
    isBoilerplate(
      block("Your order is on its way", { heading: true }),
      "Your order is on its way!",
    ),
    true,
  );
  equal(isBoilerplate(block("Canvas Weekender Bag")), false);
  // A dated event, the order-number line with its date, a separator drawn in text: never items.
  equal(isBoilerplate(block("Placed Oct 3, 2026")), true);
  equal(isBoilerplate(block("Arriving by Friday, October 9")), true);
  equal(isBoilerplate(block("Geliefert am 12.10.2026")), true);
  equal(isBoilerplate(block("Expédiée le 04/10/2026")), true);
  equal(isBoilerplate(block("Commande n° 55310 du 03/10/2026")), true);
  equal(isBoilerplate(block("Order 88214 from October 3")), true);
  equal(isBoilerplate(block("══════════════")), true);
  equal(isBoilerplate(block("- - - - - - -")), true);
  // Still items: a name that starts like an event word, a name with a size.
  equal(isBoilerplate(block("Delivery Drone Kit X2")), false);
  equal(isBoilerplate(block("Shipped Oak Side Table 45 cm")), false);
  equal(isBoilerplate(block("€ 49,99")), false, "a bare amount is a value, not boilerplate");
});

Deno.test("label vocabularies in Dutch, Italian and Japanese; a figure run into its label", () => {
  const blocks = (texts: string[]) =>
    texts.map((text) => ({ text, tag: "p", heading: false, links: [], images: [], quote: 0 }));
  const first = (texts: string[], field: Parameters<typeof labelledValues>[1]) =>
    labelledValues(blocks(texts), field, (v) => v.trim(), { sentences: false })[0]?.value;
  equal(first(["Bestelnummer: 77120"], "orderNumber"), "77120");
  equal(first(["Numero d'ordine: 3381-IT"], "orderNumber"), "3381-IT");
  equal(first(["【ご注文番号】 JP-1"], "orderNumber"), "JP-1");
  equal(first(["Transaction ID: 7310044821"], "orderNumber"), "7310044821");
  equal(first(["Numéro de transaction : 88"], "orderNumber"), "88");
  equal(first(["Track & Trace code", "3SABCD1234567"], "trackingNumber"), "3SABCD1234567");
  equal(first(["お問い合わせ番号：4412"], "trackingNumber"), "4412");
  equal(first(["Totaal: € 17,90"], "total"), "€ 17,90");
  equal(first(["Totale: 1.149,00 €"], "total"), "1.149,00 €");
  equal(first(["合計金額：￥3,960"], "total"), "￥3,960");
  equal(first(["Total£1,284.00"], "total"), "£1,284.00");
  equal(first(["Aantal: 2"], "quantity"), "2");
  equal(first(["Taglia: M"], "size"), "M");
  equal(
    first(["Verwachte bezorgdatum: vrijdag 14 augustus"], "estimatedDelivery"),
    "vrijdag 14 augustus",
  );
  equal(first(["商品名：手ぬぐい"], "item"), "手ぬぐい");
});

Deno.test("yen amounts and Japanese dates", () => {
  equal(moneyValue("￥3,960")?.cents, 396000);
  equal(moneyValue("3,960円")?.currency, "JPY");
  const anchor = { year: 2026, month: 8, day: 15 };
  equal(
    parseDay("2026年8月19日", { anchor }) && dayString(parseDay("2026年8月19日")!),
    "2026-08-19",
  );
  equal(dayString(parseDay("8月19日(水)", { anchor })!), "2026-08-19");
  equal(parseDay("8月19日〜8月21日", { anchor }), null);
});

Deno.test("a labelled tracking number of a carrier we do not look up is kept, with no carrier", () => {
  const b = (text: string) => ({ text, tag: "p", heading: false, links: [], images: [], quote: 0 });
  const royal = findTracking([b("Tracking number: TT552994646GB")]);
  equal(royal.trackingNumber, "TT552994646GB");
  equal(royal.carrier, undefined);
  equal(findTracking([b("Numéro de suivi : 6A12345678901")]).trackingNumber, "6A12345678901");
  // No label, or no digits to speak of: nothing.
  equal(findTracking([b("Your parcel TT552994646GB is coming")]).trackingNumber, undefined);
  equal(findTracking([b("Tracking: see your account")]).trackingNumber, undefined);
  equal(findTracking([b("Tracking number: 1-800-555-0100")]).trackingNumber, undefined);
  // The order number is never the tracking number.
  equal(findTracking([b("Tracking number: 40817233")], "40817233").trackingNumber, undefined);
});

Deno.test("items: a count and a price anchor the item block; an item label names it; a brand line is skipped", () => {
  const blocks = (texts: string[]) =>
    texts.map((text) => ({ text, tag: "text", heading: false, links: [], images: [], quote: 0 }));
  const items = (texts: string[]) =>
    findItems(blocks(texts), [], "Order confirmed").map((
      i,
    ) => [i.name, i.quantity, i.price?.display]);
  deepEqual(items(["Order summary", "2 x Canvas Tote Bag for CA$24.99 each", "Total: CA$49.98"]), [
    ["Canvas Tote Bag", 2, "CA$24.99"],
  ]);
  deepEqual(items(["Bougie Figue x 2 à 12,00 € l'unité", "Total : 24,00 €"]), [[
    "Bougie Figue",
    2,
    "12,00 €",
  ]]);
  deepEqual(items(["Oak Serving Board (Large) x 1 - £45.00", "Order total: £49.95"]), [
    ["Oak Serving Board (Large)", 1, "£45.00"],
  ]);
  deepEqual(
    items(["Date de livraison estimée : 12/09/2026", "Article : Lampe de chevet", "Qté : 1"]),
    [
      ["Lampe de chevet", 1, undefined],
    ],
  );
  deepEqual(items(["Harris Field Coat × 1", "Moss / 40R", "£595.00", "Total£595.00"]), [
    ["Harris Field Coat", 1, "£595.00"],
  ]);
  deepEqual(items(["Artikel: Fahrradklingel Messing", "Menge: 1", "Preis: 12,95 €"]), [
    ["Fahrradklingel Messing", 1, "12,95 €"],
  ]);
  deepEqual(items(["Atelier Brunet", "Bougie parfumée Figue et Cèdre 220 g", "Quantité : 2"]), [
    ["Bougie parfumée Figue et Cèdre 220 g", 2, undefined],
  ]);
  // A greeting, an order-number line and a button are never the item.
  deepEqual(items(["Hi Sam,", "Order #4411", "Qty: 1"]), []);
});
