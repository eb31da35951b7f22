/**
 * Mail in three real layouts from three senders, with values as parameters: a plain-text mail
 * with labels on the value's line, a plain-text mail with each label on the line above its
 * value, and an HTML mail with an item table (values under column headers) and a key/value
 * table. The generic reader misses some of each layout's fields; a correction teaches them.
 */
import { message } from "./helpers.ts";

export interface PlainValues {
  order: string;
  shopOrder: string;
  item: string;
  variant: string;
  total: string;
  each: string;
  courier: string;
  quoted?: string;
}

export const PLAIN_SENDER = "orders@lamps.example";

export function plainMail(v: PlainValues): string {
  return message({
    from: `Lamp Co <${PLAIN_SENDER}>`,
    subject: `Order ${v.order} confirmed`,
    body: [
      "Hello Sam,",
      "thanks for shopping with Lamp Co.",
      `Order number: ${v.order}`,
      `Shop order: ${v.shopOrder}`,
      "Your pick",
      v.item,
      `Variant: ${v.variant}`,
      "Qty: 2",
      `Amount due: ${v.total}`,
      `Items: ${v.each} each`,
      `Courier ref: ${v.courier}`,
      "Arriving: Friday, 13 March",
      "Lamp Co, 1 Light Street",
      ...(v.quoted
        ? [
          "",
          "On Mon, 2 Mar 2026 at 09:00, Sam <sam@example.com> wrote:",
          ...v.quoted.split("\n").map((l) => `> ${l}`),
        ]
        : []),
    ].join("\n"),
  });
}

export const FIRST_PLAIN: PlainValues = {
  order: "LMP-20931",
  shopOrder: "SO/2026/4471",
  item: "Walnut desk lamp",
  variant: "Large",
  total: "EUR 89,00",
  each: "EUR 44,50",
  courier: "JJD0099887766",
};

export const NEXT_PLAIN: PlainValues = {
  order: "LMP-31007",
  shopOrder: "SO/2026/5120",
  item: "Brass floor lamp",
  variant: "Small",
  total: "EUR 120,00",
  each: "EUR 60,00",
  courier: "JJD0011223344",
};

export interface AboveValues {
  order: string;
  item: string;
  seller: string;
  day: string;
  shipment: string;
  charged: string;
}

export const ABOVE_SENDER = "noreply@kettle.example";

export function aboveMail(v: AboveValues): string {
  return message({
    from: `Kettle <${ABOVE_SENDER}>`,
    subject: `Order ${v.order} confirmed`,
    body: [
      "Order confirmation",
      "Purchase ID",
      v.order,
      "What you ordered",
      v.item,
      "Seller",
      v.seller,
      "Delivery window",
      v.day,
      "Shipment code",
      v.shipment,
      "Total charged",
      v.charged,
      "Questions? Reply to this mail.",
    ].join("\n"),
  });
}

export const FIRST_ABOVE: AboveValues = {
  order: "88-1200-77",
  item: "Ceramic pour-over set",
  seller: "Kettle and Co Outlet",
  day: "Thursday, 12 March",
  shipment: "KT88120077DE",
  charged: "$52.00",
};

export const NEXT_ABOVE: AboveValues = {
  order: "88-3411-02",
  item: "Glass milk jug",
  seller: "Brew Corner",
  day: "Monday, 16 March",
  shipment: "KT88341102DE",
  charged: "$18.50",
};

export interface TableValues {
  order: string;
  article: string;
  finish: string;
  pieces: string;
  each: string;
  total: string;
  parcel: string;
}

export const TABLE_SENDER = "hello@tiles.example";

export function tableMail(v: TableValues): string {
  const html = `<html><body><p>Thank you for your order ${v.order}.</p>` +
    `<table><tr><th>Article</th><th>Finish</th><th>Pieces</th><th>Each</th></tr>` +
    `<tr><td>${v.article}</td><td>${v.finish}</td><td>${v.pieces}</td><td>${v.each}</td></tr>` +
    `</table><table><tr><td>Grand total</td><td>${v.total}</td></tr>` +
    `<tr><td>Parcel</td><td>${v.parcel}</td></tr></table><p>Tile Shop</p></body></html>`;
  return [
    `From: Tile Shop <${TABLE_SENDER}>`,
    "To: buyer@example.com",
    `Subject: Your Tile Shop order ${v.order} is confirmed`,
    "Date: Tue, 03 Mar 2026 10:00:00 +0000",
    `Message-ID: <${crypto.randomUUID()}@tiles.example>`,
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=utf-8",
    "",
    html,
    "",
  ].join("\r\n");
}

export const FIRST_TABLE: TableValues = {
  order: "5512",
  article: "Terracotta floor tile",
  finish: "Matte",
  pieces: "12",
  each: "€3.20",
  total: "€38.40",
  parcel: "00340434161234567890",
};

export const NEXT_TABLE: TableValues = {
  order: "5730",
  article: "Slate wall tile",
  finish: "Polished",
  pieces: "30",
  each: "€2.10",
  total: "€63.00",
  parcel: "00340434169876543210",
};
