/**
 * A general rule of the email reader learned from a twenty-second set: the Japanese heading of an
 * order's item list (`ご注文内容`, `ご注文明細`, `ご購入商品`: the order's contents) heads the
 * items and is never the item, also when the name under it opens with a sales tag in brackets.
 */
import { equal } from "node:assert/strict";
import { readEmail } from "../../../src/intake/email/read.ts";
import { bytes, mail, NOW } from "./mail.ts";

async function itemOf(text: string) {
  const from = "Kawabe Zakka <order@kawabe-zakka.example>";
  const read =
    (await readEmail(bytes(mail({ from, subject: "ご注文ありがとうございます", text })), {
      now: NOW,
    })).reading;
  equal(read.kind, "order");
  return read.kind === "order" ? read.fields.itemSummary : undefined;
}

Deno.test("the heading of an order's contents is never the item", async () => {
  const body = (heading: string, name: string) =>
    "下記の内容でご注文を承りました。\n\nご注文番号: KZ-20261120-0078\n\n" +
    `━━━━━━━━━━━━━━━━\n${heading}\n\n${name}\n  数量: 1   単価: 2,750円\n\n` +
    "商品合計: 2,750円\nお支払い合計: 3,300円\n";
  for (const heading of ["ご注文内容", "注文内容", "ご注文明細", "ご購入商品", "ご注文内容一覧"]) {
    for (const name of ["【オンライン限定】帆布トート ベージュ", "帆布トート ベージュ"]) {
      equal(await itemOf(body(heading, name)), name, `${heading} / ${name}`);
    }
  }
});
