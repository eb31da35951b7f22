/** Status signals from subject, heading and first sentence; the order rule; non-order mails. */
import { deepEqual, equal } from "node:assert/strict";
import { readEmail } from "../../../src/intake/email/read.ts";
import { readPhase, statusScope } from "../../../src/intake/email/signals.ts";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { bytes, mail, NOW, storeHtml } from "./mail.ts";

const SHOP = "Shop <orders@shop.example>";
const read = async (subject: string, html: string, from = SHOP) =>
  await readEmail(bytes(mail({ from, subject, html, messageId: "<m@x>" })), { now: NOW });

Deno.test("precedence: canceled > delivered > out for delivery > shipped > confirmed", () => {
  const phase = (subject: string, html = "") =>
    readPhase(statusScope(subject, htmlToBlocks(html).blocks));
  equal(phase("Order #1 confirmed"), "confirmed");
  equal(phase("Your order is on the way"), "shipped");
  equal(phase("Out for delivery: your parcel"), "out_for_delivery");
  equal(phase("Your order was delivered"), "delivered");
  equal(phase("Order shipped", "<h1>Your order has been canceled</h1>"), "canceled");
  equal(phase("Deine Bestellung ist unterwegs"), "shipped");
  equal(phase("Votre colis a été expédié"), "shipped");
  equal(phase("Tu pedido ha sido enviado"), "shipped");
  equal(phase("Stornierung deiner Bestellung"), "canceled");
});

Deno.test("a progress bar in the body and future clauses say nothing about the status", async () => {
  const html =
    `<h1>Thanks for your order!</h1><p>We'll email you when your items are on their way.</p>
    <table><tr><td>Ordered</td><td>Shipped</td><td>Out for delivery</td><td>Delivered</td></tr></table>` +
    storeHtml({ orderNumber: "SH-1001", item: "Trail Runner", total: "$50.00" });
  const result = await read("Thanks for your order", html);
  equal(result.reading.kind, "order");
  deepEqual(result.signals, {});
});

Deno.test("a shipping mail with a tracking number and no order number is an order reading", async () => {
  const result = await read(
    "Your order has shipped",
    "<h1>Your order has shipped</h1><p>UPS tracking number: 1Z5R89390357567127</p>",
  );
  equal(result.reading.kind, "order");
  if (result.reading.kind !== "order") return;
  equal(result.reading.fields.orderNumber, undefined);
  equal(result.reading.fields.trackingNumber, "1Z5R89390357567127");
  equal(result.reading.fields.carrier, "ups");
  deepEqual(result.signals, { shipped: true });
});

Deno.test("an order number alone, with no item, money or tracking, is not enough", async () => {
  const result = await read(
    "Order SH-1001 confirmed",
    "<h1>Order SH-1001 confirmed</h1><p>See you soon.</p>",
  );
  equal(result.reading.kind, "unreadable");
});

Deno.test("mails that are never orders are ignored, whatever order data they show", async () => {
  const order = storeHtml({ orderNumber: "SH-1001", item: "Trail Runner", total: "$50.00" });
  const cases: [string, string, string?][] = [
    ["Reset your password", `<h1>Reset your password</h1>${order}`],
    ["Your verification code is 482915", `<p>Use this code to sign in: 482915</p>${order}`],
    ["Welcome to Shop Club!", `<h1>Welcome to Shop Club</h1>${order}`],
    ["You left something behind", `<h1>You left something in your cart</h1>${order}`],
    ["How would you rate your purchase?", `<h1>Rate your recent purchase</h1>${order}`],
    ["Sorry, you were not selected", `<h1>Draw results</h1>${order}`],
    [
      "Refund notification",
      `<h1>Refund notification</h1><p>Your refund of $50.00 has been processed.</p>${order}`,
    ],
    ["New arrivals this week", order, "Shop <news@shop.example>"],
  ];
  for (const [subject, html, from] of cases) {
    const result = await read(subject, html, from);
    equal(result.reading.kind, "ignored", subject);
    deepEqual(result.signals, {}, subject);
  }
});

Deno.test("a cancellation that mentions its refund is a canceled order", async () => {
  const html =
    `<h1>Your order has been canceled</h1><p>Your refund of $50.00 has been processed.</p>` +
    storeHtml({ orderNumber: "SH-1001", item: "Trail Runner" });
  const result = await read("Order SH-1001 has been canceled", html);
  equal(result.reading.kind, "order");
  deepEqual(result.signals, { canceled: true });
});

