/**
 * General rules of the email reader learned from a thirteenth set (one round): an inline element
 * styled `display:block` is a line of its own, as a browser shows it (an item's detail lines set
 * as block spans inside the name's cell); a count alone on a line with a times sign (`× 2`) is
 * the item's count; `金額` labels the line's amount, one piece's price only when the line holds
 * one piece; `ausgeliefert` (said of goods a shop sent out as well as of goods handed over) is
 * delivered only when nothing else in the scope says the order was shipped.
 */
import { deepEqual, equal } from "node:assert/strict";
import { htmlToBlocks } from "../../../src/intake/email/html.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { extractFields } from "../../../src/intake/email/extract.ts";
import { readPhase } from "../../../src/intake/email/signals.ts";
import { foldForMatch } from "../../../src/intake/text.ts";

const letterOf = (blocks: ReturnType<typeof textToBlocks>) => ({
  subject: "Order",
  blocks,
  jsonLd: [],
  microdata: [],
});

Deno.test("an inline element styled display:block is a line of its own; an image or inline-block is not", () => {
  const texts = (html: string) => htmlToBlocks(html).blocks.map((b) => b.text);
  deepEqual(
    texts(
      `<table><tr><td><span style="font-weight:600">Fern Moss Throw</span>` +
        `<span style="color:#888;display:block">Colour: Moss</span>` +
        `<span style="display: block;font-size:13px">Qty: 2</span></td></tr></table>`,
    ),
    ["Fern Moss Throw", "Colour: Moss", "Qty: 2"],
  );
  // The split lines keep the cell they stand in.
  const cells = htmlToBlocks(
    `<table><tr><td><b>Name</b><span style="display:block">Size: L</span></td><td>$5.00</td></tr></table>`,
  ).blocks.map((b) => [b.text, b.cell?.col]);
  deepEqual(cells, [["Name", 0], ["Size: L", 0], ["$5.00", 1]]);
  // A picture above the first block-styled line stays with its text (no picture-only block).
  const card = htmlToBlocks(
    `<td><a href="https://shop.example/p/1"><img src="https://shop.example/p/1.jpg" style="display:block">` +
      `<span style="display:block">Linen Tea Towel</span><span style="display:block">From $12.00</span></a></td>`,
  ).blocks.map((b) => [b.text, b.images.length, b.links.length]);
  deepEqual(card, [["Linen Tea Towel", 1, 1], ["From $12.00", 0, 0]]);
  // `display:block` on an image only removes the gap under it; inline-block stays on the line.
  deepEqual(texts(`<p>Order <img src="x.png" style="display:block"> 1001</p>`), [
    "Order 1001",
  ]);
  deepEqual(
    texts(`<p><span style="display:inline-block">Qty</span> <b style="display:inline">2</b></p>`),
    ["Qty 2"],
  );
  // A hidden block-styled span stays hidden.
  deepEqual(texts(`<p>Total<span style="display:none;display:block">x</span> $9.00</p>`), [
    "Total $9.00",
  ]);
});

const itemCell = (lines: string[]) =>
  `<table><tr><td><img src="https://cdn.example-shop.com/p/throw-1.jpg" width="64" alt=""></td>` +
  `<td><span style="font-weight:600">${lines[0]}</span>${
    lines.slice(1).map((l) => `<span style="display:block">${l}</span>`).join("")
  }</td><td><p>€ 39,00</p></td></tr></table>` +
  `<table><tr><td>Total</td><td>€ 39,00</td></tr></table>`;

Deno.test("detail lines set as block spans under the name give quantity and size, not the name", () => {
  const read = extractFields(
    letterOf(
      htmlToBlocks(itemCell(["Plaid en laine Fougère", "Taille : 130 x 170", "Qté : 1"]))
        .blocks,
    ),
    [],
  );
  equal(read.items.length, 1);
  equal(read.items[0].name, "Plaid en laine Fougère");
  equal(read.quantity, 1);
  equal(read.size, "130 x 170");
  equal(read.price?.display, "€ 39,00");
});

