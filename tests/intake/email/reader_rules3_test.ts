/**
 * General rules of the generic reader learned from a second unseen set of store mails: order
 * references of capital letters only, `Total payé`.
 */
import { equal } from "node:assert/strict";
import {
  acceptLetterReference,
  acceptOrderNumber,
  orderNumberInSentence,
} from "../../../src/intake/email/extract.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { bytes, mail, NOW } from "./mail.ts";

Deno.test("an order reference of capital letters only is taken after a label, never a word", async () => {
  equal(acceptLetterReference(" : QZKVNTBHW passée le 2026-11-06"), "QZKVNTBHW");
  equal(acceptLetterReference(": CONFIRMED"), null);
  equal(acceptLetterReference(": PROCESSING"), null);
  equal(acceptLetterReference(": ABC"), null);
  equal(acceptLetterReference(": Qzkvntbhw"), null);
  const read = await readEmail(
    bytes(mail({
      from: "Comptoir Vert <shop@comptoirvert.example>",
      subject: "Confirmation de commande",
      text: "Commande : QZKVNTBHW\nProduit : Savon noir 500 ml\nPrix unitaire : 9,90 €\n" +
        "Total payé : 15,80 €",
    })),
    { now: NOW },
  );
  equal(read.reading.kind, "order");
  if (read.reading.kind !== "order") return;
  equal(read.reading.fields.orderNumber, "QZKVNTBHW");
  equal(read.reading.fields.total, "15,80 €");
  // A word in capitals after the label is not a reference.
  const word = await readEmail(
    bytes(mail({
      from: "Comptoir Vert <shop@comptoirvert.example>",
      subject: "Votre commande",
      text: "Commande : CONFIRMEE\nProduit : Savon noir 500 ml\nTotal payé : 15,80 €",
    })),
    { now: NOW },
  );
  equal(word.reading.kind === "order" ? word.reading.fields.orderNumber : undefined, undefined);
});

Deno.test("an order number after `n.º`, `n.°` or `nº.`", () => {
  equal(acceptOrderNumber(" n.º 771-0042918-3305"), "771-0042918-3305");
  equal(acceptOrderNumber(" nº. 58213"), "58213");
  equal(orderNumberInSentence("Pedido n.º 771-0042918-3305"), "771-0042918-3305");
  equal(orderNumberInSentence("Commande n.° FR-20931"), "FR-20931");
});
