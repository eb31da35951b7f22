/**
 * General rules of the readers learned from a sixth unseen set (Japanese, Brazilian Portuguese,
 * Danish, Latin American Spanish mail): status wording and label vocabularies in those
 * languages, `注文 #1043`, `R$ 289,90` and `599,00 kr.`, Danish and Portuguese dates, and no
 * carrier guessed from a number's shape when the mail names only carriers we do not look up.
 */
import { equal } from "node:assert/strict";
import { readPhase, statusScope } from "../../../src/intake/email/signals.ts";
import { foldForMatch } from "../../../src/intake/text.ts";
import { findMoney } from "../../../src/intake/money.ts";
import { isLabel, labelledValues } from "../../../src/intake/email/labels.ts";
import { extractFields } from "../../../src/intake/email/extract.ts";
import {
  acceptOrderNumber,
  orderNumberInSentence,
} from "../../../src/intake/email/order_number.ts";
import { parseDay } from "../../../src/intake/email/dates.ts";
import { namesOtherCarrier } from "../../../src/intake/email/tracking.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { isBoilerplate } from "../../../src/intake/email/boilerplate.ts";
import { TIMES_SUFFIX, unitTimesCount } from "../../../src/intake/email/item_details.ts";
import {
  carrierUnderLabel,
  namesOnlyOtherCarriers,
} from "../../../src/intake/email/carrier_names.ts";
import { unwrapForward } from "../../../src/intake/email/forward.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { bytes, mail, NOW } from "./mail.ts";

const phase = (text: string) => readPhase([foldForMatch(text)]);

Deno.test("status wording in Japanese, Portuguese, Danish and marketplace Spanish", () => {
  equal(phase("注文 #2817 が確定されました"), "confirmed");
  equal(phase("【山小屋商店】ご注文確認メール"), "confirmed");
  equal(phase("ご注文の商品の発送準備をしています。"), "confirmed");
  equal(phase("ご注文の商品が発送されました"), "shipped");
  equal(phase("ご注文の商品が配送中です。"), "shipped");
  equal(phase("商品発送のご連絡"), "shipped");
  equal(phase("ご注文いただきました商品を本日出荷いたしました。"), "shipped");
  equal(phase("ご注文の商品が配達されました"), "delivered");
  // `発送されましたら` is "once it has shipped": no shipment yet.
  equal(phase("発送されましたら、お知らせいたします。"), undefined);
  equal(phase("Recebemos seu pedido 88120-02"), "confirmed");
  equal(phase("Pedido #2214 recebido"), "confirmed");
  equal(phase("Seu pedido está a caminho!"), "shipped");
  equal(phase("Seu pedido foi entregue"), "delivered");
  equal(phase("Compraste Cafetera Italiana"), "confirmed");
  equal(phase("Ordrebekræftelse – ordre nr. 5518"), "confirmed");
  equal(phase("Din ordre nr. 5518 er afsendt"), "shipped");
  equal(phase("Din pakke er leveret"), "delivered");
});

Deno.test("a future clause in Danish or Portuguese says nothing of now", () => {
  const scope = statusScope(
    "Tak",
    textToBlocks("Du får en mail, så snart pakken er sendt af os i dag."),
  );
  equal(readPhase(scope), undefined);
  const pt = statusScope(
    "Olá",
    textToBlocks("Assim que o seu pedido for enviado pelos Correios, avisaremos."),
  );
  equal(readPhase(pt), undefined);
});

Deno.test("a Japanese first sentence is read for status (no spaces between words)", () => {
  const scope = statusScope(
    "【店】ご連絡",
    textToBlocks("山田 様\nご注文の商品を本日発送いたしました。よろしくお願いします。"),
  );
  equal(readPhase(scope), "shipped");
});

Deno.test("order numbers: `注文 #1043`, `Compra #…`, Danish `Ordrenummer` and `ordre nr.`", () => {
  const value = (text: string) =>
    labelledValues(textToBlocks(text), "orderNumber", acceptOrderNumber)[0]?.value;
  equal(value("注文 #1043"), "1043");
  equal(value("Compra #2000001234"), "2000001234");
  equal(value("Ordrenummer: 10392"), "10392");
  // `注文` alone is no label: `注文を表示する` is a button.
  equal(isLabel("注文", "orderNumber"), false);
  equal(value("注文日時 2026年11月10日"), undefined);
  equal(orderNumberInSentence("Din ordre nr. 10392 er afsendt"), "10392");
  equal(orderNumberInSentence("Gracias por tu compra, Ana"), null);
});

