/**
 * What a label in a checkout post means. Labels are matched whole, after normalising: markdown,
 * emoji and invisible characters removed, case and spacing ignored, numbering dropped
 * (`Product (1)`, `Product #2`), a parenthesised part tried on its own (`订单号(order#)`,
 * `Size(s)`) and a `Size/Color` label split into its parts. Private labels are recognised
 * first and never read, however else they could match (`Order Email`, `Profile Name`).
 */
import { cleanText } from "./text.ts";
import { memoByText } from "../text.ts";

/** The order fields a label can give. */
export type FieldKind =
  | "item"
  | "store"
  | "orderNumber"
  | "price"
  | "total"
  | "quantity"
  | "size"
  | "trackingNumber"
  | "trackingUrl"
  | "carrier"
  | "estimatedDelivery";

/**
 * A label's meaning: an order field, a private value, the post's outcome (`Status: Failed`), or
 * a known label that gives nothing.
 */
export type LabelKind = FieldKind | "private" | "other" | "status";

/**
 * Spellings seen in the bots' posts (research: SOURCES.md A.3, intake.md §6), as `keyOf` gives
 * them, then the same labels in German, French, Spanish, Dutch, Italian and Japanese (bots and
 * stores' own notifiers are set to the user's language; research/intake.md §3).
 */
