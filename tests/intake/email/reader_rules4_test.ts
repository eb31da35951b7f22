/**
 * General rules of the readers learned from a third unseen set: a Japanese subject that names
 * the order's receipt as a noun, a chat `Cart` field of numbered product lines, an item label
 * that says the item was shipped, an item's details on its own line between dashes, a tracking
 * label opened by a carrier's name, a number on a carrier's own tracking page, `Your delivery
 * day`.
 */
import { deepEqual, equal } from "node:assert/strict";
import { readPhase } from "../../../src/intake/email/signals.ts";
import { foldForMatch } from "../../../src/intake/text.ts";
import { splitLine } from "../../../src/intake/email/item_details.ts";
import { namesOtherCarrier } from "../../../src/intake/email/tracking.ts";
import { trackingNumbersInUrl } from "../../../src/intake/email/links.ts";
import { isLabel } from "../../../src/intake/email/labels.ts";
import { readLineItem } from "../../../src/intake/chat/fields.ts";
import { readChatPost } from "../../../src/intake/chat/read.ts";

Deno.test("a Japanese subject naming the order's receipt as a noun is ordered; closed orders are not", () => {
  equal(readPhase([foldForMatch("【木曽ひのき工房】注文受付完了のご案内")]), "confirmed");
  equal(readPhase([foldForMatch("ご注文受付いたしました")]), "confirmed");
  equal(readPhase([foldForMatch("年末セールの注文受付は終了しました")]), undefined);
  equal(readPhase([foldForMatch("注文受付期間のご案内")]), undefined);
});

Deno.test("a cart line's position is not part of the product name", () => {
  deepEqual(readLineItem("Item 1: Fenwick Headphones ×2 — $149.00", true, true), {
    name: "Fenwick Headphones",
    quantity: 2,
    price: "$149.00",
  });
  deepEqual(readLineItem("#3) Tarn Wool Socks", false), { name: "Tarn Wool Socks" });
  deepEqual(readLineItem("Artikel 2. Bergschuh Alpin", false), { name: "Bergschuh Alpin" });
  // A number that is the product's own stays.
  deepEqual(readLineItem("1000 Piece Puzzle", false), { name: "1000 Piece Puzzle" });
  deepEqual(readLineItem("2x Tarn Wool Socks", false), { name: "Tarn Wool Socks", quantity: 2 });
});

Deno.test("a 'Cart' field holds the products; a header saying only 'Checkout' needs an order number", () => {
  const post = (orderNumber?: string) => ({
    username: "Osprey",
    embeds: [{
      author: { name: "Osprey · Checkout" },
      fields: [
        { name: "Merchant", value: "Kestrel Audio" },
        { name: "Cart", value: "Item 1: Fenwick Headphones ×1 — $149.00" },
        ...(orderNumber ? [{ name: "Order Number", value: orderNumber }] : []),
      ],
    }],
  });
  const read = readChatPost(post("KA-1201"));
  equal(read.reading.kind, "order");
  if (read.reading.kind !== "order") return;
  equal(read.reading.fields.itemSummary, "Fenwick Headphones");
  equal(read.reading.fields.price, "$149.00");
  equal(readChatPost(post()).reading.kind, "ignored");
});

Deno.test("an item label may say the item was shipped", () => {
  for (
    const label of ["Prodotto spedito", "Item shipped", "Artículo enviado:", "Artikel versandt:"]
  ) {
    equal(isLabel(label, "item"), true, label);
  }
  equal(isLabel("Shipped to:", "item"), false);
});

Deno.test("an item's labelled details between dashes on its line are not its name", () => {
  deepEqual(splitLine("NORDVIK - Chaqueta acolchada Picos - Talla: M - Cantidad: 2"), {
    name: "Chaqueta acolchada Picos",
    details: ["Talla: M", "Cantidad: 2"],
  });
  deepEqual(splitLine("Fenwick Headphones | Colour: Slate"), {
    name: "Fenwick Headphones",
    details: ["Colour: Slate"],
  });
  // No labelled detail: the line is the name, dashes and capitals included.
  deepEqual(splitLine("ACME - Spring Jacket - Blue"), {
    name: "ACME - Spring Jacket - Blue",
    details: [],
  });
  // Only details: nothing to call a name, the line stays whole.
  deepEqual(splitLine("Size: M - Qty: 1"), { name: "Size: M - Qty: 1", details: [] });
});

Deno.test("a tracking label may open with a carrier's name; another carrier's leaves the carrier blank", () => {
  for (const label of ["Evri parcel number:", "UPS tracking:", "Kestrel package number"]) {
    equal(isLabel(label, "trackingNumber"), true, label);
  }
  equal(namesOtherCarrier("Evri parcel number:"), true);
  equal(namesOtherCarrier("UPS tracking:"), false);
  equal(namesOtherCarrier("Your tracking number"), false);
  equal(namesOtherCarrier("Tracking number"), false);
});

Deno.test("a number on a carrier's own tracking page is that carrier's, whatever its shape", () => {
  const sscc = "00340433987654321013"; // a USPS 20-digit shape too
  deepEqual(
    trackingNumbersInUrl(`https://www.dhl.de/de/verfolgen.html?piececode=${sscc}`),
    [{ trackingNumber: sscc, carrier: "dhl", checked: true }],
  );
  // Off the carrier's site the shape decides.
  deepEqual(
    trackingNumbersInUrl(`https://shop.example/track?tracking_number=${sscc}`).map((t) =>
      t.carrier
    ),
    ["usps"],
  );
});

Deno.test("'delivery day' labels the expected delivery", () => {
  equal(isLabel("Your delivery day:", "estimatedDelivery"), true);
  equal(isLabel("Delivery day", "estimatedDelivery"), true);
});
