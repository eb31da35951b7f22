/**
 * General rules of the readers learned from an eighth set (one round): amounts in currencies
 * that had no format (dollars marked by letters before the sign, the rand, the koruna, the
 * forint, the won...), each read only where it cannot be something else; a purchase said to be
 * confirmed (`Votre achat est confirmé`) is ordered; a marketplace item's condition and seller
 * lines are details between its name and its price, never its name; an order's reference named
 * as such in a sentence (`order with the reference PLDWRKTSB`) is its number; tracking labels
 * `お問合せ送り状No` and `Numero di tracciabilità`; a season's or gift tag in brackets
 * (`【冬ギフト】`, `【お歳暮】`) opens a product name, it is no label; a text table's article-number
 * column is read past and its description column is the item's.
 */
import { deepEqual, equal } from "node:assert/strict";
import { findMoney } from "../../../src/intake/money.ts";
import { readPhase } from "../../../src/intake/email/signals.ts";
import { attributeKind } from "../../../src/intake/email/item_details.ts";
import { isBoilerplate } from "../../../src/intake/email/boilerplate.ts";
import { headerColumns } from "../../../src/intake/email/items_text_table.ts";
import { isLabel } from "../../../src/intake/email/labels.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { extractFields } from "../../../src/intake/email/extract.ts";
import { foldForMatch, foldKeepingOffsets } from "../../../src/intake/text.ts";

const read = (text: string) => findMoney(text).map((m) => [m.display, m.cents, m.currency]);

Deno.test("dollars marked by letters before the sign are read whole, with their currency", () => {
  deepEqual(read("Total paid S$69.50"), [["S$69.50", 6950, "SGD"]]);
  deepEqual(read("HK$1,280.00"), [["HK$1,280.00", 128000, "HKD"]]);
  deepEqual(read("Total NZ$ 89.00"), [["NZ$ 89.00", 8900, "NZD"]]);
  deepEqual(read("NT$2,390"), [["NT$2,390", 239000, "TWD"]]);
});

Deno.test("a lone R is the rand only before an amount with cents", () => {
  deepEqual(read("Total: R 1 348,00"), [["R 1 348,00", 134800, "ZAR"]]);
  deepEqual(read("R2,998.00"), [["R2,998.00", 299800, "ZAR"]]);
  deepEqual(read("Size R 10"), []);
  deepEqual(read("Row R 12 seat 4"), []);
  // The real keeps its own sign.
  deepEqual(read("R$ 289,90"), [["R$ 289,90", 28990, "BRL"]]);
});

Deno.test("units written after the figure: koruna, forint (from a hundred up), leu, won", () => {
  deepEqual(read("1 299,00 Kč"), [["1 299,00 Kč", 129900, "CZK"]]);
  deepEqual(read("Összesen: 12 990 Ft"), [["12 990 Ft", 1299000, "HUF"]]);
  deepEqual(read("Garden hose 6 Ft"), []);
  deepEqual(read("249,99 lei"), [["249,99 lei", 24999, "RON"]]);
  deepEqual(read("Price 129,000₩"), [["129,000₩", 12900000, "KRW"]]);
  deepEqual(read("349,90 zł"), [["349,90 zł", 34990, "PLN"]]);
});

Deno.test("signs and letters before the figure: won, rupee, ringgit, baht", () => {
  deepEqual(read("₩129,000"), [["₩129,000", 12900000, "KRW"]]);
  deepEqual(read("Rs. 2,499.00"), [["Rs. 2,499.00", 249900, "INR"]]);
  deepEqual(read("RM 199.00"), [["RM 199.00", 19900, "MYR"]]);
  deepEqual(read("฿1,590"), [["฿1,590", 159000, "THB"]]);
  equal(read("CHF 1'234.56")[0][2], "CHF");
});

const phase = (text: string) => readPhase([foldForMatch(text)]);

Deno.test("a purchase said to be confirmed is ordered, in the subject or a sentence", () => {
  equal(phase("Votre achat FP-448120 est confirmé"), "confirmed");
  equal(phase("Bonne nouvelle : votre achat est bien confirmé !"), "confirmed");
  equal(phase("Il tuo acquisto è stato confermato"), "confirmed");
  equal(phase("Dein Kauf wurde bestätigt"), "confirmed");
  equal(phase("Je aankoop is bevestigd"), "confirmed");
  equal(phase("Achat de cartes cadeaux"), undefined);
});

Deno.test("condition and seller lines stand among an item's details", () => {
  const kind = (line: string) => attributeKind(foldKeepingOffsets(line));
  equal(kind("État : Très bon état"), "neutral");
  equal(kind("Vendu par : lea_garderobe"), "neutral");
  equal(kind("Condition: Used - like new"), "neutral");
  equal(kind("Zustand: gut"), "neutral");
  equal(kind("Taille : M"), "counts");
  equal(kind("Livraison : 3,99 €"), undefined);
});

Deno.test("an order's reference named as such in a sentence is the order number", () => {
  const number = (text: string) => {
    const letter = {
      subject: "Order shipped",
      blocks: textToBlocks(text),
      jsonLd: [],
      microdata: [],
    };
    return extractFields(letter, []).orderNumber;
  };
  equal(number("Your order with the reference PLDWRKTSB has been shipped."), "PLDWRKTSB");
  equal(number("Su pedido con la referencia QWTRZBKLM ha sido enviado."), "QWTRZBKLM");
  equal(number("Votre commande avec la référence FR-20931 a été expédiée."), "FR-20931");
  // A word is never a reference: a sentence naming none gives nothing.
  equal(number("Your order with the reference CONFIRMED has been shipped."), undefined);
});

Deno.test("tracking labels: the Japanese slip number written `No`, the Italian tracciabilità", () => {
  const tracking = (label: string) => isLabel(foldKeepingOffsets(label), "trackingNumber");
  equal(tracking("お問合せ送り状No"), true);
  equal(tracking("お問い合せ送り状No."), true);
  equal(tracking("伝票No"), true);
  equal(tracking("Numero di tracciabilità"), true);
  equal(tracking("Codice di tracciabilità"), true);
  equal(tracking("送り状"), false);
});

Deno.test("a gift or season tag in brackets opens a name; a bracketed label stays a label", () => {
  const boiler = (text: string) => isBoilerplate(textToBlocks(text)[0]);
  equal(boiler("【冬ギフト】銀座の焼き菓子詰合せ"), false);
  equal(boiler("【お歳暮】八女玉露の詰合せ"), false);
  equal(boiler("【ポイント5倍】手ぬぐい三枚組"), false);
  equal(boiler("【ご注文番号】MN2609-00317"), true);
});

Deno.test("a text table's code column is read past; a description column is the item's", () => {
  deepEqual(headerColumns("Pos. Artikel-Nr. Beschreibung Menge Preis Summe"), [
    "code",
    "item",
    "quantity",
    "price",
    "total",
  ]);
  deepEqual(headerColumns("SKU Description Qty Price"), ["code", "item", "quantity", "price"]);
  // A code column stands only first; a line of other words is no header.
  equal(headerColumns("Beschreibung SKU Menge"), null);
  equal(headerColumns("Description of your parcel"), null);
});