Deno.test("the tracking number is never the order number, even when it passes a check digit", async () => {
  // 7849072722 passes the DHL Express mod 7 check; the FedEx number is in the carrier link.
  const html = `<h1>Your order has shipped</h1><p>Order Number: 7849072722</p>
    <p>Tracking Number: <a href="https://www.fedex.com/fedextrack/?trknbr=777476073950">777476073950</a></p>` +
    storeHtml({ item: "Vacuum" });
  const result = await read("Your Order Number 7849072722 Has Shipped", html);
  if (result.reading.kind !== "order") throw new Error("not an order");
  equal(result.reading.fields.orderNumber, "7849072722");
  equal(result.reading.fields.trackingNumber, "777476073950");
  equal(result.reading.fields.carrier, "fedex");
  equal(result.reading.fields.trackingUrl, "https://www.fedex.com/fedextrack/?trknbr=777476073950");
});

Deno.test("identity: the Message-ID, else sha256 of the bytes", async () => {
  const raw = mail({ from: SHOP, subject: "x", text: "hello" });
  const a = await readEmail(bytes(raw), { now: NOW });
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes(raw))).toHex();
  equal(a.identity, `sha256:${digest}`);
  // The bytes are hashed where they lie: a view into a larger buffer hashes only its own bytes.
  const inner = bytes(raw);
  const framed = new Uint8Array(inner.byteLength + 8);
  framed.set(inner, 4);
  framed.fill(0x41, 0, 4);
  const view = await readEmail(framed.subarray(4, 4 + inner.byteLength), { now: NOW });
  equal(view.identity, `sha256:${digest}`);
  const b = await readEmail(
    bytes(mail({ from: SHOP, subject: "x", text: "hello", messageId: "<id-1@shop.example>" })),
    { now: NOW },
  );
  equal(b.identity, "<id-1@shop.example>");
});

Deno.test("recommendations after the order are not items", async () => {
  const html = storeHtml({ orderNumber: "SH-1001", item: "Trail Runner", total: "$50.00" }) +
    `<h2>You may also like</h2><table><tr><td><img src="https://cdn.example-shop.com/p/rec.jpg" width="80"></td><td>Socks</td><td>$9.00</td></tr></table>`;
  const result = await read("Thanks for your order", html);
  equal(result.reading.kind === "order" && result.reading.fields.itemSummary, "Trail Runner");
});

Deno.test("a status update that names only the order is an order reading when the number is under its label", async () => {
  const html = "<p>Your package was delivered at 12:01pm.</p><p>Order #2000137-67895124</p>";
  const known = await read(
    "Delivered: Great Value Gummy Shar... and 2 other items",
    html,
    "Walmart.com <help@walmart.com>",
  );
  equal(known.reading.kind, "order");
  deepEqual(known.signals, { delivered: true });
  // Any store's, with the order number under its label (issue 22: its own evidence).
  const unknown = await read("Delivered: Great Value Gummy Shar... and 2 other items", html);
  equal(unknown.reading.kind, "order");
  deepEqual(unknown.signals, { delivered: true });
  // A number only inside a sentence of an unknown store's mail is not enough.
  const weak = await read(
    "Delivered: Great Value Gummy Shar... and 2 other items",
    "<p>Your package for order 2000137-67895124 was delivered at 12:01pm.</p>",
  );
  equal(weak.reading.kind, "unreadable");
});

Deno.test("the store: template, display name without TLD and noise, 'Thanks for shopping at', domain", async () => {
  const html = storeHtml({ orderNumber: "SH-1001", item: "Trail Runner", total: "$50.00" });
  const store = async (from: string, extra = "") => {
    const r = await read("Thanks for your order", html + extra, from);
    return r.reading.kind === "order" ? r.reading.fields.store : r.reading.kind;
  };
  equal(await store("Etsy Transactions <transaction@etsy.example>"), "Etsy");
  equal(await store('"Moss.com" <orders@moss.example>'), "Moss");
  equal(
    await store("<orders@lena.example>", "<p>Thanks for shopping at Lena Ceramics.</p>"),
    "Lena Ceramics",
  );
  equal(await store("orders@heatcheck.example"), "Heatcheck");
  equal(await store("Nike <nike@official.nike.com>"), "Nike");
});

Deno.test("a mail without a Date resolves weekdays against the time it is read", async () => {
  const raw = [
    "From: Shop <orders@shop.example>",
    "Subject: Thanks for your order",
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=utf-8",
    "",
    storeHtml({
      orderNumber: "SH-1001",
      item: "Trail Runner",
      total: "$50.00",
      extra: "<p>Arriving Thursday</p>",
    }),
    "",
  ].join("\r\n");
  // NOW is Monday 1 June 2026.
  const result = await readEmail(bytes(raw), { now: NOW });
  equal(result.reading.kind === "order" && result.reading.fields.estimatedDelivery, "2026-06-04");
});
