/**
 * General rules of the readers from the fifth unseen set (issue 22): an item's labelled details
 * run together on one line or between dashes, a lone price under an item's details, a line that
 * carries its own details as the item, a carrier label naming a carrier we do not look up.
 */
import { deepEqual, equal } from "node:assert/strict";
import { detailParts, splitLine } from "../../../src/intake/email/item_details.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { readPhase, statusScope } from "../../../src/intake/email/signals.ts";
import { foldForMatch } from "../../../src/intake/text.ts";
import { isLabel } from "../../../src/intake/email/labels.ts";
import {
  acceptOrderNumber,
  orderNumberInSentence,
} from "../../../src/intake/email/order_number.ts";
import { parseDay } from "../../../src/intake/email/dates.ts";
import { isBoilerplate } from "../../../src/intake/email/boilerplate.ts";
import type { MessageFields } from "../../../src/domain/orders/order.ts";
import { bytes, mail, NOW, textBlock as block } from "./mail.ts";

async function fields(text: string, subject: string): Promise<MessageFields> {
  const read = await readEmail(
    bytes(mail({ from: "Shop <orders@shop.example>", subject, text })),
    { now: NOW },
  );
  equal(read.reading.kind, "order", JSON.stringify(read.reading));
  return read.reading.kind === "order" ? read.reading.fields : {};
}

Deno.test("a line of several labelled details is cut into one part per label", () => {
  deepEqual(detailParts("Size: L Color: Heather Oat Qty: 1"), [
    "Size: L",
    "Color: Heather Oat",
    "Qty: 1",
  ]);
  deepEqual(detailParts("Couleur : écru - Taille : M"), ["Couleur : écru", "Taille : M"]);
  deepEqual(detailParts("Qté : 1 - 49,99 €"), ["Qté : 1", "49,99 €"]);
  // A label of two words is one key (`Unit price`, `Shoe size`), not two.
  deepEqual(detailParts("Shoe size: 9 Unit price: $40.00"), ["Shoe size: 9", "Unit price: $40.00"]);
  // A colon that follows no detail label cuts nothing.
  deepEqual(detailParts("Star Wars: A New Hope Blu-ray"), ["Star Wars: A New Hope Blu-ray"]);
});

Deno.test("details printed after the name on its line are not the name", () => {
  deepEqual(splitLine("Le città invisibili (Brossura) Quantità: 2"), {
    name: "Le città invisibili (Brossura)",
    details: ["Quantità: 2"],
  });
  deepEqual(splitLine("ロルバーン メモ L ブラック 数量:3"), {
    name: "ロルバーン メモ L ブラック",
    details: ["数量:3"],
  });
});

Deno.test("pairs run together give size and quantity; a lone figure under them is the price", async () => {
  const f = await fields(
    [
      "Your order has shipped.",
      "",
      "Order #: QX-20114",
      "",
      "Harbor Rain Shell",
      "Size: L  Color: Navy  Qty: 1",
      "$96.00",
      "",
      "Order total: $104.00",
    ].join("\r\n"),
    "Your order QX-20114 has shipped",
  );
  equal(f.itemSummary, "Harbor Rain Shell");
  equal(f.size, "L");
  equal(f.quantity, 1);
  equal(f.price, "$96.00");
});

Deno.test("a line carrying its own labelled details is the item", async () => {
  const f = await fields(
    [
      "Votre colis est en route !",
      "",
      "Commande n° 77120934",
      "",
      "Pull marin - Taille : S - Qté : 2",
    ]
      .join("\r\n"),
    "Votre commande est expédiée",
  );
  equal(f.itemSummary, "Pull marin");
  equal(f.size, "S");
  equal(f.quantity, 2);
  // A line of details only names no item.
  const none = await fields(
    ["Votre colis est en route !", "", "Commande n° 77120934", "", "Taille : S - Qté : 2"]
      .join("\r\n"),
    "Votre commande est expédiée",
  );
  equal(none.size, undefined);
});