Deno.test("amounts in reais, Danish kroner with a dot, and a code after the symbol", () => {
  equal(findMoney("R$ 1.289,90")[0].display, "R$ 1.289,90");
  equal(findMoney("R$ 1.289,90")[0].cents, 128990);
  equal(findMoney("R$ 1.289,90")[0].currency, "BRL");
  equal(findMoney("599,00 kr.")[0].display, "599,00 kr.");
  equal(findMoney("54,90 € EUR")[0].display, "54,90 € EUR");
  equal(findMoney("54,90 € EUR")[0].currency, "EUR");
});

Deno.test("label vocabularies in Portuguese and Danish", () => {
  equal(isLabel("Quantidade", "quantity"), true);
  equal(isLabel("Antal", "quantity"), true);
  equal(isLabel("Pris", "price"), true);
  equal(isLabel("Código de rastreio", "trackingNumber"), true);
  equal(isLabel("Sporingsnummer", "trackingNumber"), true);
  equal(isLabel("Previsão de entrega", "estimatedDelivery"), true);
  equal(isLabel("Forventet levering", "estimatedDelivery"), true);
  equal(isLabel("Transportadora", "carrier"), true);
  for (const size of ["Storlek", "Størrelse", "Tamanho", "Koko"]) {
    equal(isLabel(size, "size"), true);
  }
  equal(isLabel("お問い合わせ送り状番号", "trackingNumber"), true);
  equal(isLabel("日本郵便の追跡番号", "trackingNumber"), true);
});

Deno.test("Danish and Portuguese dates", () => {
  const anchor = { year: 2026, month: 11, day: 4 };
  equal(
    JSON.stringify(parseDay("fredag den 6. november", { anchor })),
    JSON.stringify({ year: 2026, month: 11, day: 6 }),
  );
  equal(
    JSON.stringify(parseDay("12 de dezembro de 2026")),
    JSON.stringify({ year: 2026, month: 12, day: 12 }),
  );
  equal(JSON.stringify(parseDay("2. maj 2027")), JSON.stringify({ year: 2027, month: 5, day: 2 }));
});

Deno.test("a carrier we do not look up, named in the mail or its label, leaves the carrier blank", () => {
  equal(namesOtherCarrier("日本郵便の追跡番号"), true);
  equal(namesOtherCarrier("DHLの追跡番号"), false);
  equal(namesOnlyOtherCarriers(textToBlocks("配送会社\n佐川急便")), true);
  equal(namesOnlyOtherCarriers(textToBlocks("Sendt med GLS")), true);
  equal(namesOnlyOtherCarriers(textToBlocks("Shipped with GLS\nor FedEx")), false);
  equal(namesOnlyOtherCarriers(textToBlocks("Your parcel is on its way")), false);
});

Deno.test("a product tag in brackets opens a name; a bracketed label and a marked heading do not", () => {
  const block = (text: string) => ({
    text,
    tag: "td",
    heading: false,
    links: [],
    images: [],
    quote: 0,
  });
  equal(isBoilerplate(block("【予約】星空の魔法使い 1/7 スケール")), false);
  equal(isBoilerplate(block("【ご注文日】 2026年8月15日")), true);
  equal(isBoilerplate(block("◆ご注文商品")), true);
  equal(isBoilerplate(block("■ Order details")), true);
});

Deno.test("a count after a line's one figure, and after the name in brackets", () => {
  const sum = unitTimesCount("単価:￥6,380(税込) × 1個");
  equal(sum?.unit.display, "￥6,380");
  equal(sum?.count, 1);
  equal(unitTimesCount("$45.00 x 2")?.count, 2);
  equal(unitTimesCount("Capsules x 100"), null);
  equal(TIMES_SUFFIX.exec("Bolsa Tote — Areia (x1)")?.[1], "1");
});

