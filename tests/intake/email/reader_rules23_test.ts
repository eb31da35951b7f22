/**
 * General rules of the email reader learned from a twenty-third set: a currency code written
 * before a dollar sign (`CAD $304.49`) belongs to the figure; a maker's name in brackets before
 * the product's name opens the name also with a space after the bracket (`＜有田焼＞ 豆皿`); the
 * Japanese order's reception number (`[受付番号]`, `ご注文受付番号`) is its order number; a
 * tracking label hands its number over inside running text: an S10 number right after the label
 * in a sentence (its check digit vouches), and a lone number in the block after a sentence that
 * ends with the label and a colon; a table row of a name and a cell that is only its count
 * (`× 2`) is an item, as a shipping notice lists what the parcel holds without prices.
 */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { findMoney } from "../../../src/intake/money.ts";
import { isBoilerplate } from "../../../src/intake/email/boilerplate.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { bytes, mail, NOW } from "./mail.ts";

async function fieldsOf(text: string, from = "Birchwood Outfitters <orders@birchwood.example>") {
  const read = (await readEmail(bytes(mail({ from, subject: "Your order #BW-55120", text })), {
    now: NOW,
  })).reading;
  equal(read.kind, "order");
  return read.kind === "order" ? read.fields : undefined;
}

Deno.test("a currency code before a dollar sign is part of the figure", async () => {
  const [found] = findMoney("Grand total NZD $1,045.10 incl. GST");
  equal(found.display, "NZD $1,045.10");
  equal(found.currency, "NZD");
  equal(found.cents, 104510);
  // A code before another sign, or a code alone, reads as before.
  equal(findMoney("Total USD 45.00")[0].display, "USD 45.00");
  equal(findMoney("Paid $12.00")[0].display, "$12.00");
  const fields = await fieldsOf(
    "Thanks for your order #BW-55120.\n\nCanvas Trail Pack 30L\nQty: 1\nPrice: $210.00\n\n" +
      "Subtotal $210.00\nShipping FREE\nOrder Total AUD $231.00\n",
  );
  equal(fields?.total, "AUD $231.00");
});

Deno.test("a maker in brackets and a space before the name opens the item's name", async () => {
  const from = "Kobo Hinata <info@kobo-hinata.example>";
  for (const name of ["＜有田焼＞ 染付 豆皿5枚組", "【信楽焼】 土鍋 七号"]) {
    const text = "ご注文ありがとうございます。\n\n■ご注文番号：KH-2026-11552\n\n" +
      `【ご注文商品】\n商品名：${name}\n単価：4,400円（税込）\n数量：2\n\n` +
      "ご請求金額：8,800円\n";
    const fields = (await readEmail(bytes(mail({ from, subject: "ご注文確認", text })), {
      now: NOW,
    })).reading;
    equal(fields.kind, "order");
    if (fields.kind !== "order") continue;
    equal(fields.fields.itemSummary, name.normalize("NFKC"));
    equal(fields.fields.quantity, 2);
    equal(fields.fields.price, "4,400円");
  }
  // A notice's tag in brackets (`【重要】`) opens no name, with or without the space.
  const block = (text: string) => ({
    text,
    tag: "p",
    heading: false,
    links: [],
    images: [],
    quote: 0,
  });
  for (
    const text of [
      "【重要】 年末年始の配送について",
      "【重要】年末年始の配送について",
      "<注意> 配送遅延",
    ]
  ) {
    equal(isBoilerplate(block(text)), true, text);
  }
  equal(isBoilerplate(block("【信楽焼】 土鍋 七号")), false);
  // A bracket holding a field's words stays a label, with or without the space.
  const text = "■ご注文番号：KH-2026-11553\n\n【お届け予定】 12月3日\n" +
    "商品名：染付 豆皿5枚組\n数量：1\n単価：2,200円\n";
  const read = (await readEmail(bytes(mail({ from, subject: "ご注文確認", text })), { now: NOW }))
    .reading;
  equal(read.kind === "order" ? read.fields.itemSummary : undefined, "染付 豆皿5枚組");
});

