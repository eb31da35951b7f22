/**
 * What a line of an order mail is, as the item readers in `items.ts` ask it: a product
 * picture or a logo, an item-table header, an items heading, a totals row, a detail line, a
 * brand line over a name, the value of another field's label, or a line that reads as a
 * product name. Kept apart from the readers of item lists and tables because these are the
 * word lists and line classes all of them share, and they grow with every new shop and language.
 * Pure.
 */
import { moneyValue } from "../money.ts";
import { foldKeepingOffsets, memoByText } from "../text.ts";
import type { Block, Image } from "./html.ts";
import { isLabel, type LabelField } from "./labels.ts";
import { attributeKind, COUNT_LINE, sameRow, unitTimesCount } from "./item_details.ts";
import { isHeaderLine } from "./items_text_table.ts";

/**
 * Words of logo and decoration file names and alt texts. `logo` followed by a garment is a
 * product ("Box Logo Hoodie", "logo-tee"); `icon` counts only as a whole file name or folder.
 */
const NOT_PRODUCT_IMAGE =
  /logo(?![-_ ]?(?:tee|t-?shirt|shirt|hood|cap|hat|crew|sweat|tote|beanie|jacket|pant|short|sock|bag|mug))|wordmark|spacer|(?:^|\/)icons?(?:[/_.-]|$)|[-_]icon\.(?:png|gif|svg)|badge|banner|social|facebook|instagram|twitter|tiktok|youtube|pinterest|app-?store|google-?play|pixel|beacon|open\.gif|divider|arrow|rating|stars?[-_.]|header|footer|signature|avatar|qr-?code|bullseye/i;
