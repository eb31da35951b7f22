/**
 * More general rules from the sixth unseen set and the probes written after it: chat labels in the
 * new languages, translated platform wording, Japanese pleasantries and topics, non-order wording,
 * count words, letters-only references, year-first dates, counted lines under an items label.
 */
import { equal } from "node:assert/strict";
import { nonOrderWording, readPhase, statusScope } from "../../../src/intake/email/signals.ts";
import { foldForMatch } from "../../../src/intake/text.ts";
import { isAnyLabel, isLabel, labelledValues } from "../../../src/intake/email/labels.ts";
import { extractFields } from "../../../src/intake/email/extract.ts";
import {
  acceptLetterReference,
  acceptOrderNumber,
  orderNumberInSentence,
} from "../../../src/intake/email/order_number.ts";
import { parseDay } from "../../../src/intake/email/dates.ts";
import { textToBlocks } from "../../../src/intake/email/letter.ts";
import { COUNT_LINE } from "../../../src/intake/email/item_details.ts";
import { namesOnlyOtherCarriers } from "../../../src/intake/email/carrier_names.ts";
import { findTracking } from "../../../src/intake/email/tracking.ts";
import { storeFromSender } from "../../../src/intake/email/merge.ts";
import { readChatPost } from "../../../src/intake/chat/read.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { bytes, mail, NOW } from "./mail.ts";

const phase = (text: string) => readPhase([foldForMatch(text)]);

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

Deno.test("bilingual labels, ready for pickup, a name-and-price row, a figure after the details", () => {
  equal(isLabel("Cantidad / Qty", "quantity"), true);
  equal(isLabel("Número de pedido / Order number:", "orderNumber"), true);
  equal(isLabel("Tracking PIN", "trackingNumber"), true);
  equal(phase("Your order is ready for pickup!"), "confirmed");
  equal(phase("We'll email you when it's ready to ship."), undefined);
  const read = (text: string) =>
    extractFields({ subject: "", blocks: textToBlocks(text), jsonLd: [], microdata: [] }, []);
  const stacked = read("Pour-Over Dripper\nColor: White\nQty: 1\n$42.00\nSubtotal\n$42.00");
  equal(stacked.itemSummary, "Pour-Over Dripper");
  equal(stacked.price?.display, "$42.00");
});

Deno.test("Japanese: an identifier line is no item, 注文ID, ご注文が完了しました", () => {
  const read = extractFields({
    subject: "",
    blocks: textToBlocks("商品名 :タオル\n型番   :OT-001\n単価   :1,650円\n数量   :2個"),
    jsonLd: [],
    microdata: [],
  }, []);
  equal(read.itemSummary, "タオル");
  const value = (text: string) =>
    labelledValues(textToBlocks(text), "orderNumber", acceptOrderNumber)[0]?.value;
  equal(value("注文ID #A8F3K2"), "A8F3K2");
  equal(phase("ご注文が完了しました"), "confirmed");
  equal(phase("お買い物いただきありがとうございます。"), "confirmed");
});

Deno.test("a shop platform's 'completed' and 'received' in Swedish, Norwegian, Danish, Spanish, Portuguese", () => {
  equal(phase("Din beställning är nu slutförd"), "shipped");
  equal(phase("Tu pedido en Tienda Olivo se ha completado"), "shipped");
  equal(phase("O seu pedido foi concluído"), "shipped");
  equal(phase("Din ordre er nu gennemført"), "shipped");
  equal(phase("Din bestilling er mottatt"), "confirmed");
  equal(phase("Din beställning har tagits emot!"), "confirmed");
  equal(phase("Takk for bestillingen!"), "confirmed");
});

Deno.test("checkout headers in Portuguese, Danish, Norwegian, Swedish and Finnish", () => {
  for (
    const header of [
      "Checkout realizado com sucesso!",
      "✅ Køb gennemført",
      "Kjøp fullført",
      "Köp genomfört",
      "Tilaus tehty",
    ]
  ) {
    const read = readChatPost({
      username: "Bot",
      content: `${header}\nButik: Nordlys\nVare: Sko 550\nPris: 1.099,00 kr.\nOrdre: FW-201188`,
    });
    equal(read.reading.kind, "order", header);
  }
  equal(
    readChatPost({ username: "Bot", content: "Butik: Nordlys\nVare: Sko 550" }).reading.kind,
    "ignored",
  );
});

Deno.test("labels in angle brackets, Portuguese, Norwegian and Finnish month names", () => {
  const value = (text: string) =>
    labelledValues(textToBlocks(text), "orderNumber", acceptOrderNumber)[0]?.value;
  equal(value("<ご注文番号> TA-20261116-08"), "TA-20261116-08");
  const anchor = { year: 2026, month: 11, day: 18 };
  const day = (text: string) => JSON.stringify(parseDay(text, { anchor }));
  equal(day("23 de novembro"), JSON.stringify({ year: 2026, month: 11, day: 23 }));
  equal(day("24. desember"), JSON.stringify({ year: 2026, month: 12, day: 24 }));
  equal(day("10. marraskuuta 2026"), JSON.stringify({ year: 2026, month: 11, day: 10 }));
});

