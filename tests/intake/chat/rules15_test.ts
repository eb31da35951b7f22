/**
 * Chat rules from the fifteenth set: a checkout split over two embeds (the product's, then the
 * order's part) whose only word of its outcome is in a footer (`Bot • Checked out`) is an order
 * when an order number is read; a part's heading in another language (`Bestellübersicht`) is not
 * the product.
 */
import { equal } from "node:assert/strict";
import { readChatPost } from "../../../src/intake/chat/read.ts";
import { isSectionName } from "../../../src/intake/chat/pairs.ts";

const field = (name: string, value: string) => ({ name, value, inline: true });

const split = (part: string, footer: string, order = true) => ({
  username: "Kestrel",
  embeds: [
    {
      title: "Merrell Hydro Moc 'Tide Blue'",
      fields: [field("Größe", "EU 43"), field("Preis", "84,95 €")],
    },
    {
      title: part,
      fields: [
        field("Shop", "Hafenlauf"),
        ...(order ? [field("Bestellnummer", "HL-558120")] : []),
        field("E-Mail", "||a***@example.org||"),
      ],
      footer: { text: footer },
    },
  ],
});

Deno.test("a footer that says the checkout went through stands for the header of a split post", () => {
  const read = readChatPost(split("Bestellübersicht", "Kestrel • Checked out")).reading;
  equal(read.kind, "order");
  if (read.kind !== "order") return;
  equal(read.fields.itemSummary, "Merrell Hydro Moc 'Tide Blue'");
  equal(read.fields.store, "Hafenlauf");
  equal(read.fields.orderNumber, "HL-558120");
  equal(read.fields.price, "84,95 €");
  equal(read.fields.size, "EU 43");
  equal(JSON.stringify(read.signals), "{}");
});

Deno.test("no order number, a failure in the footer, or a footer saying nothing: no order", () => {
  equal(
    readChatPost(split("Bestellübersicht", "Kestrel • Checked out", false)).reading.kind,
    "ignored",
  );
  equal(
    readChatPost(split("Bestellübersicht", "Kestrel • Checkout failed")).reading.kind,
    "ignored",
  );
  equal(readChatPost(split("Bestellübersicht", "Kestrel • v3.1")).reading.kind, "ignored");
});

Deno.test("a part's heading in another language is a section, not a product", () => {
  for (
    const name of [
      "Bestellübersicht",
      "Détails de la commande",
      "Detalles del pedido",
      "Bestelgegevens",
      "Riepilogo ordine",
      "注文詳細",
    ]
  ) {
    equal(isSectionName(name), true, name);
  }
  equal(isSectionName("Merrell Hydro Moc 'Tide Blue'"), false);
});