Deno.test("a carrier label naming a carrier we do not look up leaves the carrier blank", async () => {
  const text = (carrier: string) =>
    [
      "Your order has shipped.",
      "Order number: 55012",
      `Carrier: ${carrier}`,
      "Tracking number: RX7301946285",
    ].join("\r\n");
  const other = await fields(text("Relais Express"), "Order 55012 shipped");
  equal(other.trackingNumber, "RX7301946285");
  equal(other.carrier, undefined);
  const dhl = await fields(text("DHL eCommerce"), "Order 55012 shipped");
  equal(dhl.carrier, "dhl");
});

Deno.test("a first sentence written without spaces is read for the status; shipping said as a noun", () => {
  const scope = statusScope("【店】お知らせ", [
    block("木の実文具店"),
    block("田中 様"),
    block("ご注文いただいた商品を本日発送いたしました。"),
  ]);
  equal(scope.length, 2);
  equal(readPhase(scope), "shipped");
  equal(readPhase([foldForMatch("商品発送のご案内")]), "shipped");
  equal(readPhase([foldForMatch("出荷のご連絡")]), "shipped");
  // Shipping still to come is not shipped.
  equal(readPhase([foldForMatch("発送予定日のお知らせ")]), undefined);
});

Deno.test("Polish: status wording, labels, slashed order numbers, month and weekday names", () => {
  const phase = (text: string) => readPhase([foldForMatch(text)]);
  equal(phase("Dziękujemy za złożenie zamówienia!"), "confirmed");
  equal(phase("Potwierdzenie zamówienia ZAM/2026/1042"), "confirmed");
  equal(phase("Twoja przesyłka została nadana"), "shipped");
  equal(phase("Zamówienie zostało wysłane"), "shipped");
  equal(phase("Przesyłka została dostarczona"), "delivered");
  equal(phase("Zamówienie anulowane"), "canceled");
  // What will happen is not what happened.
  equal(
    readPhase(statusScope("Sklep", [block("Poinformujemy Cię, gdy paczka zostanie nadana.")])),
    undefined,
  );
  equal(isLabel("Numer zamówienia:", "orderNumber"), true);
  equal(isLabel("Numer przesyłki", "trackingNumber"), true);
  equal(isLabel("Razem do zapłaty", "total"), true);
  equal(isLabel("Ilość", "quantity"), true);
  equal(isLabel("Przewidywana data dostawy", "estimatedDelivery"), true);
  equal(acceptOrderNumber(" WR/2026/10/118204"), "WR/2026/10/118204");
  equal(acceptOrderNumber(" 1042/2026"), "1042/2026");
  // Dates and short fractions are not order numbers.
  equal(acceptOrderNumber(" 19/11/2026"), null);
  equal(acceptOrderNumber(" 24/7"), null);
  equal(orderNumberInSentence("Potwierdzenie zamówienia ME/2026/11/77"), "ME/2026/11/77");
  deepEqual(parseDay("czwartek, 22 października", { anchor: { year: 2026, month: 10, day: 21 } }), {
    year: 2026,
    month: 10,
    day: 22,
  });
  deepEqual(parseDay("poniedziałek", { anchor: { year: 2026, month: 10, day: 21 } }), {
    year: 2026,
    month: 10,
    day: 26,
  });
});

Deno.test("a note after a dash is not a range's end; a duration names no day; a dated line is boilerplate", () => {
  const anchor = { year: 2026, month: 11, day: 7 };
  deepEqual(parseDay("Thu, Nov 12 2026 - Free Delivery", { anchor }), {
    year: 2026,
    month: 11,
    day: 12,
  });
  equal(parseDay("Nov 12 - Nov 14", { anchor }), null);
  equal(parseDay("Mon - Fri", { anchor }), null);
  equal(parseDay("en 2-4 días laborables", { anchor }), null);
  equal(parseDay("within 3 business days", { anchor }), null);
  equal(isBoilerplate(block("Thu, Nov 12 2026 - Free Delivery")), true);
  equal(isBoilerplate(block("Mittwoch, 2. Dezember - Standardversand")), true);
  // A name that opens like a weekday is still a name.
  equal(isBoilerplate(block("Sunday Best 2 - Blue")), false);
  equal(isBoilerplate(block("Monstera Plant 12 cm (Pot)")), false);
});

