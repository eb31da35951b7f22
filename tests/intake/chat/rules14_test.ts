/**
 * Chat rules from the fourteenth set: a label we know, a single chevron or arrow (`›`, `➜`, `▸`)
 * and its value make a pair; a footer's parts may be split by the Japanese middle dot `・` or a
 * full-width bar `｜`, as by a bullet.
 */
import { equal } from "node:assert/strict";
import { readChatPost } from "../../../src/intake/chat/read.ts";
import { readText } from "../../../src/intake/chat/pairs.ts";

const show = (text: string) =>
  readText(text, "description").pairs.map((p) => `${p.kind}=${p.lines.join("")}`).join(", ");

Deno.test("a label we know, a chevron or arrow, and its value make a pair; a name with one does not", () => {
  equal(show("**Shop** › Larkspur Goods"), "store=Larkspur Goods");
  equal(show("**Size** ➜ M"), "size=M");
  equal(show("Price ▸ €42.50"), "price=€42.50");
  const read = readText("Home › Shoes › Runners\n**Qty** › 3", "description");
  equal(read.pairs.map((p) => `${p.kind}=${p.lines.join("")}`).join(", "), "quantity=3");
  equal(read.loose.map((l) => l.line).join(", "), "Home › Shoes › Runners");
});

Deno.test("a checkout post written in `**Label** › value` lines is read whole", () => {
  const read = readChatPost({
    username: "Quill",
    embeds: [{
      title: "Quill | Checkout Secured",
      description: [
        "**Site** › Larkspur Goods",
        "**Item** › Fjord Wool Beanie Charcoal",
        "**Size** › OS",
        "**Price** › $38.00",
        "**Qty** › 2",
        "**Total** › $81.50",
        "**Order** › ||LG-4410297||",
      ].join("\n"),
    }],
  }).reading;
  equal(read.kind, "order");
  if (read.kind !== "order") return;
  equal(read.fields.store, "Larkspur Goods");
  equal(read.fields.itemSummary, "Fjord Wool Beanie Charcoal");
  equal(read.fields.size, "OS");
  equal(read.fields.price, "$38.00");
  equal(read.fields.quantity, 2);
  equal(read.fields.total, "$81.50");
  equal(read.fields.orderNumber, "LG-4410297");
});

const footed = (footer: string) => ({
  username: "Kitsune Bot",
  embeds: [{
    title: "購入成功",
    fields: [
      { name: "商品", value: "Merino Crew Sock Grey", inline: false },
      { name: "金額", value: "¥2,200", inline: true },
      { name: "注文ID", value: "||MR-55012||", inline: true },
    ],
    footer: { text: footer },
  }],
});

Deno.test("a footer split by `・` or `｜` names the shop beside the bot", () => {
  for (const footer of ["MORI SUPPLY ・ Kitsune Bot v2.0.1", "MORI SUPPLY ｜ Kitsune Bot v2.0.1"]) {
    const read = readChatPost(footed(footer)).reading;
    equal(read.kind, "order");
    if (read.kind !== "order") continue;
    equal(read.fields.store, "MORI SUPPLY");
  }
  // A name with a middle dot and no spaces around it is one part: no shop beside the bot.
  const one = readChatPost(footed("ナイキ・ストア Kitsune Bot v2.0.1")).reading;
  if (one.kind === "order") equal(one.fields.store, undefined);
});
