/**
 * Chat rules from the twelfth set: a header that only names the checkout (`Bot | Checkout`) over an
 * order number under its label and a figure is an order, with a blank item when only a code names
 * the product; `Label · value` and `Label • value` lines are pairs.
 */
import { equal } from "node:assert/strict";
import { readChatPost } from "../../../src/intake/chat/read.ts";
import { readText } from "../../../src/intake/chat/pairs.ts";

const post = (title: string, fields: [string, string][]) => ({
  username: "Wren",
  embeds: [{ title, fields: fields.map(([name, value]) => ({ name, value, inline: true })) }],
});

const CHECKOUT: [string, string][] = [
  ["Store", "Quayside Kicks"],
  ["SKU", "DZ5485-612"],
  ["Size", "US 10"],
  ["Price", "$180.00"],
  ["Order", "||QK-7719204||"],
];

Deno.test("a header naming only the checkout, an order number and a price: an order with a blank item", () => {
  const read = readChatPost(post("Wren | Checkout", CHECKOUT)).reading;
  equal(read.kind, "order");
  if (read.kind !== "order") return;
  equal(read.fields.itemSummary, "");
  equal(read.fields.orderNumber, "QK-7719204");
  equal(read.fields.price, "$180.00");
  equal(read.fields.store, "Quayside Kicks");
});

Deno.test("without its order number or its figure, or with a failure word, it is no order", () => {
  const noOrder = CHECKOUT.filter(([name]) => name !== "Order");
  equal(readChatPost(post("Wren | Checkout", noOrder)).reading.kind, "ignored");
  const noFigure = CHECKOUT.filter(([name]) => name !== "Price");
  equal(readChatPost(post("Wren | Checkout", noFigure)).reading.kind, "ignored");
  equal(readChatPost(post("Wren | Checkout Failed", CHECKOUT)).reading.kind, "ignored");
  // `Order` alone is not the checkout's name.
  equal(readChatPost(post("Wren | Order", CHECKOUT)).reading.kind, "ignored");
});

Deno.test("a label we know, a middle dot or bullet, and its value make a pair; a name with a dot does not", () => {
  const read = readText(
    "**Site** · Porto Kicks\n**Size** • EU 44\nSamba OG · Cloud White",
    "description",
  );
  equal(
    read.pairs.map((p) => `${p.kind}=${p.lines.join("")}`).join(", "),
    "store=Porto Kicks, size=EU 44",
  );
  equal(read.loose.map((l) => l.line).join(", "), "Samba OG · Cloud White");
});