Deno.test("'price of the item' labels a price; a seller's handover to the carrier is shipped", () => {
  equal(isLabel("Precio del producto:", "price"), true);
  equal(isLabel("Prix de l'article", "price"), true);
  equal(isLabel("Price of the item", "price"), true);
  const phase = (text: string) => readPhase(statusScope(text, []));
  equal(phase("El vendedor ya ha entregado el paquete en Correos."), "shipped");
  equal(phase("The seller has dropped off your item at the post office."), "shipped");
  equal(phase("Le vendeur a déposé ton colis."), "shipped");
  equal(phase("Tu compra ya está de camino"), "shipped");
  // A parcel delivered to the buyer is delivered.
  equal(phase("Tu pedido ha sido entregado."), "delivered");
});

Deno.test("days joined by a dash under one month are a range, not the first day", () => {
  const anchor = { year: 2026, month: 11, day: 2 };
  equal(parseDay("Arrives Nov 10-12", { anchor }), null);
  equal(parseDay("10–12 novembre", { anchor }), null);
  deepEqual(parseDay("Nov 10, 2026", { anchor }), { year: 2026, month: 11, day: 10 });
});

Deno.test("a weak-shaped number under a label gets its carrier only when the mail names it", async () => {
  const text = (courier: string) =>
    [
      `Your parcel with ${courier} is on its way.`,
      "Order number: 55012",
      "Tracking number: 782345019468",
    ].join("\r\n");
  const other = await fields(text("Freccia Express"), "Order 55012 shipped");
  equal(other.trackingNumber, "782345019468");
  equal(other.carrier, undefined);
  const fedex = await fields(text("FedEx"), "Order 55012 shipped");
  equal(fedex.carrier, "fedex");
});

Deno.test("a number marked # in a subject naming what happened to an order is its number", async () => {
  const body = ["Hi Jo,", "", "Hardcover Journal", "Qty: 1", "$14.00", "", "Total: $18.50"].join(
    "\r\n",
  );
  equal((await fields(body, "Thanks for your order! (#BK20931)")).orderNumber, "BK20931");
  // Without order wording a `#` number is not an order's.
  const read = await readEmail(
    bytes(mail({ from: "Shop <orders@shop.example>", subject: "Journal club #20931", text: body })),
    { now: NOW },
  );
  equal(read.reading.kind === "order" ? read.reading.fields.orderNumber : undefined, undefined);
});

Deno.test("a row's last figure for several pieces is a price only when the subtotal is that many times it", async () => {
  const text = (subtotal: string) =>
    [
      "Thanks for your order!",
      "Order number: 30917",
      "",
      "Stoneware Camp Mug",
      "Qty: 2",
      "$36.00",
      "",
      `Subtotal: ${subtotal}`,
      "Total: $41.00",
    ].join("\r\n");
  // The figure is the line's total (= the subtotal): no unit price rather than a wrong one.
  equal((await fields(text("$36.00"), "Order 30917 confirmed")).price, undefined);
  equal((await fields(text("$72.00"), "Order 30917 confirmed")).price, "$36.00");
});

Deno.test("a lone line carrying its count is the item even with no price", async () => {
  const f = await fields(
    ["Tu pedido ha sido enviado.", "Número de pedido: PN-40021", "", "Raqueta Carbon Pro x 1"]
      .join("\r\n"),
    "Tu pedido PN-40021 ha sido enviado",
  );
  equal(f.itemSummary, "Raqueta Carbon Pro");
  equal(f.quantity, 1);
});

