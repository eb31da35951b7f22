/**
 * Labelled values (research/intake.md §1.4, §3): the label vocabulary per field in English,
 * German, French, Spanish, Dutch, Italian, Polish and Japanese, and the four shapes a label and its value take in a block list:
 * the same block (`Order number: 1001`), the next block (`Order #` / `113-…`), a column header
 * row over a value row (`Shipped By | Tracking Number`), and inside a sentence
 * (`Your order number is UK2741893.`). Matching runs on offset-keeping folded text, so values are
 * sliced from the original.
 */
import type { Block } from "./html.ts";
import { foldKeepingOffsets } from "../text.ts";

export type LabelField =
  | "orderNumber"
  | "trackingNumber"
  | "carrier"
  | "total"
  | "subtotal"
  | "quantity"
  | "size"
  | "price"
  | "estimatedDelivery"
  | "item";

/** Folded label patterns (lower case, no accents, `№` read as `#`). */
export const LABELS: Record<LabelField, string> = {
  orderNumber: String
    .raw`(?:your |sales |web |online )?order(?: number| no\.?| nr\.?| #| id| ref(?:erence)?| num)?` +
    String.raw`|bestell(?:nummer|nr\.?|ung(?:snummer)?)|auftrags?nummer` +
    String
      .raw`|(?:numero|n°|no|n\.o|nº|n\.º|#) ?(?:de )?(?:commande|pedido)|(?:votre |ta )?commande|(?:tu |su )?pedido` +
    String.raw`|receipt(?: number| no\.?| #)?|confirmation (?:number|no\.?|#)` +
    // `Référence de la commande`, `Referencia del pedido`, `Riferimento ordine`, `Bestellreferenz`.
    String
      .raw`|reference (?:de (?:la |votre )?commande|du pedido)|referencia (?:del |de tu |de su )?pedido|riferimento (?:dell'|del )?ordine|bestellreferenz` +
    // Marketplaces number a purchase as a transaction (Mercari, Vinted).
    String.raw`|transaction(?: id| number| no\.?| #)|(?:numero|n°|no) (?:de )?transaction` +
    String
      .raw`|bestel(?:nummer|ling(?:snummer)?)|ordernummer|(?:numero|n\.?) (?:d'|dell')?ordine|ordine(?: n\.?| numero| #)?` +
    // Polish, folded (`Numer zamówienia`, `Zamówienie nr`).
    String.raw`|(?:numer|nr\.?) zamowienia|zamowienie(?: nr\.?)?` +
    "|ご?注文番号|オーダー番号|受注番号",
  trackingNumber: String
    .raw`(?:[a-z]+ )?(?:tracking|track|tracing)(?: number| no\.?| #| id| code| reference| ref)` +
    // `Evri parcel number`, `UPS tracking`: the carrier's name may open the label.
    String.raw`|(?:[a-z]+ )?(?:parcel|package|consignment)(?: number| no\.?| #| id)` +
    String
      .raw`|(?:[a-z]+ )?tracking|(?:air )?waybill(?: number)?|awb|sendungs(?:verfolgungs)?nummer|sendungsnr\.?|trackingnummer|paketnummer` +
    String
      .raw`|(?:numero|n°|no|nº|n\.º|n\.o) (?:de )?(?:suivi|colis|seguimiento|envio)|codigo de seguimiento|localizador` +
    String
      .raw`|track ?(?:&|en) ?trace(?:[ -]?code)?|trackingcode|zendingnummer|(?:numero|codice) (?:di )?(?:tracciamento|tracking|spedizione)` +
    String.raw`|(?:numer|nr\.?) (?:przesylki|paczki|sledzenia|listu przewozowego)` +
    "|お問い?合わ?せ(?:伝票|送り状)?番号|追跡番号|(?:配送)?伝票番号|送り状番号",
  carrier: String
    .raw`carrier|shipped (?:by|via|with)|shipping carrier|courier|shipment provider|provider` +
    String
      .raw`|versanddienstleister|versandpartner|spediteur|zusteller|transporteur|empresa de transporte|transportista` +
    "|vervoerder|bezorger|corriere|vettore|przewoznik|firma kurierska|配送業者|運送会社",
  total: String
    .raw`(?:order |grand |total payment|estimated )?total(?: payment| amount| ttc| paid| charged| paye| pagado| \(incl\.? (?:vat|tax)\))?` +
    String
      .raw`|amount paid|amount payable|total payable|total due|total a pagar|importe a pagar|montant a payer|zu zahlender betrag|(?:totale|importo) da pagare|importe total|total del pedido|gesamt(?:summe|betrag|preis|kosten brutto)?(?: \(inkl\. mwst\.?\))?` +
    String
      .raw`|summe|endbetrag|rechnungsbetrag|montant total(?: ttc)?|total ttc|total de la commande` +
    String
      .raw`|you paid|total paid|amount charged|montant paye|importe pagado|betaald bedrag|importo pagato` +
    String
      .raw`|totaal(?:bedrag)?|te betalen|totale(?: ordine| complessivo| pagato)?|importo totale` +
    String.raw`|razem(?: do zaplaty)?|do zaplaty|kwota do zaplaty|lacznie|suma zamowienia` +
    "|ご?請求(?:金)?額(?:合計)?|お支払い?(?:金額)?(?:合計)?|(?:注文)?合計(?:金額)?",
  subtotal: String
    .raw`(?:item |items )?sub-?total|zwischensumme|sous-total|shipment total|subtotaal|subtotale|wartosc produktow|小計`,
  quantity: String
    .raw`quantity|qty|menge|anzahl|quantite|qte|qta|cantidad|cant\.|unidades|stuck|stk\.|aantal|quantita|ilosc|数量|個数`,
  size: String
    .raw`size|gro(?:ss|s)e|gr\.|taille|pointure|talla|tamano|us size|uk size|eu size|shoe size|maat|taglia|misura|rozmiar|サイズ`,
  // `Precio del producto`, `Price of the item` first: a shorter label would take `del …` as value.
  price: String
    .raw`(?:price|prijs|preis|prix|precio|prezzo) (?:per|pro|par|por|al) (?:stuk|stuck|item|unit|piece|unidad|pezzo)|` +
    String
      .raw`(?:price|precio|prix|prezzo|prijs|preis|cena) (?:of (?:the )?|del |de la |de l'|du |dell'|della |van (?:het )?)?(?:item|product|producto|articulo|produit|article|prodotto|articolo|artikel|produktu)|artikelpreis|produktpreis|` +
    String
      .raw`prix unitaire|precio unitario|prezzo unitario|price|unit price|item price|purchase price|preis|einzelpreis|prix|precio|importe|prijs|prezzo|stuckpreis|stukprijs|cena(?: jednostkowa)?|価格|単価`,
  // `Artículo enviado`, `Item shipped`: the label of a shipping mail's item says so.
  item: String
    .raw`(?:cancel+ed |returned |refunded )?(?:item(?: name)?|product(?: name)?|article|artikel(?:name|bezeichnung)?|bezeichnung|produit|producto|articulo|articolo|prodotto|artikelnaam|produkt|nazwa produktu)` +
    String
      .raw`(?: (?:shipped|versandt|verschickt|expedie|envia?do|spedito|verzonden|storniert|annule|cancelado|annullato|geannuleerd))?` +
    "|商品名?|品名",
  estimatedDelivery: String
    .raw`(?:estimated|expected|scheduled|guaranteed|projected) (?:delivery|arrival)(?: date)?(?: is)?` +
    String
      .raw`|your estimated delivery date is|delivery estimate|arriving(?: on| by)?|arrives(?: on| by)?|delivers(?: on| by)?|will arrive(?: on| by)?|delivery date|(?:your )?delivery (?:day|slot)|get it by|delivery by|expected by` +
    String
      .raw`|verwachte (?:levering|bezorging|bezorgdatum|leverdatum|bezorgdag)|bezorgdatum|bezorgdag|bezorgmoment|leverdatum|(?:vandaag |morgen |overmorgen )?in huis(?: op)?|(?:consegna|arrivo) (?:prevista|previsto|stimata)|giorno di consegna|data (?:di |prevista di )?consegna(?: prevista| stimata)?` +
    "|お届け予定日?|配達予定日?|到着予定日?|お届け日" +
    String
      .raw`|voraussichtliche (?:lieferung|zustellung)|voraussichtlicher liefertermin|lieferdatum|zustellung(?: am)?|lieferung(?: am)?|liefertermin|liefertag|zustelltag|lieferfenster` +
    String
      .raw`|livraison (?:prevue|estimee)(?: le)?|jour de livraison|creneau de livraison|date (?:de livraison|d'arrivee)(?: prevue| estimee)?|arrivee(?: prevue)?` +
    String
      .raw`|entrega (?:prevista|estimada)(?: el)?|dia de entrega|fecha (?:de entrega|estimada de entrega)|llegada(?: prevista)?` +
    String.raw`|(?:przewidywana|planowana|szacowana) (?:data )?dostawy|termin dostawy|data dostawy`,
};

