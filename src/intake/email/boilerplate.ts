/**
 * Blocks that are never a value (issue 22): the text of a link or button ("View your order",
 * "Track parcel"), a greeting or thank-you line, a `Label: value` line of another field (order
 * number, total, member number...), a date line or a dated event (`Placed Nov 22`), a separator
 * drawn in text (`━━━━`), a legal or marketing line, and a heading that repeats the subject. Checked by class, in every language the labels know, never by sender.
 */
import { foldKeepingOffsets, memoByText } from "../text.ts";
import type { Block } from "./html.ts";
import { isAnyLabel } from "./labels.ts";

/** Imperative words that open a button or link text. */
const ACTION =
  /^(?:view|see|track|manage|edit|change|cancel|return|shop|visit|go to|write|leave|rate|review|download|contact|sign in|log in|open|check|continue|start|discover|explore|browse|reorder|buy again|get (?:the )?app|click|tap|ver|voir|suivre|gerer|modifier|acceder|consulter|ansehen|verfolgen|anzeigen|bestellung ansehen|zur bestellung|sendung verfolgen|bekijk|volg|vedi|traccia|gestisci|visualizza|seguir|rastrear|consultar|gestionar|zobacz|sledz|sprawdz|przejdz)\b/;
/** Greeting, thank-you and sign-off lines. */
const GREETING =
  /^(?:hi|hello|hey|dear|good news|great news|congratulations|congrats|gluckwunsch|herzlichen gluckwunsch|felicitations|enhorabuena|felicidades|complimenti|gefeliciteerd|thank(?:s| you)|hallo|liebe[rs]?|guten tag|danke|vielen dank|bonjour|cher|chere|merci|hola|estimad[oa]|gracias|hoi|beste|beste klant|bedankt|ciao|gentile|grazie|cheers|best regards|kind regards|mit freundlichen grussen|cordialement|saludos|met vriendelijke groet|cordiali saluti|dzien dobry|witaj|czesc|dziekujemy|pozdrawiamy|szanown[ay])\b/;
/** Legal, footer and marketing lines. */
const LEGAL =
  /(?:©|\(c\) ?\d{4}|all rights reserved|unsubscribe|privacy|terms (?:of|and)|registered (?:in|office)|company (?:no|number)|vat (?:no|number|reg)|impressum|datenschutz|abmelden|mentions legales|desinscri|se desabonner|aviso legal|darse de baja|uitschrijven|disiscriv|wypisz sie|polityka prywatnosci|you (?:are )?receiv(?:e|ed|ing) this (?:e-?mail|message)|do not reply|this (?:e-?mail|message) was sent)/;