Deno.test("a count alone with a times sign under the name and its variant line is the count", () => {
  const read = extractFields(
    letterOf(htmlToBlocks(itemCell(["Wool Field Blanket", "Moss / L", "× 1"])).blocks),
    [],
  );
  equal(read.items[0]?.name, "Wool Field Blanket");
  equal(read.quantity, 1);
  equal(read.size, "L");
  // The count written before the sign.
  const before = extractFields(
    letterOf(htmlToBlocks(itemCell(["Tee-Set Kirschblüte", "Rosa / 0,5 l", "2 ×"])).blocks),
    [],
  );
  equal(before.items[0]?.name, "Tee-Set Kirschblüte");
  equal(before.quantity, 2);
});

Deno.test("金額 labels the line's amount: the unit price of one piece only", () => {
  const order = (count: number) =>
    extractFields(
      letterOf(textToBlocks([
        "[ご注文番号] 2611-30418",
        "[商品名] 南部鉄器 急須 0.6L",
        `[数量] ${count}`,
        `[金額] ${count === 1 ? "8,800円" : "17,600円"}`,
      ].join("\n"))),
      [],
    );
  equal(order(1).price?.display, "8,800円");
  equal(order(1).quantity, 1);
  // For two pieces the amount is the line's, not one piece's: no price rather than a wrong one.
  equal(order(2).quantity, 2);
  equal(order(2).price, undefined);
  // A 単価 label beside it still gives one piece's price.
  const unit = extractFields(
    letterOf(textToBlocks([
      "[ご注文番号] 2611-30419",
      "[商品名] 南部鉄器 急須 0.6L",
      "[単価] 8,800円",
      "[数量] 2",
      "[金額] 17,600円",
    ].join("\n"))),
    [],
  );
  equal(unit.price?.display, "8,800円");
});

Deno.test("a 金額 or Importe column of a two-piece line gives no unit price", () => {
  const html = `<table><tr><th>商品名</th><th>数量</th><th>金額</th></tr>` +
    `<tr><td>有田焼 豆皿 5枚セット</td><td>2</td><td>6,600円</td></tr></table>` +
    `<p>注文番号：KS-20931</p>`;
  const read = extractFields(letterOf(htmlToBlocks(html).blocks), []);
  equal(read.items[0]?.name, "有田焼 豆皿 5枚セット");
  equal(read.quantity, 2);
  equal(read.price, undefined);
  // So does an `Importe` column; for one piece it is the price.
  const importe = (count: number, amount: string) =>
    extractFields(
      letterOf(
        htmlToBlocks(
          `<table><tr><th>Artículo</th><th>Cantidad</th><th>Importe</th></tr>` +
            `<tr><td>Cesta de mimbre natural grande</td><td>${count}</td><td>${amount}</td></tr></table>` +
            `<p>Pedido: ES-88120</p>`,
        ).blocks,
      ),
      [],
    );
  equal(importe(2, "59,80 €").quantity, 2);
  equal(importe(2, "59,80 €").price, undefined);
  equal(importe(1, "29,90 €").price?.display, "29,90 €");
});

Deno.test("ausgeliefert is delivered only when nothing says the order was shipped", () => {
  const phase = (...scope: string[]) => readPhase(scope.map((s) => foldForMatch(s)));
  equal(phase("Ihre Bestellung wurde ausgeliefert"), "delivered");
  equal(phase("Ihr Paket ist auf dem Weg", "Komplett ausgeliefert"), "shipped");
  equal(phase("Bestellung 20419 wurde versendet", "Teilweise ausgeliefert"), "shipped");
  // Zugestellt stays delivered whatever else is said.
  equal(phase("Ihre Bestellung wurde versendet", "Ihr Paket wurde zugestellt"), "delivered");
  // Said of the future, it is nothing yet.
  equal(phase("Ihre Bestellung wird morgen ausgeliefert"), undefined);
});