Deno.test("a total with a tax note in brackets; a Carrier label naming one of ours", () => {
  const blocks = textToBlocks("Total:\n79,95 € (incluye 13,88 € IVA)");
  equal(
    extractFields({ subject: "", blocks, jsonLd: [], microdata: [] }, []).total?.display,
    "79,95 €",
  );
  equal(carrierUnderLabel(textToBlocks("Carrier\nUSPS")), "usps");
  equal(carrierUnderLabel(textToBlocks("Transportista: DHL Express")), "dhl-express");
  equal(carrierUnderLabel(textToBlocks("Carrier\nEvri")), undefined);
});

Deno.test("forward headers in Japanese, Portuguese and Danish", () => {
  const letter = (text: string) => ({
    subject: "Fwd: x",
    from: { name: "Me", address: "me@example.net" },
    blocks: textToBlocks(text),
    jsonLd: [],
    microdata: [],
  });
  const ja = unwrapForward(
    letter(
      "転送されたメッセージ:\n差出人: 木漆工房 <shop@mokushitsu.example>\n件名: ご注文\n日付: 2026年11月10日\n宛先: me@example.net\n本文",
    ),
  );
  equal(ja.letter.from?.address, "shop@mokushitsu.example");
  const pt = unwrapForward(
    letter(
      "---------- Mensagem encaminhada ---------\nDe: Loja <loja@example.com>\nData: 7 de nov.\nAssunto: Pedido\nPara: me@example.net\ncorpo",
    ),
  );
  equal(pt.letter.from?.address, "loja@example.com");
  const da = unwrapForward(
    letter(
      "Start på videresendt besked:\nFra: Butik <ordre@butik.example>\nEmne: Ordre\nDato: 24. nov. 2026\nTil: me@example.net\ntekst",
    ),
  );
  equal(da.letter.from?.address, "ordre@butik.example");
});

Deno.test("a forward whose header block is not found never names the forwarding person as the store", async () => {
  const forward = (closing: string) =>
    readEmail(
      bytes(mail({
        from: "Ana Lima <ana.lima@example.net>",
        subject: "Fwd: Your order #4412",
        text: [
          "Thank you, your order is confirmed and paid.",
          "Order number: 4412",
          "Trail Mug 350 ml x 1",
          "$18.00",
          "Total: $23.50",
          closing,
        ].join("\r\n"),
      })),
      { now: NOW },
    );
  const named = await forward("Thanks for shopping at Lakeside Goods.");
  equal(named.reading.kind, "order");
  if (named.reading.kind === "order") equal(named.reading.fields.store, "Lakeside Goods");
  const unnamed = await forward("See you soon.");
  equal(unnamed.reading.kind, "order");
  if (unnamed.reading.kind === "order") equal(unnamed.reading.fields.store, undefined);
});

Deno.test("Swedish, Norwegian, Finnish, Mexican and Portuguese (Portugal) vocabulary", () => {
  equal(phase("Tack för din beställning!"), "confirmed");
  equal(phase("Din order 60418 har skickats"), "shipped");
  equal(phase("Din order har levererats"), "delivered");
  equal(phase("Kiitos tilauksestasi!"), "confirmed");
  equal(phase("Tu orden #MX-8841 fue enviada"), "shipped");
  equal(phase("Gracias por tu orden"), "confirmed");
  equal(phase("A sua encomenda n.º 10877 foi expedida"), "shipped");
  equal(phase("Obrigado pela sua encomenda"), "confirmed");
  const value = (text: string) =>
    labelledValues(textToBlocks(text), "orderNumber", acceptOrderNumber)[0]?.value;
  equal(value("Orden # MX-8841"), "MX-8841");
  equal(value("N.º de encomenda: 10877"), "10877");
  equal(value("Tilausnumero: 31552"), "31552");
  equal(isLabel("Guía de rastreo", "trackingNumber"), true);
  equal(isLabel("Spårningsnummer", "trackingNumber"), true);
  equal(isLabel("Totalt", "total"), true);
  equal(isLabel("Yhteensä", "total"), true);
  equal(isLabel("Delsumma", "subtotal"), true);
  equal(isLabel("Beräknad leverans", "estimatedDelivery"), true);
  equal(
    JSON.stringify(parseDay("tisdag 10 november", { anchor: { year: 2026, month: 11, day: 5 } })),
    JSON.stringify({ year: 2026, month: 11, day: 10 }),
  );
});