/** A note in brackets after a label: `Total (IVA incluido)`, `Gesamtsumme (inkl. MwSt.)`. */
const NOTE = String.raw`(?:\([^)]{0,40}\)\s*)?`;

/**
 * A heading mark before a label (`■お届け予定日`, `● Total`): plain-text mails mark sections so.
 * A label closed by a bracket (`【ご注文番号】3049…`) needs no separator after it.
 */
const BULLET = String.raw`(?:[■□●○◆◇▶▷・*]\s*)?`;

const compiled = new Map<string, { same: RegExp; alone: RegExp; inside: RegExp }>();

function patterns(field: LabelField) {
  let p = compiled.get(field);
  if (!p) {
    const label = `(?:${LABELS[field]})`;
    p = {
      // Label at the start of the block, then a separator and the value.
      // A figure may follow its label with no space (`Total£1,284.00`: two cells run together).
      same: new RegExp(
        `^${BULLET}[\\[(【]?${label}[\\])】]?\\s*${NOTE}(?:[:#.\\-–]\\s*|\\s|(?=[£$€¥￥])|(?<=[\\]】]))(.+)$`,
      ),
      // The block is only the label.
      alone: new RegExp(`^${BULLET}[\\[【]?${label}[\\]】]?\\s*${NOTE}[:#.]?\\s*$`),
      // Somewhere inside a sentence, with a colon or an `is` before the value.
      inside: new RegExp(`(?:^|[\\s(,;])${label}\\s*(?:is|ist|est|es|:|#|-)\\s*[:#]?\\s*(.+)$`),
    };
    compiled.set(field, p);
  }
  return p;
}

