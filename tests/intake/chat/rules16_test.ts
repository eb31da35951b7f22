/**
 * Chat rule from the sixteenth set: only the bot's part of a footer split into parts
 * (`Shop | Bot v2`) is the bot's name, so a title whose brand opens the shop's part is still the
 * product; a footer that is not split, or names no bot part, stays the bot's words whole.
 */
import { equal } from "node:assert/strict";
import { readChatPost } from "../../../src/intake/chat/read.ts";

const post = (title: string, footer: string) => ({
  username: "Kestrel",
  embeds: [{
    title,
    description: "Checkout successful",
    fields: [
      { name: "Size", value: "EU 44", inline: true },
      { name: "Order", value: "||HLS-40018827||", inline: true },
    ],
    footer: { text: footer },
  }],
});

const item = (title: string, footer: string) => {
  const read = readChatPost(post(title, footer)).reading;
  // A blank item is an order with no product name (its order number makes it a checkout).
  return read.kind === "order" ? read.fields.itemSummary : read.kind;
};

Deno.test("a title whose brand opens the shop's part of a split footer is the product", () => {
  equal(
    item("Hafenlauf Trail Runner 3", "Hafenlauf Sport | Kestrel v2.4"),
    "Hafenlauf Trail Runner 3",
  );
  equal(item("Hafenlauf Trail Runner 3", "Hafenlauf • Kestrel"), "Hafenlauf Trail Runner 3");
});

Deno.test("the bot's own name as title, or a footer with no bot part, is still no product", () => {
  // The bot's part of the footer still names the bot.
  equal(item("Kestrel v2.4", "Hafenlauf Sport | Kestrel v2.4"), "");
  // A footer that is not split is the bot's words whole, as before.
  equal(item("Hafenlauf Trail Runner 3", "Hafenlauf Sport"), "");
});
