/**
 * A general rule of the email reader learned from a twentieth set: a label in brackets may hold
 * spaces around it (`[ 注文番号 ] 2026…`, `[ Order no. ] A-1`), as plain-text shop systems print
 * their headings; without the rule such a mail made no order at all.
 */
import { equal } from "node:assert/strict";
import { readEmail } from "../../../src/intake/email/read.ts";
import { bytes, mail, NOW } from "./mail.ts";

async function fieldsOf(text: string) {
  const from = "Kosugi Denki <info@kosugi-denki.example>";
  const read =
    (await readEmail(bytes(mail({ from, subject: "ご注文ありがとうございます", text })), {
      now: NOW,
    })).reading;
  equal(read.kind, "order");
  return read.kind === "order" ? read.fields : undefined;
}

Deno.test("a label in brackets with spaces inside them is read like one without", async () => {
  const body = (open: string, close: string) =>
    "以下の内容でご注文を受け付けいたしました。\n\n" +
    `${open}注文番号${close} 20261102-0001234\n${open}注文日時${close} 2026/11/02 10:15\n\n` +
    "◆ご注文商品\n------------------------------\n" +
    "商品名 ：電気ケトル 1.0L ホワイト\n価格　 ：6,980円\n数量　 ：1個\n" +
    "------------------------------\n合計金額　：6,980円\n";
  for (const [open, close] of [["[", "]"], ["[ ", " ]"], ["【 ", " 】"]]) {
    const fields = await fieldsOf(body(open, close));
    equal(fields?.orderNumber, "20261102-0001234", `${open}…${close}`);
    equal(fields?.itemSummary, "電気ケトル 1.0L ホワイト");
    equal(fields?.total, "6,980円");
  }
});