Deno.test("congratulations and exclamations to the reader are not names; 'you bought' is a purchase", () => {
  equal(isBoilerplate(block("Congratulations, you bought an item!")), true);
  equal(isBoilerplate(block("Your snacks are on their way!")), true);
  equal(isBoilerplate(block("Dein Paket ist unterwegs!")), true);
  // A name with an exclamation mark of its own stays a name.
  equal(isBoilerplate(block("Mamma Mia! Here We Go Again (Blu-ray)")), false);
  equal(readPhase([foldForMatch("Congratulations, you bought an item!")]), "confirmed");
  equal(isLabel("Cancelled item:", "item"), true);
  equal(isLabel("Artikel storniert:", "item"), true);
});

Deno.test("an order said to be confirmed in the store's language is ordered", () => {
  const phase = (text: string) => readPhase([foldForMatch(text)]);
  equal(phase("Votre commande n°FR12345 est confirmée"), "confirmed");
  equal(phase("Ihre Bestellung 4471 wurde bestätigt"), "confirmed");
  equal(phase("Tu pedido ha sido confirmado"), "confirmed");
  equal(phase("Il tuo ordine è stato confermato"), "confirmed");
  equal(phase("Je bestelling is bevestigd"), "confirmed");
  equal(phase("Zamówienie zostało potwierdzone"), "confirmed");
});

Deno.test("an order's number named a few words after it; a commande's reference is its number", () => {
  equal(
    orderNumberInSentence(
      "vielen Dank für Ihre Bestellung bei Gartenwelt (Nummer: 10045) am 30.11.2026.",
    ),
    "10045",
  );
  equal(orderNumberInSentence("Your order from Acme (number: 88120)"), "88120");
  // A number of something else in the sentence is not the order's.
  equal(orderNumberInSentence("Call our order line, phone 0800 123"), null);
  equal(isLabel("Référence de la commande :", "orderNumber"), true);
  equal(isLabel("Referencia del pedido", "orderNumber"), true);
});

Deno.test("a plain Price column equal to the subtotal is a line's total for several pieces", async () => {
  const read = await readEmail(
    bytes(
      mail({
        from: "Shop <orders@shop.example>",
        subject: "Order #2291 received",
        html: [
          "<p>Thank you for your order #2291.</p>",
          "<table><tr><th>Product</th><th>Quantity</th><th>Price</th></tr>",
          "<tr><td>Smoky Tea 100g</td><td>2</td><td>£17.00</td></tr></table>",
          "<table><tr><th>Subtotal:</th><td>{sub}</td></tr><tr><th>Total:</th><td>£40.50</td></tr></table>",
        ].join(""),
      }).replace("{sub}", "£17.00"),
    ),
    { now: NOW },
  );
  equal(read.reading.kind === "order" && read.reading.fields.price, undefined);
  equal(read.reading.kind === "order" && read.reading.fields.quantity, 2);
});

Deno.test("an 'Auftrag' is an order; 'Prijs per stuk' and 'Data di consegna prevista' are labels", () => {
  equal(readPhase([foldForMatch("Vielen Dank für Ihren Auftrag.")]), "confirmed");
  equal(readPhase([foldForMatch("Auftragsbestätigung 2026-1187")]), "confirmed");
  equal(isLabel("Prijs per stuk:", "price"), true);
  equal(isLabel("Price per item", "price"), true);
  equal(isLabel("Data di consegna prevista:", "estimatedDelivery"), true);
  equal(isLabel("Gesamt:", "total"), true);
  // A size label with one short value after a dash is the item's size.
  deepEqual(splitLine("Zapatillas Trail Montseny - Talla 42"), {
    name: "Zapatillas Trail Montseny",
    details: ["Talla 42"],
  });
  // A name that only ends like one keeps its words.
  deepEqual(splitLine("Kid's Jacket - Size Guide Inside").details, []);
});

Deno.test("a size label before a word that is no size is no detail", () => {
  deepEqual(splitLine("Rain Jacket - Size Guide").details, []);
  deepEqual(splitLine("Rain Jacket - Taille M").details, ["Taille M"]);
});
