/**
 * General rules of the readers learned from a sixth unseen set (Japanese, Brazilian Portuguese,
 * Danish, Latin American Spanish mail): status wording and label vocabularies in those
 * languages, `注文 #1043`, `R$ 289,90` and `599,00 kr.`, Danish and Portuguese dates, and no
 * carrier guessed from a number's shape when the mail names only carriers we do not look up.
 */
import { equal } from "node:assert/strict";
import { nonOrderWording, readPhase, statusScope } from "../../../src/intake/email/signals.ts";
import { foldForMatch } from "../../../src/intake/text.ts";
import { findMoney } from "../../../src/intake/money.ts";
import { isLabel, labelledValues } from "../../../src/intake/email/labels.ts";
import {
  acceptLetterReference,
  acceptOrderNumber,
  extractFields,
  orderNumberInSentence,
} from "../../../src/intake/email/extract.ts";
import { parseDay } from "../../../src/intake/email/dates.ts";
import { namesOtherCarrier } from "../../../src/intake/email/tracking.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { isBoilerplate } from "../../../src/intake/email/boilerplate.ts";
import {
  COUNT_LINE,
  TIMES_SUFFIX,
  unitTimesCount,
} from "../../../src/intake/email/item_details.ts";
import {
  carrierUnderLabel,
  namesOnlyOtherCarriers,
} from "../../../src/intake/email/carrier_names.ts";
import { unwrapForward } from "../../../src/intake/email/forward.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { readChatPost } from "../../../src/intake/chat/read.ts";
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

Deno.test("chat labels in Danish, Portuguese and Japanese", () => {
  const post = (fields: { name: string; value: string }[]) =>
    readChatPost({ username: "Bot", embeds: [{ title: "Checkout Success", fields }] });
  const da = post([
    { name: "Butik", value: "Nordlys Keramik" },
    { name: "Vare", value: "Stentøjskrus 35 cl" },
    { name: "Størrelse", value: "M" },
    { name: "Pris", value: "189,00 kr." },
    { name: "Ordrenummer", value: "5518" },
  ]);
  equal(da.reading.kind, "order");
  if (da.reading.kind === "order") {
    equal(da.reading.fields.itemSummary, "Stentøjskrus 35 cl");
    equal(da.reading.fields.store, "Nordlys Keramik");
    equal(da.reading.fields.orderNumber, "5518");
    equal(da.reading.fields.size, "M");
  }
  const pt = post([
    { name: "Loja", value: "Empório Cacau" },
    { name: "Produto", value: "Caixa de Trufas" },
    { name: "Quantidade", value: "2" },
    { name: "Número da encomenda", value: "10877" },
  ]);
  equal(pt.reading.kind, "order");
  if (pt.reading.kind === "order") {
    equal(pt.reading.fields.orderNumber, "10877");
    equal(pt.reading.fields.quantity, 2);
  }
});

Deno.test("status wording of shop platforms' translated notifications", () => {
  const cases: [string, string][] = [
    ["Ordre #1001 bekræftet", "confirmed"],
    ["Tak for dit køb!", "confirmed"],
    ["Vi gør din ordre klar til afsendelse.", "confirmed"],
    ["Din ordre er blevet sendt", "shipped"],
    ["Order #1001 bekräftad", "confirmed"],
    ["Tack för ditt köp!", "confirmed"],
    ["Takk for kjøpet!", "confirmed"],
    ["Bestillingen din er på vei", "shipped"],
    ["Bestellung #1001 bestätigt", "confirmed"],
    ["Commande #1001 confirmée", "confirmed"],
    ["Ordine #1001 confermato", "confirmed"],
    ["Bestelling #1001 bevestigd", "confirmed"],
    ["Hemos recibido tu pedido", "confirmed"],
    ["Tu pedido ha sido confirmado", "confirmed"],
    ["Tu paquete llegó", "delivered"],
    ["Tilauksesi on toimitettu", "delivered"],
    ["Tilauksesi on toimitettu kuljetukseen", "shipped"],
    ["注文を承りました", "confirmed"],
    ["ご予約ありがとうございます", "confirmed"],
    ["ご購入ありがとうございます", "confirmed"],
  ];
  for (const [text, want] of cases) equal(phase(text), want, text);
});

Deno.test("a Japanese pleasantry is not the sentence that says what happened", () => {
  const scope = statusScope(
    "お荷物のお知らせ",
    textToBlocks(
      "いつも当店をご利用いただきありがとうございます。\nお荷物のお届けが完了しました。",
    ),
  );
  equal(readPhase(scope), "delivered");
});