export type Shape = "same" | "next" | "column" | "sentence";

export interface Labelled {
  value: string;
  block: number;
  shape: Shape;
  /** The label as printed (the lone label block, the column header, the text before the value). */
  label: string;
}

/** The printed label in front of a value: the text before it without its separator. */
const labelBefore = (text: string, value: string) =>
  text.slice(0, text.length - value.length).replace(/[\s:#.\-–]+$/, "").trim();

/** Blocks at a table position, for the column shape. */
function cellIndex(blocks: Block[]): Map<string, number> {
  const index = new Map<string, number>();
  blocks.forEach((b, i) => {
    if (!b.cell) return;
    const key = `${b.cell.table}:${b.cell.row}:${b.cell.col}`;
    if (!index.has(key)) index.set(key, i);
  });
  return index;
}

const cellIndexes = new WeakMap<Block[], Map<string, number>>();

/**
 * The values after a field's labels, in the order the shapes are tried and scored (same line,
 * next block, column, sentence) and then in reading order. `accept` turns a raw candidate into a
 * value or rejects it (null).
 */
export function labelledValues(
  blocks: Block[],
  field: LabelField,
  accept: (raw: string) => string | null,
  options: { max?: number; from?: number; to?: number; sentences?: boolean } = {},
): Labelled[] {
  const { same, alone, inside } = patterns(field);
  const found: Labelled[] = [];
  const from = options.from ?? 0;
  const to = Math.min(options.to ?? blocks.length, blocks.length);
  const max = options.max ?? 10;
  let cells = cellIndexes.get(blocks);
  for (let i = from; i < to && found.length < max; i++) {
    const text = blocks[i].text;
    if (!text || text.length > 600) continue;
    const folded = foldKeepingOffsets(text);
    if (alone.test(folded)) {
      const next = nextValueBlock(blocks, i);
      if (next !== null) {
        const value = accept(blocks[next].text);
        if (value !== null) found.push({ value, block: next, shape: "next", label: text });
      }
      const cell = blocks[i].cell;
      if (cell) {
        if (!cells) cellIndexes.set(blocks, cells = cellIndex(blocks));
        const below = cells.get(`${cell.table}:${cell.row + 1}:${cell.col}`);
        if (below !== undefined && below !== next) {
          const value = accept(blocks[below].text);
          if (value !== null) found.push({ value, block: below, shape: "column", label: text });
        }
      }
      continue;
    }
    const m = same.exec(folded);
    if (m) {
      const value = accept(text.slice(text.length - m[1].length));
      if (value !== null) {
        found.push({ value, block: i, shape: "same", label: labelBefore(text, m[1]) });
        continue;
      }
    }
    if (options.sentences !== false) {
      const s = inside.exec(folded);
      if (s) {
        const value = accept(text.slice(text.length - s[1].length));
        if (value !== null) {
          const label = labelBefore(text.slice(s.index), s[1]);
          found.push({ value, block: i, shape: "sentence", label });
        }
      }
    }
  }
  const rank: Record<Shape, number> = { same: 0, next: 1, column: 2, sentence: 3 };
  return found.sort((a, b) => rank[a.shape] - rank[b.shape] || a.block - b.block);
}

/** The block holding a lone label's value: the next non-empty block, unless it is a label too. */
function nextValueBlock(blocks: Block[], i: number): number | null {
  for (let j = i + 1; j < Math.min(blocks.length, i + 3); j++) {
    if (blocks[j].text) return /:\s*$/.test(blocks[j].text) ? null : j;
  }
  return null;
}

let anyLabel: RegExp | undefined;

/** Whether a (folded) text is, alone, a label of any field: one pattern for every vocabulary. */
export function isAnyLabel(folded: string): boolean {
  anyLabel ??= new RegExp(
    `^(?:${Object.values(LABELS).map((l) => `(?:${l})`).join("|")})\\s*${NOTE}[:#.]?\\s*$`,
  );
  return anyLabel.test(folded);
}

/** Whether a block's whole text is one of the field's labels (a header cell, a lone label). */
export function isLabel(text: string, field: LabelField): boolean {
  return patterns(field).alone.test(foldKeepingOffsets(text));
}
