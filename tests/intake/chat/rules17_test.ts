/**
 * Chat rules from the seventeenth set: a Japanese numbered label with no space (`商品1`) is a
 * product label like `Item 1`; a size label and its value in brackets closing a cart line's name
 * (`(Maat 44)`, `(Size 10.5)`) give the size and leave the name.
 */
import { equal } from "node:assert/strict";
import { readChatPost } from "../../../src/intake/chat/read.ts";
import { labelMeaning } from "../../../src/intake/chat/vocabulary.ts";
import { readLineItem } from "../../../src/intake/chat/fields.ts";

const field = (name: string, value: string, inline = true) => ({ name, value, inline });

Deno.test("a number glued to a Japanese label numbers it: 商品1 is a product label", () => {
  equal(labelMeaning("商品1")?.kind, "item");
  equal(labelMeaning("商品12")?.kind, "item");
  const read = readChatPost({
    username: "Marten",
    embeds: [{
      title: "購入完了",
      fields: [
        field("ストア", "古書ほたる堂"),
        field("商品1", "文庫 夏の庭 新装版 ×1 — ¥880", false),
        field("商品2", "ブックカバー 帆布 ×2 — ¥1,200", false),
        field("合計", "¥3,280"),
        field("注文番号", "||#HT7731||"),
      ],
    }],
  }).reading;
  equal(read.kind, "order");
  if (read.kind !== "order") return;
  equal(read.fields.itemSummary, "文庫 夏の庭 新装版, ブックカバー 帆布");
  equal(read.fields.price, undefined);
});

Deno.test("a size label and value in brackets closing a cart line give the size", () => {
  const line = readLineItem('Gazelle Bidon "Mist" (Maat 750) ×1 — €12,50', true, true);
  equal(line.name, 'Gazelle Bidon "Mist"');
  equal(line.size, "750");
  equal(readLineItem("Trail Runner (Size: 10.5) ×1 — $120.00", true, true).size, "10.5");
  // A bracket that is no size label stays part of the name.
  const plain = readLineItem("Leuchtmittel E27 (2er Pack) — 12,00 €", true, true);
  equal(plain.name, "Leuchtmittel E27 (2er Pack)");
  equal(plain.size, undefined);
  const read = readChatPost({
    username: "Marten",
    embeds: [{
      title: "Checkout gelukt",
      fields: [
        field("Winkel", "Fietsmaat Utrecht"),
        field("Artikel 1", 'Gazelle Bidon "Mist" (Maat 750) ×1 — €12,50', false),
        field("Bestelling", "||#FM-2210||"),
      ],
    }],
  }).reading;
  equal(read.kind, "order");
  if (read.kind !== "order") return;
  equal(read.fields.size, "750");
  equal(read.fields.itemSummary, 'Gazelle Bidon "Mist"');
});