Deno.test("a Japanese label as a sentence's topic, a total including tax", () => {
  const read = (text: string) =>
    extractFields(
      {
        subject: "",
        date: "Fri, 06 Nov 2026 10:00:00 +0900",
        blocks: textToBlocks(text),
        jsonLd: [],
        microdata: [],
      },
      [],
    );
  equal(read("本日発送いたしました。お届け予定日は11月8日です。").estimatedDelivery, "2026-11-08");
  equal(read("Total inkl. moms: 299,90 kr.").total?.display, "299,90 kr.");
});

Deno.test("non-order wording in Portuguese, the Nordic languages and Japanese", () => {
  const wording = (text: string) => nonOrderWording([foldForMatch(text)]);
  for (
    const text of [
      "Redefinir sua senha",
      "Nulstil din adgangskode",
      "Velkommen til Nordisk Lys",
      "Você esqueceu algo no seu carrinho",
      "Avalie sua compra",
      "Anmeld dine varer",
      "Tillbaka i lager!",
      "パスワード再設定のご案内",
      "【さくら雑貨店】レビューのお願い",
      "再入荷のお知らせ",
    ]
  ) equal(typeof wording(text), "string", text);
  // A product tag or a greeting in an order mail is no such wording.
  equal(wording("【再入荷】ガラス花瓶 ご注文確認"), undefined);
  equal(wording("Hej og velkommen tilbage, tak for din ordre"), undefined);
});

Deno.test("count words, `Orden N°`, inflected Finnish order words, `取引ID`, a carrier named as the sender", () => {
  for (const line of ["1 unidade", "2 stk.", "3 kpl", "1個", "2 点"]) {
    equal(COUNT_LINE.test(line), true, line);
  }
  const value = (text: string) =>
    labelledValues(textToBlocks(text), "orderNumber", acceptOrderNumber)[0]?.value;
  equal(value("Orden N° 123456789"), "123456789");
  equal(value("取引ID:m90817263541"), "m90817263541");
  equal(orderNumberInSentence("Tilauksesi 77120 on lähetetty."), "77120");
  equal(isLabel("Totalt å betale", "total"), true);
  equal(isLabel("Antall", "quantity"), true);
  equal(phase("¡Tu orden está confirmada!"), "confirmed");
  equal(
    namesOnlyOtherCarriers(textToBlocks("Ditt paket är på väg"), "noreply@postnord.example"),
    true,
  );
  // `bring` alone is an English word, not the Norwegian post.
  equal(namesOnlyOtherCarriers(textToBlocks("Bring this receipt to the store")), false);
});

Deno.test("a letters-only order reference in any language, a subject's 注文番号, a delivery-time line", () => {
  const letters = (text: string) =>
    labelledValues(textToBlocks(text), "orderNumber", acceptLetterReference)[0]?.value;
  equal(letters("Referencia del pedido: KXBQWNJRT"), "KXBQWNJRT");
  equal(letters("Référence de la commande : KXBQWNJRT"), "KXBQWNJRT");
  equal(orderNumberInSentence("ご注文の確認 [注文番号:AZ-20261107-0042]"), "AZ-20261107-0042");
  equal(phase("Gracias por comprar en Ferretería Sol."), "confirmed");
  const read = extractFields({
    subject: "",
    blocks: textToBlocks("Prazo de entrega: 5 dias úteis\nTábua de Corte\nQtd: 1"),
    jsonLd: [],
    microdata: [],
  }, []);
  equal(read.itemSummary, "Tábua de Corte");
});

Deno.test("dates written year first, counts with units, 'we have sent your parcel', a counted line under an items label", () => {
  equal(
    JSON.stringify(parseDay("2026/11/19(木)")),
    JSON.stringify({ year: 2026, month: 11, day: 19 }),
  );
  equal(parseDay("2026/11/19〜2026/11/21"), null);
  equal(phase("Vi har sendt din pakke med DAO365."), "shipped");
  equal(phase("Vi har skickat ditt paket."), "shipped");
  equal(phase("Enviamos o seu pedido hoje."), "shipped");
  const read = extractFields({
    subject: "",
    blocks: textToBlocks(
      "Itens do pedido:\n2x Café Especial 250g - R$ 39,90 cada\nTotal: R$ 91,80",
    ),
    jsonLd: [],
    microdata: [],
  }, []);
  equal(read.itemSummary, "Café Especial 250g");
  equal(read.quantity, 2);
  equal(read.price?.display, "R$ 39,90");
});