Deno.test("the item after a status subject's colon, never a phrase about the order", async () => {
  const summary = async (subject: string) => {
    const read = await readEmail(
      bytes(mail({
        from: "Shop <orders@shop.example>",
        subject,
        text: "Order number: 55120\r\nTracking number: 1Z999AA10123456784",
      })),
      { now: NOW },
    );
    return read.reading.kind === "order" ? read.reading.fields.itemSummary : read.reading.kind;
  };
  equal(await summary("Your order has shipped: Blue Enamel Mug"), "Blue Enamel Mug");
  equal(await summary("Delivered: Your package"), "Order 55120");
  equal(await summary("Shipped: 2 items from your order"), "Order 55120");
});

Deno.test("abandoned-cart wording in Spanish, Portuguese and the Nordic languages", () => {
  const wording = (text: string) => nonOrderWording([foldForMatch(text)]);
  for (
    const text of [
      "¿Olvidaste algo? Completa tu compra",
      "Tus productos siguen en tu carrito",
      "Finalize sua compra com 10% de desconto",
      "Har du glemt noget?",
      "Har du glömt något?",
      "¿Ya recibiste lo que compraste? Califica tu compra",
    ]
  ) equal(typeof wording(text), "string", text);
});

Deno.test("tracking labels carrying their carrier before, after or joined by a dash", () => {
  for (
    const label of [
      "Numéro de suivi Colissimo :",
      "Numero di tracking BRT:",
      "Sporingsnummer for Bring:",
      "Posti-seurantanumero:",
      "Hermes-Sendungsnummer:",
      "ヤマト運輸の伝票番号:",
      "Seguimiento de Estafeta:",
      "Numéro de suivi Postes Canada :",
      "Número de seguimiento de Correos Express:",
    ]
  ) equal(isLabel(label, "trackingNumber"), true, label);
  equal(isAnyLabel(foldForMatch("Posti-seurantanumero")), true);
});

Deno.test("a carrier's own notices in Portuguese, Danish and Japanese", () => {
  const subject = "Objeto OJ443219871BR entregue";
  const found = findTracking(
    textToBlocks("Seu objeto OJ443219871BR foi entregue ao destinatário."),
    undefined,
    subject,
  );
  equal(found.trackingNumber, "OJ443219871BR");
  equal(phase("【日本郵便】お荷物のお届け予定のお知らせ"), "shipped");
});

Deno.test("the orderer's name, address or payment line is never the item", () => {
  const read = (text: string) =>
    extractFields({ subject: "", blocks: textToBlocks(text), jsonLd: [], microdata: [] }, [])
      .itemSummary;
  equal(read("ご注文者 : 岡田 真理\n数量 : 1\n価格 : 5,800円"), undefined);
  equal(read("Adresse : Storgade 5\nAntal: 1\n99,00 kr."), undefined);
});

Deno.test("in transit, posted, handed over and preparing to ship in Portuguese, Spanish, Danish, Japanese", () => {
  equal(phase("Seu pedido está em transporte"), "shipped");
  equal(phase("Tu pedido está en tránsito"), "shipped");
  equal(phase("Seu pedido foi postado"), "shipped");
  equal(phase("Pakken er afleveret"), "delivered");
  equal(phase("出荷準備が整いました"), "confirmed");
});

Deno.test("the shop a mail thanks you for, in Japanese, Portuguese and the Nordic languages", () => {
  const store = (text: string) => storeFromSender(undefined, undefined, textToBlocks(text));
  equal(
    store("このたびは青嵐窯 公式オンラインショップをご利用いただき、誠にありがとうございます。"),
    "青嵐窯 公式オンラインショップ",
  );
  equal(store("いつもさくら雑貨店をご利用いただきありがとうございます。"), "さくら雑貨店");
  equal(store("Tak fordi du handlede hos Nordisk Lys!"), "Nordisk Lys");
  equal(store("Obrigado por comprar na Loja Verde."), "Loja Verde");
  equal(store("Tack för att du handlade hos Skogsglas."), "Skogsglas");
  equal(store("この度はご注文いただき、誠にありがとうございます。"), undefined);
});

Deno.test("sending words need the order or parcel they send; an abbreviation ends no sentence", () => {
  equal(phase("Le enviamos su factura"), undefined);
  equal(phase("Vi har sendt din faktura"), undefined);
  equal(phase("Din faktura er sendt"), undefined);
  equal(phase("Ditt kvitto har skickats"), undefined);
  equal(phase("Kuitti on lähetetty"), undefined);
  equal(phase("Nota fiscal expedida"), undefined);
  equal(phase("Din beställning är skickad"), "shipped");
  equal(phase("Din ordre nr. 7741 er sendt"), "shipped");
  const first = (text: string) => statusScope("x", textToBlocks(text))[1];
  equal(
    first("Din ordre nr. 7741 er nå sendt med Bring. Tak!"),
    "din ordre nr. 7741 er na sendt med bring.",
  );
  equal(
    first("Your Air Fryer 5.2 L has shipped today. Enjoy!"),
    "your air fryer 5.2 l has shipped today.",
  );
});
