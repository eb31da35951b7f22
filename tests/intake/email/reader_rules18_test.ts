/**
 * General rules of the email reader learned from an eighteenth set: a labelled count in brackets
 * after the item's name (`Name (数量:2)`, `Name (Qty: 3)`) is its quantity and no part of its
 * name; a sender name whose letters, noise word and all, are a label of the sender's own domain
 * is the store's whole name.
 */
import { deepEqual, equal } from "node:assert/strict";
import { readEmail } from "../../../src/intake/email/read.ts";
import { splitLine } from "../../../src/intake/email/item_details.ts";
import { storeFromSender } from "../../../src/intake/email/merge.ts";
import { bytes, mail, NOW } from "./mail.ts";

async function fieldsOf(from: string, subject: string, text: string) {
  const read = (await readEmail(bytes(mail({ from, subject, text })), { now: NOW })).reading;
  equal(read.kind, "order");
  return read.kind === "order" ? read.fields : undefined;
}

Deno.test("a labelled count in brackets after the item's name is its quantity", async () => {
  deepEqual(splitLine("有田焼 マグカップ 300ml 白 (数量:3)"), {
    name: "有田焼 マグカップ 300ml 白",
    details: ["(数量:3)"],
  });
  deepEqual(splitLine("Linen Apron (Qty: 2)"), { name: "Linen Apron", details: ["(Qty: 2)"] });
  // A bracket that holds no labelled count stays part of the name.
  deepEqual(splitLine("Linen Apron (Sage)"), { name: "Linen Apron (Sage)", details: [] });
  const fields = await fieldsOf(
    "Hinode Zakka <shop@hinode-zakka.example>",
    "商品発送のお知らせ",
    "ご注文いただいた商品を発送いたしました。\n\nご注文番号：hz-55012\n\nご注文商品：\n" +
      "  有田焼 マグカップ 300ml 白 (数量:3)\n\nお問い合わせ番号：611402870011\n",
  );
  equal(fields?.quantity, 3);
  equal(fields?.itemSummary?.includes("数量"), false);
});

Deno.test("a sender name its own domain spells, noise word and all, is the whole name", () => {
  equal(
    storeFromSender("Falken-Drogerie Versand", "kunde@falken-drogerie-versand.example"),
    "Falken-Drogerie Versand",
  );
  equal(
    storeFromSender("Harbour Lane Shipping", "hello@mail.harbourlaneshipping.example"),
    "Harbour Lane Shipping",
  );
  // A domain of the store's name alone: the noise word is the sender's, not the store's.
  equal(
    storeFromSender("Falken-Drogerie Versand", "kunde@falken-drogerie.example"),
    "Falken-Drogerie",
  );
  equal(storeFromSender("Kiln Street Orders", "orders@kilnstreet.example"), "Kiln Street");
});