/** Keys of attribute lines under a product name (`Size: 10`, `SKU: 123`): such a line is not a name. */
const ATTRIBUTE_KEY =
  /^(?:size|qty|quantity|colou?r|price|unit price|sku|style(?: id| no\.?)?|condition|seller|sold by|status|item(?: #| no\.?)?|art(?:ikel)?-?nr\.?|farbe|grosse|gr\.|menge|anzahl|taille|pointure|coloris|couleur|quantite|prix|talla|cantidad|precio|order\b.*|tracking\b.*|shipping\b.*|delivery\b.*|carrier|total|subtotal|tax|entry\b.*|rate this item|your bid|lowest ask|highest bid|ship to|vendu par|variant|model|width|fit|material|lieferung|versand|livraison|envio|entrega|arrives?\b.*|delivers?\b.*|estimated\b.*|expected\b.*|date|placed\b.*|payment|zahlung|paiement|pago|(?:payment|shipping|delivery) method|zahlungs(?:art|methode|weise)|bezahlart|versandart|lieferart|mode de (?:paiement|livraison)|moyen de paiement|(?:metodo|forma) de (?:pago|envio)|betaal(?:methode|wijze)|verzendmethode|metodo di (?:pagamento|spedizione)|prazo\b.*|frete|(?:forma de )?pagamento|levering|fragt|betaling|leverans|frakt|betalning|toimitus|maksu(?:tapa)?|配送.*|お支払.*|お届け.*|(?:ご)?注文(?:者|日時?)|お名前|(?:ご)?住所|電話番号|メールアドレス|(?:お)?支払(?:い)?方法|請求先|発送日|出荷日|navn|adresse|telefon|e-?mail|nome|endereco|telefone|namn|adress|nimi|osoite|puhelin|nombre|direccion|ilosc|rozmiar|kolor|cena|dostawa|wysylka|platnosc|data)$/;
const ITEM_HEADER_WORDS = String
  .raw`(?:items?|products?|articles?|artikel|article|produit|producto|articulo|beschreibung|description|bezeichnung|designation|descripcion|(?:product|item) (?:name|description)|produktname|nom du produit|nombre del producto|artikelbezeichnung|produtos?|descricao|vare(?:r|navn|beskrivelse)?|produkt(?:er)?|beskrivelse|artigos?|vara|varor|benamning|tuote|tuotteet|商品名?|品名|nazwa produktu|towar|prodotto|articolo|descrizione|omschrijving|artikelnaam|nome (?:del )?(?:prodotto|articolo)|productnaam|nom de l'article|nombre del articulo)`;
/** What holds or what happened to the items, before their word: `Cart Items`, `Shipped Items`. */
const ITEMS_OF = String.raw`(?:(?:cart|basket|bag|order|ordered|shipped|purchased|your) )?`;
/** `Product`, `Cart Items`, or the same label in two languages (`Producto / Product`). */
export const ITEM_HEADERS = new RegExp(
  `^${ITEMS_OF}${ITEM_HEADER_WORDS}(?:\\s*/\\s*${ITEM_HEADER_WORDS})?$`,
);
export const TOTAL_ROW =
  /^(?:sub-?total|total|zwischensumme|gesamt|versand|shipping|delivery|livraison|envio|tax|sales tax|mwst|tva|iva|discount|rabatt|remise|descuento|payment|zahlung|sous-total|frais|gastos|subtotaal|totaal|verzendkosten|subtotale|totale|spese di spedizione|小計|合計|送料|消費税|商品合計|ご請求|お支払|i alt|varer i alt|levering|fragt|forsendelse|frakt|moms|totalt|summa|delsumma|frete|impostos|impuestos|imposte|btw|ust\b|umsatzsteuer|mehrwertsteuer|desconto|yhteensa|valisumma|toimitus|alv|razem|suma|dostawa|wysylka|do zaplaty|lacznie)/;
export const ITEMS_LABEL =
  /^(?:(?:shipped|ordered|purchased|cart|order) items|items? (?:shipped|ordered|in (?:this|your) (?:shipment|order|package|box))|your items?|items?|artikel|deine artikel|ihre artikel|articles?|vos articles|tus articulos|articulos|productos|products?|in (?:this|your) (?:parcel|package|shipment|box)|geliefert werden|in (?:deiner|ihrer) (?:lieferung|sendung)|dans ce colis|en este paquete|in dit pakket|in questo pacco|(?:canceled|cancelled) items?|stornierte[rn]? artikel|articles? annules?|articulos? cancelados?|geannuleerde artikelen|articoli annullati|(?:verzonden |bestelde |je )?artikelen|articoli(?: spediti| ordinati)?|prodotti|itens(?: do pedido| enviados)?|(?:produtos|artigos)(?: enviados)?|sendte varer|skickade artiklar|indhold|(?:dine )?varer|(?:dina )?varor|artiklar|tuotteet|(?:出荷|発送|ご?注文|ご?購入)商品|ご?(?:注文|購入)(?:内容|明細)(?:一覧)?|(?:この)?(?:配送|発送|荷物)に含まれる商品|(?:zamowione |twoje )?produkty)\s*:?$/;

export function isProductImage(image: Image, storeNames: string[]): boolean {
  if (!/^https?:\/\//i.test(image.src) || NOT_PRODUCT_IMAGE.test(image.src)) return false;
  if (image.width !== undefined && image.width < 30) return false;
  if (image.height !== undefined && image.height < 30) return false;
  const alt = image.alt.toLowerCase();
  if (
    alt && (NOT_PRODUCT_IMAGE.test(alt) || storeNames.some((s) => s && alt === s.toLowerCase()))
  ) return false;
  return true;
}

/** Whether a text heads a list of items (`In this parcel`, `Artikel`). */
export const itemsHeading = memoByText((text: string) =>
  ITEMS_LABEL.test(foldKeepingOffsets(text))
);

/** Whether a block reads as a product name (not a label, money, date or a sentence). */
export const nameLike = memoByText(readsAsName);

/** Whether a block may hold an item name: name-like text, not boilerplate. */
export type NameTest = (block: Block) => boolean;

/** Keys that call their value a name, in the reader's languages. */
const NAME_KEY = /(?:^|\s)(?:name|naam|nome|nombre)$|^(?:nom|nombre|nome|name)\b|名$/u;

function readsAsName(text: string): boolean {
  if (text.length < 2 || text.length > 250) return false;
  if (moneyValue(text) || /^[\d\s.,:/-]+$/.test(text)) return false;
  // `/ Product`: the second half of a bilingual label, not a name.
  if (/^[/|·•]/.test(text)) return false;
  // A row of column headers (`Product Quantity Price`) names no product.
  if (isHeaderLine(text)) return false;
  const key = /^([^:]{1,30}):/.exec(text)?.[1];
  if (key && ATTRIBUTE_KEY.test(foldKeepingOffsets(key).trim())) return false;
  // `Shop name: Lindqvist`, `ブランド名:木工舎ひなた`, `商品名:…`: a key that says it is a name is a label.
  if (key && NAME_KEY.test(foldKeepingOffsets(key).trim())) return false;
  // `型番 :OT-001`, `SKU: 123`: an identifier or detail line under a name is not one.
  if (key && attributeKind(foldKeepingOffsets(text))) return false;
  // `カラー:ナチュラル`: a one-word key run into its value (a full-width colon, read as `:`) is a
  // pair, as Japanese mails write them; a title's colon has a space after it.
  if (/^[^\s:]{1,12}:[^\s/]/u.test(text) && !/^https?:/i.test(text)) return false;
  if (/:$/.test(text)) return false;
  if (/[.!?]$/.test(text) && text.split(" ").length > 8) return false;
  return true;
}

/** A word of letters and figures mixed (`WH-1000XM6`, `GR2`), or a part in brackets. */
const MODEL_OR_VARIANT = /(?:^|\s)(?=[\w-]*\p{L})(?=[\w-]*\d)[\p{L}\d][\w-]*|[(（][^()（）]+[)）]/u;
/** One word of katakana (with its long-vowel mark and middle dot). */
const KATAKANA_WORD = /^[\p{Script=Katakana}ー・]{2,16}$/u;
const capitalsOnly = (text: string) => /\p{Lu}.*\p{Lu}/u.test(text) && !/\p{Ll}/u.test(text);
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * A brand or theme line above the product name (`Mercury Row®` over `Ostrander 3 Piece Nesting
 * Tables`): a short line followed by a longer name that is not a detail, a price or a label.
 */
export function isBrandLine(line: Block, next: Block, isName: NameTest): boolean {
  if (words(line.text) > 3 || !next.text || !isName(next)) return false;
  // A model number or a bracketed variant (`Sony WH-1000XM6 (Black)`) names a product, not a
  // maker: the longer line under it is its description.
  if (MODEL_OR_VARIANT.test(line.text) && !capitalsOnly(line.text)) return false;
  // A maker written in katakana alone over a name in Latin letters or figures
  // (`ニューバランス` / `CM996 GR2`): Japanese writes no spaces to count words by.
  if (KATAKANA_WORD.test(line.text) && /[A-Za-z0-9]/.test(next.text)) {
    return !attributeKind(foldKeepingOffsets(next.text)) && !moneyValue(next.text);
  }
  // The next cell of the same row is another column (a size, a price), not the name.
  if (line.cell && next.cell && sameRow(line, next) && line.cell.col !== next.cell.col) {
    return false;
  }
  if (attributeKind(foldKeepingOffsets(next.text)) || moneyValue(next.text)) return false;
  // `Blue Bird / Cloud White / Gum`, `Sage | M`: a variant line under the name.
  if (/\s[/|·]\s/.test(next.text)) return false;
  // A designer's name in capitals over a name in mixed case (`MAISON VERGER` / `Linen Camp Shirt`).
  if (capitalsOnly(line.text) && /\p{Ll}/u.test(next.text)) return true;
  return words(next.text) > words(line.text) + 1;
}

/** A line of an item's details: a labelled detail or identifier, a figure, a price and count. */
export function isDetailLine(b: Block): boolean {
  return attributeKind(foldKeepingOffsets(b.text)) !== undefined || moneyValue(b.text) !== null ||
    COUNT_LINE.test(b.text) || unitTimesCount(b.text) !== null;
}

/** Labels whose value is never an item: payment, shipping method, address, contact. */
const NOT_ITEM_LABEL =
  /\b(?:pay(?:ment|ed)?|paid|zahlung\w*|bezahl\w*|paiement|regle|pago|pagad[oa]|betaling|betaald|pagamento|pagato|method[e]?|metodo|mode|modo|wijze|versand(?:art)?|shipping|spedizione|envio|livraison|verzend\w*|address|adresse|indirizzo|direccion|adres|email|e-mail|phone|telefon\w*|telefono|telephone)\b|支払|住所|配送方法/;

/** Fields whose lone label (`Delivers:`, `Carrier`) holds its value in the next block. */
const VALUE_LABELS: LabelField[] = ["estimatedDelivery", "trackingNumber", "carrier", "total"];

/**
 * Whether block `i` is the value of a lone label of another field just above it
 * (`Delivers:` / `Within 3 to 5 working days`): such a value is never an item's name.
 */
export function valueOfLabel(blocks: Block[], i: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 2); k--) {
    const text = blocks[k].text;
    if (!text) continue;
    if (VALUE_LABELS.some((field) => isLabel(text, field))) return true;
    // A short label of payment, shipping method, address or contact closed by a colon
    // (`Metodo di pagamento:` / `PayPal`).
    return text.length <= 40 && text.endsWith(":") && NOT_ITEM_LABEL.test(foldKeepingOffsets(text));
  }
  return false;
}