/** Identifier labels that are not order fields but are never item names either. */
const OTHER_IDS =
  /^(?:(?:member|customer|account|client|membership|loyalty|rewards?|purchase|invoice|rechnung|facture|factura|payment|transaction|item|product|style)\b[^:]{0,20}?(?:#|no\.?|number|nr\.?|id|nummer|numero)|kunden(?:nummer|nr\.?)|mitgliedsnummer|sku|reference|ref)\s*[:#]|^[^\s:]{0,8}(?:番号|コード|品番|型番|id)\s*:/;
/**
 * A product code alone under its key (`SKU 12345`, `Item # 158WH1XM6B`, `Art.-Nr.: 88123`,
 * `Réf. : AB-12`, `EAN: 4012…`, `Codice articolo: X12`): the whole line is the key and one code
 * with a figure, so a name that only starts with such a word (`Model 3 Charger`) is not one.
 */
const CODE_LINE = new RegExp(
  String
    .raw`^(?:sku|ean|gtin|upc|isbn|mpn|jan|item ?#|item (?:no\.?|nr\.?|number|id|code)|style ?#|style (?:no\.?|code|number|id)|modell?o?(?: ?(?:#|no\.?|nr\.?|number|nummer|numero))?|model number|product ?(?:code|id|no\.?|number|#)|artikel ?(?:nummer|nr\.?|code)|art\.? ?-?nr\.?|ref(?:erence|erencia|erenza)?\.?|cod(?:ice|igo)?\.?(?: (?:articolo|prodotto|articulo|producto|article))?|code (?:article|produit)|numero (?:di )?articolo|n[o°º]\.? (?:d'|de )?(?:article|articulo))\s*[:#]?\s*#?\s*[\w./-]*\d[\w./-]*$`,
);
const WEEKDAY =
  /(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|(?:mon|diens|mitt|donners|frei|sams|sonn)tag|mittwoch|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|lunes|martes|miercoles|jueves|viernes|sabado|domingo|lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica|(?:maan|dins|woens|donder|vrij|zater|zon)dag/
    .source;
const MONTH =
  /(?:jan|feb|fev|mar|maa|apr|avr|abr|may|mai|mag|mei|jun|juin|giu|jul|juil|lug|aug|aou|ago|sep|set|oct|okt|ott|nov|dec|dez|dic)[a-z]*/
    .source;
/**
 * A date line: `Order date: …`, or a weekday and a day, with or without a note after a dash
 * (`Wed, Dec 2 2026 - Standard Delivery`, `Mittwoch, 2. Dezember`).
 */
const DATE_LINE = new RegExp(
  String
    .raw`^(?:(?:order|placed|ordered|date|datum|fecha|bestelldatum|date de commande)\b[^:]{0,30}:|(?:${WEEKDAY})\.?,? (?:${MONTH}\.? \d{1,2}\b|\d{1,2}\.? (?:de )?${MONTH})(?:,? \d{4})?(?:$|\s*[-–—|·(]))`,
);

/**
 * `Order #4411`, `Bestellung 1001 · Placed Aug 16`, `Commande n° 61204 du 19/11/2026`: the
 * order-number line, with what it says of the order after the number.
 */
const ORDER_LINE =
  /^(?:your )?(?:order|bestellung|commande|pedido|ordine|bestelling|receipt|transaction|zamowienie)(?: number| no\.?| nr\.?| id| n°)?\s*[#:]?\s*[a-z0-9-]*\d[a-z0-9-]*(?:\s*[·|,(-].*|\s+(?:du|del|de|vom|van|dal|of|from|on|placed|dated)\s.*)?$/;
/** A word of what happened to an order, then a date: `Placed Nov 22, 2026`, `Arriving by Friday`. */
const DATED_EVENT =
  /^(?:placed|ordered|order date|arriving|arrives|arrival|delivered|shipped|dispatched|expected|estimated(?: delivery)?|bestellt|versandt|geliefert|zugestellt|commandee?|expediee?|livree?|enviado|entregado|besteld|verzonden|bezorgd|ordinato|spedito|consegnato)\b.{0,40}?(?:\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d|\b\d{1,2}[./-]\d{1,2}\b|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(?:today|tomorrow)\b)/;
/**
 * An exclamation addressed to the reader (`Your package is on its way!`, `Du hast es geschafft!`):
 * a sentence, never a product's name.
 */
const EXCLAIMED =
  /\b(?:you|your|we|we're|our|du|dein|deine|ihr|ihre|wir|vous|votre|tu|ton|ta|nous|usted|tus?|su|nosotros|je|jouw|uw|wij|voi|il tuo|la tua|noi)\b.*!$/;
/** Nothing but rules, dots or dashes: a separator drawn in text. */
const NO_WORD = /^[^\p{L}\p{N}]*$/u;
/** `【ご注文日】 2026年8月15日`, `<ご注文日> …`: a label in brackets, the Japanese `Label:`. */
const BRACKET_LABEL = /^(?:【[^】]{1,20}】|<[^>]{1,20}>|〔[^〕]{1,20}〕|［[^］]{1,20}］)/;
/** `◆ご注文商品`, `■ Order details`: a section heading drawn with a mark in plain text. */
const SECTION_HEADING = /^[■□◆◇]\s*[^:：]{1,24}$/;
/**
 * `【予約】星詠みの…`, `【冬ギフト】…`: a product tag in brackets (pre-order, limited, new, a
 * season's gift, a sale...) opens a name, not a label.
 */
const PRODUCT_TAG =
  /^【(?:ご?予約(?:商品)?|先行予約|(?:数量|期間|初回|季節|地域)?限定|新品|新商品|中古|送料(?:無料|込み?)|再入荷|特価|セール|受注生産|(?:お)?取り寄せ|即納|[^】]{0,4}ギフト|お?歳暮|お?中元|福袋|訳あり|ポイント\d{1,2}倍|早割|アウトレット|お買い得|sale|new)】/i;

/** Words of a Japanese section or field label (`【お届け先】`, `【ご注文番号】`, `【お支払方法】`). */
const BRACKET_LABEL_WORDS =
  /注文|番号|日時|届け|支払|配送|発送|送料|合計|金額|方法|連絡|問い?合わ?せ|備考|住所|内容|明細|情報|案内|知らせ|確認|状況|予定|期間|会社|伝票|商品|数量|価格|単価|請求|重要|注意/;

/**
 * `【ほぼ日】ほぼ日手帳 2027`, `<ル・クルーゼ>ココット・ロンド`: a maker's name in brackets glued
 * to the product's name opens a name; a bracket holding a field's or section's words stays a label.
 */
function bracketedMaker(text: string): boolean {
  // `＜今治タオル＞ 藤高 …`: a space may stand between the bracket and the name.
  const m = /^(?:【([^】]{1,20})】|<([^>]{1,20})>) ?(\S.*)$/.exec(text);
  if (!m) return false;
  const inside = (m[1] ?? m[2]).trim();
  const rest = m[3];
  return !BRACKET_LABEL_WORDS.test(inside) && !isAnyLabel(foldKeepingOffsets(inside)) &&
    !/[:：]/.test(rest) && /\p{L}{2}/u.test(rest);
}

/** Whether `text` (folded) is `Label: value` or a lone label of a known order field. */
function fieldLine(text: string): boolean {
  const key = /^([^:]{1,40}):/.exec(text)?.[1]?.trim();
  return (key !== undefined && isAnyLabel(key)) || isAnyLabel(text);
}

/** `Member #: …`, `Item ID: …`, `Transaction ID: …`: an identifier line that is never a name. */
export function isOtherId(text: string): boolean {
  const folded = foldKeepingOffsets(text.trim());
  return OTHER_IDS.test(folded) || CODE_LINE.test(folded);
}

/** The classes decided by the text alone (remembered per text for the message). */
const textClass = memoByText((text: string): boolean => {
  const folded = foldKeepingOffsets(text);
  return GREETING.test(folded) || LEGAL.test(folded) || OTHER_IDS.test(folded) ||
    CODE_LINE.test(folded) ||
    DATE_LINE.test(folded) || ORDER_LINE.test(folded) || DATED_EVENT.test(folded) ||
    fieldLine(folded) ||
    BRACKET_LABEL.test(text) && !PRODUCT_TAG.test(text) && !bracketedMaker(text) ||
    NO_WORD.test(text) || SECTION_HEADING.test(text) ||
    (folded.endsWith("!") && EXCLAIMED.test(folded));
});

/**
 * `Artikel  Menge  Einzelpreis  Summe`, `Qty Price Total`: a line of nothing but field labels is
 * a table's header row drawn in text, never a value.
 */
function headerRow(folded: string): boolean {
  const words = folded.split(/\s+/).filter(Boolean);
  return words.length >= 2 && words.length <= 8 && words.every((w) => isAnyLabel(w));
}

/**
 * `<th>Overzicht</th>`: a short header cell without a figure names a column, never a value.
 */
function headerCell(block: Block, text: string): boolean {
  return block.tag === "th" && text.split(/\s+/).length <= 2 && !/\d/.test(text);
}

/** Whether a block is of a class that never holds a value (see the file comment). */
export function isBoilerplate(block: Block, subject = ""): boolean {
  const text = block.text.trim();
  if (!text) return true;
  const folded = foldKeepingOffsets(text);
  // The whole text is one link's text: a button or a navigation link, when it reads as an action.
  const linkOnly = block.links.length > 0 && block.links.some((l) => l.text.trim() === text);
  if (linkOnly && ACTION.test(folded)) return true;
  if (textClass(text) || headerRow(folded) || headerCell(block, text)) return true;
  if (block.heading && subject && foldKeepingOffsets(subject).includes(folded)) return true;
  return false;
}