const VOCABULARY: Record<FieldKind, readonly string[]> = {
  item: [
    ...["product", "products", "productname", "producttitle", "item", "items", "itemname"],
    ...["itemtitle", "lineitem", "lineitems", "article", "商品"],
    ...["artikel", "produkt", "produktname", "artikelname", "artikelbezeichnung", "bezeichnung"],
    ...["produit", "nomduproduit", "nomdelarticle", "producto", "artículo", "nombredelproducto"],
    ...["produto", "productnaam", "prodotto", "articolo", "nomeprodotto", "nomedelprodotto"],
    ...["商品名", "製品", "製品名", "アイテム", "品名", "商品名称", "产品"],
    // A cart's field holds its product lines (`Item 1: Name ×1 — $price`).
    ...["cart", "basket", "warenkorb", "panier", "carrito", "winkelwagen", "carrello", "カート"],
    // Danish, Norwegian, Swedish, Finnish, Portuguese.
    ...["vare", "varenavn", "vara", "produktnavn", "tuote", "artigo", "nomedoproduto"],
  ],
  store: [
    ...["store", "storename", "site", "sitename", "website", "retailer", "shop", "shopname"],
    ...["merchant", "srore", "marketplace", "vendor"],
    ...["händler", "webseite", "laden", "onlineshop", "boutique", "magasin", "marchand"],
    ...["tienda", "sitio", "sitioweb", "comercio", "winkel", "webwinkel", "webshop", "negozio"],
    ...[
      "loja",
      "sito",
      "sitoweb",
      "ストア",
      "ショップ",
      "サイト",
      "店舗",
      "店舗名",
      "ショップ名",
      "商店",
    ],
    ...["butik", "butikk", "nettbutik", "nettbutikk", "kauppa", "verkkokauppa"],
  ],
  orderNumber: [
    ...["order", "order#", "ordernumber", "ordernum", "orderno", "ordernr", "orderid"],
    ...["ordercode", "orderref", "orderreference", "ordernumver", "confirmation"],
    ...["confirmation#", "confirmationnumber", "confirmationno", "confirmationcode", "conf#"],
    ...["订单号", "订单编号"],
    ...["bestellnummer", "bestellung", "bestellnr", "bestellung#", "auftragsnummer"],
    ...["commande", "commande#", "numérodecommande", "ndecommande", "nodecommande", "ncommande"],
    ...["commanden", "numcommande", "pedido", "pedido#", "númerodepedido", "nodepedido"],
    ...["npedido", "numerodepedido", "nrodepedido", "numdepedido", "númerodopedido", "ご注文番号"],
    ...["bestelnummer", "bestelling", "ordernummer", "ordine", "ordine#", "numerodordine"],
    ...["numeroordine", "nordine", "注文番号", "注文id", "オーダー番号", "注文", "受注番号"],
    // A marketplace numbers the purchase as a transaction: `Transaction ID`, `取引ID`.
    ...["transactionid", "取引id", "取引番号"],
    ...[
      "ordre",
      "ordrenummer",
      "ordrenr",
      "bestillingsnummer",
      "beställningsnummer",
      "tilausnumero",
    ],
    ...["encomenda", "númerodaencomenda", "numerodaencomenda", "orden", "númerodeorden"],
    ...["numerodeorden", "ordennúmero", "númerodecompra", "numerodecompra"],
  ],
  price: [
    ...["price", "amount", "cost", "itemprice", "productprice", "unitprice", "priceeach"],
    ...["retail", "retailprice", "saleprice", "itemcost", "unitcost", "each"],
    ...["preis", "stückpreis", "einzelpreis", "betrag", "prix", "prixunitaire", "montant"],
    ...["precio", "preciounitario", "importe", "prijs", "stukprijs", "bedrag", "prezzo"],
    ...["preço", "prezzounitario", "importo", "価格", "値段", "単価", "金額", "价格"],
    ...["pris", "stykpris", "styckpris", "hinta", "valor", "preçounitário", "valorunitário"],
  ],
  total: [
    ...["total", "ordertotal", "grandtotal", "carttotal", "totalprice", "totalpaid"],
    ...["totalamount", "checkouttotal", "totalcharged", "amountpaid", "amountcharged"],
    ...["totalcost", "ordervalue", "paid", "charged"],
    ...["gesamt", "gesamtsumme", "gesamtbetrag", "gesamtpreis", "summe", "montanttotal"],
    ...[
      "prixtotal",
      "totalpayé",
      "endbetrag",
      "totalttc",
      "importetotal",
      "totalapagar",
      "totaal",
      "totaalbedrag",
      "totale",
    ],
    ...["totaleordine", "importototale", "合計", "合計金額", "総額", "お支払い金額", "总计"],
    ...["totalt", "ialt", "summa", "yhteensä", "valortotal", "totaldopedido", "atbetale"],
  ],
  quantity: [
    ...[
      "qty",
      "quantity",
      "quantities",
      "units",
      "count",
      "pcs",
      "pieces",
      "menge",
      "anzahl",
      "stückzahl",
      "quantité",
    ],
    ...["qté", "cantidad", "cant", "aantal", "quantità", "qtà", "quantidade", "数量", "個数"],
    ...["antal", "antall", "määrä", "qtd", "qtde"],
  ],
  size: [
    ...[
      "size",
      "sz",
      "shoesize",
      "sizeus",
      "sizeuk",
      "sizeeu",
      "ussize",
      "uksize",
      "eusize",
      "尺码",
      "größe",
      "grösse",
      "groesse",
      "gr",
      "taille",
      "pointure",
    ],
    ...["talla", "maat", "taglia", "misura", "tamanho", "サイズ"],
    ...["størrelse", "storlek", "koko"],
  ],
  trackingNumber: [
    ...["tracking", "trackingnumber", "tracking#", "trackingno", "trackingid", "trackingcode"],
    ...["sendungsnummer", "trackingnummer", "sendungsverfolgungsnummer", "numérodesuivi"],
    ...["ndesuivi", "númerodeseguimiento", "codigodeseguimiento", "códigodeseguimiento"],
    ...["trackandtrace", "tracktrace", "numeroditracciamento", "codiceditracciamento", "追跡番号"],
    ...["お問い合わせ番号", "伝票番号", "送り状番号", "お問い合わせ伝票番号"],
    ...["sporingsnummer", "spårningsnummer", "seurantakoodi", "códigoderastreio", "rastreio"],
    ...["códigoderastreamento", "codigoderastreio", "guía", "guíaderastreo", "númeroderastreo"],
  ],
  trackingUrl: ["trackingurl", "trackinglink", "trackingpage"],
  carrier: [
    ...["carrier", "courier", "shippingcarrier", "versanddienstleister", "paketdienst"],
    ...["transporteur", "transportista", "vervoerder", "corriere", "配送業者", "運送会社"],
    ...["transportadora", "fragtfirma", "paquetería", "transportør", "配送会社"],
  ],
  estimatedDelivery: [
    ...["estimateddelivery", "eta", "deliverydate", "estimatedarrival", "arrives"],
    ...["forventetlevering", "leveringsdato", "beräknadleverans", "previsãodeentrega"],
    ...["fechaestimadadeentrega", "お届け予定日", "配達予定日"],
  ],
};

/** Labels bots print that give no order field (known, so a `Label` line is not a value). */
const OTHER = [
  // Product codes and regions: never an item name nor a store.
  ...["artikelnummer", "artnr", "référence", "réf", "ref", "referencia", "codiceprodotto"],
  ...["codicearticolo", "品番", "商品コード", "型番", "region", "land", "pays", "país", "paese"],
  ...["farbe", "couleur", "kleur", "colore", "カラー", "色", "stil"],
  // Product and variant ids, and other facts bots print beside the product.
  ...["productid", "productcode", "itemid", "item#", "itemnumber", "variantid", "styleid"],
  ...["gender", "coupon", "discountcode", "promocode", "duration", "elapsed", "timetaken"],
  // Section headings.
  ...["details", "info", "information", "summary", "overview", "orderdetails", "orderinfo"],
  ...["ordersummary", "checkoutdetails", "checkoutinfo", "itemdetails", "productdetails"],
  // Sums and costs that are not the total.
  ...["zwischensumme", "soustotal", "versand", "versandkosten", "livraison", "envío", "envio"],
  ...["verzending", "verzendkosten", "spedizione", "subtotale", "小計", "送料", "税", "mwst"],
  "sku",
  "pid",
  "style",
  "stylecode",
  "color",
  "colour",
  "colorway",
  "category",
  "variant",
  "checkoutspeed",
  "speed",
  "fraudstatus",
  "link",
  "links",
  "query",
  "keywords",
  "date",
  "time",
  "timestamp",
  "datetime",
  "shipping",
  "shippingmethod",
  "delivery",
  "fulfillmenttype",
  "fulfillment",
  "orderlink",
  "orderurl",
  "ordertrackurl",
  "orderstatus",
  "orderdate",
  "subtotal",
  "tax",
  "taxes",
  "discount",
  "fees",
  "version",
  "appversion",
  "ispreorder",
  "preorder",
  "buynowatc",
  "stock",
  "sizes",
  "reason",
  "atc",
  "retries",
  "attempts",
  "checkouttime",
  "note",
  "notes",
];

