/**
 * A general rule of the chat reader learned from a twenty-third set: a card that says nothing
 * of its outcome but gives an order number and a figure under their labels is a checkout, and
 * its plain title is the product; without the figure, or with a word that is not a checkout,
 * it stays ignored (also when only its footer says the checkout failed).
 */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { readChatPost } from "../../../src/intake/chat/read.ts";

const card = (fields: { name: string; value: string }[], title = "Gel-1130 'Silver Pack'") => ({
  username: "Puffin",
  embeds: [{
    title,
    url: "https://www.harbourkicks.example/products/gel-1130",
    fields,
    footer: { text: "Harbour Kicks • Puffin" },
  }],
});

Deno.test("a titled card with an order number and a price under their labels is a checkout", () => {
  const read = readChatPost(card([
    { name: "Size", value: "EU 43" },
    { name: "Price", value: "NZ$189.00" },
    { name: "Order", value: "||HK-40218||" },
    { name: "Speed", value: "3.1s" },
  ]));
  equal(read.reading.kind, "order");
  if (read.reading.kind !== "order") return;
  eq(
    {
      item: read.reading.fields.itemSummary,
      store: read.reading.fields.store,
      order: read.reading.fields.orderNumber,
      price: read.reading.fields.price,
      size: read.reading.fields.size,
    },
    {
      item: "Gel-1130 'Silver Pack'",
      store: "Harbour Kicks",
      order: "HK-40218",
      price: "NZ$189.00",
      size: "EU 43",
    },
  );
});

Deno.test("without the figure, or under a word that is no checkout, the card stays ignored", () => {
  equal(
    readChatPost(card([{ name: "Size", value: "EU 43" }, { name: "Order", value: "HK-40219" }]))
      .reading.kind,
    "ignored",
  );
  const failed = card([{ name: "Price", value: "NZ$189.00" }, {
    name: "Order",
    value: "HK-40221",
  }]);
  failed.embeds[0].footer.text = "Puffin • Checkout failed";
  equal(readChatPost(failed).reading.kind, "ignored");
  for (const title of ["Checkout Failed", "Back in stock"]) {
    equal(
      readChatPost(card([
        { name: "Price", value: "NZ$189.00" },
        { name: "Order", value: "HK-40220" },
      ], title)).reading.kind === "order",
      false,
      title,
    );
  }
});