Deno.test("the reception number of a Japanese order is its order number", async () => {
  const from = "Denki no Hibari <shop@denki-hibari.example>";
  for (const label of ["[受付番号]", "ご注文受付番号：", "受付番号:"]) {
    const text = "ご注文内容を下記の通り確認させていただきます。\n\n" +
      `${label} 20261105-0004471\n[注文日時] 2026年11月5日 09時12分\n\n` +
      "--------------------------------\n[商品名]   電気ケトル 1.0L ホワイト\n[価格]     5,980円\n" +
      "[数量]     1個\n--------------------------------\n[お支払い合計] 5,980円\n";
    const read = (await readEmail(bytes(mail({ from, subject: "ご注文確認メール", text })), {
      now: NOW,
    })).reading;
    equal(read.kind, "order", label);
    if (read.kind !== "order") continue;
    equal(read.fields.orderNumber, "20261105-0004471");
    equal(read.fields.itemSummary, "電気ケトル 1.0L ホワイト");
    equal(read.fields.total, "5,980円");
  }
  // An enquiry's reception number is no order.
  const text = "お問い合わせありがとうございます。\n\nお問い合わせ受付番号：20261105-0000012\n" +
    "担当者より2営業日以内にご連絡いたします。\n";
  const read = (await readEmail(bytes(mail({ from, subject: "お問い合わせ受付", text })), {
    now: NOW,
  })).reading;
  equal(read.kind === "order", false);
});

async function trackingOf(html: string, subject: string) {
  const from = "Atelier Perle <contact@atelier-perle.example>";
  const read = (await readEmail(bytes(mail({ from, subject, html })), { now: NOW })).reading;
  return read.kind === "order" ? read.fields.trackingNumber : undefined;
}

Deno.test("an S10 number right after a tracking label inside a sentence", async () => {
  const body = (n: string) =>
    "<p>Commande KQPWZRTXM - Expédition en cours</p><p>Votre commande portant la référence " +
    "<strong>KQPWZRTXM</strong> a été expédiée. Vous pouvez suivre votre colis avec le numéro " +
    `de suivi <strong>${n}</strong> en cliquant sur le lien de votre espace client.</p>`;
  equal(await trackingOf(body("RR123456785FR"), "Commande KQPWZRTXM expédiée"), "RR123456785FR");
  // A wrong check digit is no S10 number: left blank.
  equal(await trackingOf(body("RR123456784FR"), "Commande KQPWZRTXM expédiée"), undefined);
});

Deno.test("a sentence ending with a tracking label and a colon hands over the next block", async () => {
  const body = (n: string) =>
    "<h2>Je bestelling is verzonden</h2><p>Beste Sanne,</p><p>Je bestelling " +
    "<strong>WK00071123</strong> is vandaag verzonden. Volg je pakket met de volgende " +
    `track &amp; trace code:</p><p><b>${n}</b></p><p>Verwachte bezorgdatum: vrijdag 4 december</p>`;
  const subject = "Je bestelling WK00071123 is verzonden";
  equal(await trackingOf(body("3STBKW7730411"), subject), "3STBKW7730411");
  // A block of words, or of too few digits, is not the number.
  equal(await trackingOf(body("Bekijk de status"), subject), undefined);
  equal(await trackingOf(body("ABCDEF12"), subject), undefined);
});

Deno.test("a row of a name and a count cell is an item of a shipping notice", async () => {
  const from = "Tsubame Kobo <no-reply@tsubame-kobo.example>";
  const html = (rows: string) =>
    "<h1>商品を発送しました</h1><p>ご注文いただいた商品を発送しました。</p>" +
    "<div>注文番号　#50118832</div><div>お問い合わせ番号　412277306618</div>" +
    `<table>${rows}</table><p>このメールは送信専用です。</p>`;
  const read = async (rows: string) => {
    const r =
      (await readEmail(bytes(mail({ from, subject: "商品を発送しました", html: html(rows) })), {
        now: NOW,
      })).reading;
    return r.kind === "order" ? [r.fields.itemSummary, r.fields.quantity] : [];
  };
  eq(await read("<tr><td>鎚目 ぐい呑み 錫</td><td align=right>&times; 2</td></tr>"), [
    "鎚目 ぐい呑み 錫",
    2,
  ]);
  // A row with more cells than the name and its count is not read so.
  eq(
    await read("<tr><td>鎚目 ぐい呑み 錫</td><td>&times; 2</td><td>ギフト包装</td></tr>"),
    ["Order 50118832", undefined],
  );
});