/** Words that make a label private: whose values never become order fields nor logs. */
const PRIVATE =
  /e-?mail|proxy|proxies|profile|payment|\bcard\b|\bcc\b|account|\bacct|\bacc\b|password|passwd|login|webhook|\bip\b|customer|buyer|recipient|address|phone|billing|cvv|discord|\buser|\btask|\bmode\b|模式|delay|module|share|captcha|3d ?secure|\bkonto|profil|perfil|zahlung|paiement|\bpago|betaling|pagamento|\bkunde|\bclient|\bklant|adresse|direcci|indirizzo|\badres\b|telef|téléphone|teléfono|\bkarte|tarjeta|\bcarte\b|\bkaart|\bcarta\b|passwort|mot de passe|contraseña|wachtwoord|メール|アカウント|プロフィール|支払|住所|電話|カード|顧客|邮箱|账号/;

/** Labels whose value states the post's outcome (`Status: Failed`), judged like a header. */
const STATUS = ["status", "result", "outcome", "checkoutstatus", "taskstatus", "ergebnis"];
const STATUS_MORE = ["résultat", "resultado", "risultato", "stato", "estado", "ステータス", "結果"];

const KIND_BY_KEY = new Map<string, LabelKind>([
  ...Object.entries(VOCABULARY).flatMap(([kind, keys]) =>
    keys.map((key) => [key, kind as FieldKind] as const)
  ),
  ...OTHER.map((key) => [key, "other" as const] as const),
  ...[...STATUS, ...STATUS_MORE].map((key) => [key, "status" as const] as const),
]);

/** A label reduced to letters, digits and `#`, lower-cased. */
function keyOf(s: string): string {
  return s.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}#]+/gu, "");
}

/** Which part of a split label (`Size/Color`) matched, for picking the same part of the value. */
export interface LabelPart {
  index: number;
  count: number;
}

export interface LabelMeaning {
  kind: LabelKind;
  part?: LabelPart;
  /** The other parts of a split label that give a field (`Size / Price`: the price). */
  more?: readonly LabelMeaning[];
}

/**
 * What a label means, or null for a label we do not know. Labels repeat from post to post
 * (`Store`, `Product`...): their meanings are remembered.
 */
export const labelMeaning: (raw: string) => Readonly<LabelMeaning> | null = memoByText(
  (raw) => {
    const meaning = readLabel(raw);
    return meaning && Object.freeze(meaning);
  },
  5000,
);

function readLabel(raw: string): LabelMeaning | null {
  const text = cleanText(raw).normalize("NFKC").toLowerCase()
    .replace(/\s*\(\s*\d+\s*\)/g, " ") // Product (1)
    .replace(/#\s*\d+\b/g, " ") // Product #2
    .replace(/(^|\s)\d+(?=\s|$)/g, " ") // Product 1 Name
    .replace(/(?<=[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])\d{1,3}$/u, "") // 商品1: no space in Japanese
    .replace(/\s*:+\s*$/, "")
    .trim();
  if (text === "") return null;
  if (PRIVATE.test(text)) return { kind: "private" };
  const outside = text.replace(/\([^()]*\)/g, " ");
  const inside = [...text.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]);
  // A field kind in any variant beats a known label that gives nothing (`Size(s)` is a size).
  const kinds = [outside, text, ...inside].map((v) => KIND_BY_KEY.get(keyOf(v)));
  const kind = kinds.find((k) => k !== undefined && k !== "other" && k !== "status") ??
    kinds.find(Boolean);
  if (kind) return { kind };
  const parts = outside.split("/");
  if (parts.length < 2) return null;
  const found: LabelMeaning[] = [];
  for (const [index, part] of parts.entries()) {
    const kind = KIND_BY_KEY.get(keyOf(part));
    if (kind && kind !== "other" && kind !== "status") {
      found.push({ kind, part: { index, count: parts.length } });
    }
  }
  const [first, ...more] = found;
  return first ? { ...first, ...(more.length > 0 ? { more } : {}) } : null;
}
