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
import { aloneIn, insideOf, leadingOf, sameIn, type Scan, scanOf } from "./label_scans.ts";

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
      .raw`|(?:numero|n°|no|n\.o|nº|n\.º|#) ?(?:de |do )?(?:commande|pedido)|(?:votre |ta )?commande|(?:tu |su |seu )?pedido` +
    // A purchase numbered `Compra #…` (marketplaces); Danish and Norwegian `Ordrenummer`.
    String
      .raw`|compra(?= ?#)|(?:numero|n°|nº|n\.º) de (?:la )?compra|ordre(?:nummer|nr\.?| nr\.?| #| id)?|bestillingsnummer|ordernr\.?|bestallningsnummer|tilausnumero|tilaus(?: nro| #)?` +
    // Mexican `Orden #…`, Portuguese (Portugal) `N.º de encomenda`.
    String
      .raw`|(?:numero|n°|nº|n\.º|no\.) (?:de |da )?(?:orden|encomenda)|orden(?: #| no\.?| numero)?|encomenda(?: n\.?º| #)?|(?:pedido|orden|encomenda|compra) n\.?[°º]\.?` +
    // PrestaShop numbers orders by a reference of letters in every language.
    String
      .raw`|referencia (?:del|de su|de tu) pedido|referencia da encomenda|reference de (?:la |votre )?commande|riferimento (?:dell')?ordine|bestelreferentie|bestellreferenz` +
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
    // `注文 #1043`: the word for order right before its number's `#`.
    "|ご?注文番号|オーダー番号|受注番号|(?:ご?注文)?受付番号|ご?注文(?= ?#)|注文id|取引(?:id|番号)",
  // `PostNL-trackingnummer`, `Número de seguimiento de Correos`: a carrier's name may open or
  // close the label (see TRACKING_OF below).
  trackingNumber: String
    .raw`(?:[a-z]+ )?(?:tracking|track|tracing)(?: number| no\.?| #| id| code| reference| ref| pin)` +
    String.raw`|[a-z]+-(?:tracking|track ?& ?trace)(?:nummer|code|number)?` +
    // `Evri parcel number`, `UPS tracking`: the carrier's name may open the label.
    String.raw`|(?:[a-z]+ )?(?:parcel|package|consignment)(?: number| no\.?| #| id)` +
    String
      .raw`|(?:[a-z]+ )?tracking|(?:air )?waybill(?: number)?|awb|sendungs(?:verfolgungs)?nummer|sendungsnr\.?|trackingnummer|paketnummer` +
    String
      .raw`|(?:numero|n°|no|nº|n\.º|n\.o) (?:de )?(?:suivi|colis|seguimiento|envio)|codigo de seguimiento|localizador` +
    String
      .raw`|track ?(?:&|en) ?trace(?:[ -]?code)?|trackingcode|zendingnummer|(?:numero|codice) (?:di )?(?:tracciamento|tracciabilita|rintracciabilita|tracking|spedizione)` +
    String.raw`|(?:numer|nr\.?) (?:przesylki|paczki|sledzenia|listu przewozowego)` +
    // Portuguese, Danish and Norwegian.
    String
      .raw`|(?:codigo|numero) de (?:rastreamento|rastreio)|rastreio|rastreamento|sporingsnummer|pakkenummer|forsendelsesnummer` +
    String
      .raw`|sparningsnummer|kollinummer|kolli-id|sandningsnummer|seurantakoodi|seurantanumero|lahetystunnus|(?:numero de )?guia(?: de rastreo)?|numero de rastreo|codigo de rastreo|(?:numero|codigo) de seguimento` +
    // `日本郵便の追跡番号`: a carrier's name may open the Japanese label too.
    // `お問い合せ送り状No`: the number written `No`.
    "|(?:[^\\s:：]{1,12}の)?(?:お問い?合わ?せ(?:伝票|送り状)?(?:番号|no\\.?)|追跡番号|(?:配送)?伝票(?:番号|no\\.?)|送り状(?:番号|no\\.?))" +
    // `Seguimiento de Estafeta:`, `Suivi Colissimo :`: the word for tracking alone, before a carrier.
    String.raw`|seguimiento|rastreo|suivi(?: colis)?`,
  carrier: String
    .raw`carrier|shipped (?:by|via|with)|shipping carrier|courier|shipment provider|provider` +
    String
      .raw`|versanddienstleister|versandpartner|spediteur|zusteller|transporteur|empresa de transporte|transportista` +
    "|versandart|versandmethode|shipping method|delivery method|verzendmethode|verzendwijze|mode de livraison|metodo de envio|metodo di spedizione|vervoerder|bezorger|corriere|vettore|przewoznik|firma kurierska|transportadora|fragtfirma|paqueteria|transportor|fraktbolag|kuljetusyhtio|配送業者|運送会社|配送会社",
  total: String
    .raw`(?:order |grand |total payment|estimated )?total(?: payment| amount| ttc| paid| charged| paye| pagado| \(incl\.? (?:vat|tax)\)| (?:incl|inkl)\.? (?:vat|tax|moms|mwst\.?|btw|iva|alv))?` +
    String
      .raw`|amount paid|amount payable|total payable|total due|total a pagar|importe a pagar|montant a payer|zu zahlender betrag|(?:totale|importo) da pagare|importe total|total del pedido|gesamt(?:summe|betrag|preis|kosten brutto)?(?: \(inkl\. mwst\.?\))?` +
    String
      .raw`|summe|endbetrag|rechnungsbetrag|montant total(?: ttc)?|total ttc|total de la commande` +
    String
      .raw`|you paid|total paid|amount charged|montant paye|importe pagado|betaald bedrag|importo pagato` +
    String
      .raw`|totaal(?:bedrag)?|te betalen|totale(?: ordine| complessivo| pagato)?|importo totale` +
    String.raw`|razem(?: do zaplaty)?|do zaplaty|kwota do zaplaty|lacznie|suma zamowienia` +
    String.raw`|valor total|total do pedido|i alt|at betale|totalbel(?:ø|o)b` +
    String
      .raw`|totalt(?: (?:a|att) betal[ea])?|summa|att betala|totalsumma|totalbelopp|a betale|yhteensa|maksettava|loppusumma` +
    "|ご?請求(?:金)?額(?:合計)?|お支払い?(?:金額)?(?:合計)?(?:金額)?|(?:注文)?合計(?:金額)?",
  subtotal: String
    .raw`(?:item |items )?sub-?total|merchandise (?:sub-?)?total|(?:items|goods|products) total|warenwert|zwischensumme|sous-total|shipment total|subtotaal|subtotale|wartosc produktow|varetotal|varer i alt|mellemsum|delsumma|delsum|valisumma|商品合計|小計`,
  quantity: String
    .raw`quantity|qty|menge|anzahl|quantite|qte|qta|cantidad|cant\.|unidades|stuck|stk\.|aantal|quantita|ilosc|quantidade|qtde?\.?|antal|antall|maara|kpl|数量|個数`,
  size: String
    .raw`size|gro(?:ss|s)e|gr\.|taille|pointure|talla|tamano|us size|uk size|eu size|shoe size|maat|taglia|misura|rozmiar|tamanho|st(?:ø|o)rrelse|storlek|koko|length|lange|longueur|lengte|lunghezza|longitud|サイズ`,
  // `Precio del producto`, `Price of the item` first: a shorter label would take `del …` as value.
  price: String
    .raw`(?:price|prijs|preis|prix|precio|prezzo) (?:per|pro|par|por|al) (?:stuk|stuck|item|unit|piece|unidad|pezzo)|` +
    String
      .raw`(?:price|precio|prix|prezzo|prijs|preis|cena) (?:of (?:the )?|del |de la |de l'|du |dell'|della |van (?:het )?)?(?:item|product|producto|articulo|produit|article|prodotto|articolo|artikel|produktu)|artikelpreis|produktpreis|` +
    String
      .raw`prix unitaire|precio unitario|prezzo unitario|price|unit price|item price|purchase price|preis|einzelpreis|prix|precio|importe|prijs|prezzo|stuckpreis|stukprijs|cena(?: jednostkowa)?|preco(?: unitario)?|valor unitario|pris|stykpris|enhedspris|styckpris|a-pris|hinta|kappalehinta|yksikkohinta|価格|単価` +
    // `金額` is the line's amount: one piece's price only for one piece (extract.ts `unitPrice`).
    "|金額",
  // `Artículo enviado`, `Item shipped`: the label of a shipping mail's item says so.
  item: String
    .raw`(?:cancel+ed |returned |refunded )?(?:item(?: name)?|product(?: name)?|article|artikel(?:name|bezeichnung)?|bezeichnung|produit|producto|articulo|articolo|prodotto|artikelnaam|produkt|nazwa produktu|produto|vare(?:navn|beskrivelse)?|artigo|vara|benamning|tuote)` +
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
      .raw`|previsao de entrega|entrega prevista(?: para)?|data (?:prevista )?de entrega|forventet levering(?:sdato)?|leveringsdato|forventes leveret(?: den)?` +
    String
      .raw`|beraknad leverans(?:dag)?|leveransdatum|forvantad leverans|arvioitu toimitus(?:paiva)?|toimituspaiva` +
    String
      .raw`|voraussichtliche (?:lieferung|zustellung)|voraussichtlicher liefertermin|lieferdatum|zustellung(?: am)?|lieferung(?: am)?|liefertermin|liefertag|zustelltag|lieferfenster` +
    String
      .raw`|livraison (?:prevue|estimee)(?: le)?|livraison le|jour de livraison|creneau de livraison|date (?:de livraison|d'arrivee)(?: prevue| estimee)?|arrivee(?: prevue)?` +
    String
      .raw`|entrega (?:prevista|estimada)(?: el)?|dia de entrega|fecha (?:de entrega|estimada de entrega)|llegada(?: prevista)?` +
    String.raw`|(?:przewidywana|planowana|szacowana) (?:data )?dostawy|termin dostawy|data dostawy`,
};

/**
 * A note after a label: in brackets (`Total (IVA incluido)`, `Gesamtsumme (inkl. MwSt.)`) or the
 * tax it includes written bare (`Gesamtsumme inkl. MwSt.`, `Totaal incl. btw`).
 */
const NOTE = String
  .raw`(?:\([^)]{0,40}\)\s*|(?:incl|inkl|inc)\.? ?(?:vat|tax|moms|mwst|btw|iva|alv|ust|tva|gst)\.?(?=[\s:]|$))?`;

/**
 * A heading mark before a label (`■お届け予定日`, `● Total`): plain-text mails mark sections so.
 * A label closed by a bracket (`【ご注文番号】3049…`) needs no separator after it; the brackets may
 * hold spaces around the label (`[ 注文番号 ] 2026…`).
 */
const BULLET = String.raw`(?:[■□●○◆◇▶▷・*]\s*)?`;

/**
 * `Número de seguimiento de Correos`, `Tracking number for USPS`, `Numéro de suivi Colissimo :`:
 * the carrier after the label (without a joining word only right before a colon); `Posti-` or
 * `Hermes-` before it.
 */
const CARRIER_WORDS = String.raw`[a-z][a-z.]{1,20}(?: [a-z][a-z.]{1,20})?`;
const TRACKING_OF = String
  .raw`(?: (?:(?:de|del|da|das|do|dos|di|van|von|from|for|with|via|par|fra|fran|med|bei) ${CARRIER_WORDS}|${CARRIER_WORDS}(?=\s*(?::|$))))?`;
const CARRIER_DASH = String.raw`(?:[a-z0-9]+-)?`;

const compiled = new Map<string, { same: RegExp; alone: RegExp; inside: RegExp }>();

function patterns(field: LabelField) {
  let p = compiled.get(field);
  if (!p) {
    // `Cantidad / Qty`: a bilingual mail prints the label twice, joined by a slash.
    const one = `(?:${LABELS[field]})`;
    const tracking = field === "trackingNumber";
    const label = `${tracking ? CARRIER_DASH : ""}${one}(?:\\s*/\\s*${one})?${
      tracking ? TRACKING_OF : ""
    }`;
    p = {
      // Label at the start of the block, then a separator and the value.
      // A figure may follow its label with no space (`Total£1,284.00`: two cells run together).
      // A linking verb after a spaced label is no part of the value (`Tracking number is X`).
      same: new RegExp(
        `^${BULLET}(?:[\\[(【<〔]\\s*)?${label}(?:\\s*[\\])】>〕])?\\s*${NOTE}(?:[:#.\\-–]\\s*|${
          field === "size" ? "" : String.raw`\s(?:is|ist|est|es)\s*[:#]?\s+|`
        }\\s|(?=[£$€¥￥])|(?<=[\\]】>〕]))(.+)$`,
      ),
      // The block is only the label.
      alone: new RegExp(
        `^${BULLET}(?:[\\[【<〔]\\s*)?${label}(?:\\s*[\\]】>〕])?\\s*${NOTE}[:#.]?\\s*$`,
      ),
      // Somewhere inside a sentence, with a colon or an `is` before the value.
      // Japanese runs its words together: `、お届け予定日は11月8日です`.
      inside: new RegExp(
        `(?:^|[\\s(,;、。])${label}\\s*(?:is|ist|est|es|:|#|-|は)\\s*[:#]?\\s*(.+)$`,
      ),
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
    const under = blocks[i].columns && textColumnValue(blocks, i, alone, accept);
    if (under) {
      found.push(under);
      continue;
    }
    const scan = scanOf(field, text);
    if (aloneIn(scan, alone)) {
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
    const m = sameIn(scan, same);
    if (m >= 0) {
      const raw = text.slice(text.length - m);
      const value = accept(raw);
      if (value !== null) {
        found.push({ value, block: i, shape: "same", label: labelBefore(text, raw) });
        continue;
      }
    }
    const lead = leadingLabel(scan, same, accept);
    if (lead) {
      found.push({ ...lead, block: i });
      continue;
    }
    if (options.sentences !== false) {
      const s = insideOf(scan, inside);
      if (s) {
        const raw = text.slice(text.length - s.value);
        const value = accept(raw);
        if (value !== null) {
          const label = labelBefore(text.slice(s.index), raw);
          found.push({ value, block: i, shape: "sentence", label });
        }
      }
    }
  }
  const rank: Record<Shape, number> = { same: 0, next: 1, column: 2, sentence: 3 };
  return found.sort((a, b) => rank[a.shape] - rank[b.shape] || a.block - b.block);
}

/**
 * `… met PostNL verzonden. Verwachte bezorging: woensdag 11 november.`: a label opening a later
 * sentence of the block (or the note after a spaced dash), read as if the sentence were its own line (a few sentences at most).
 */
function leadingLabel(
  scan: Scan,
  same: RegExp,
  accept: (raw: string) => string | null,
): Omit<Labelled, "block"> | null {
  const { text } = scan;
  for (const { start, value: length } of leadingOf(scan, same)) {
    const raw = text.slice(text.length - length);
    const value = accept(raw);
    if (value !== null) {
      return { value, shape: "same", label: labelBefore(text.slice(start), raw) };
    }
  }
  return null;
}

/** Two plain-text lines laid out alike: as many columns, each starting at the same place. */
const alike = (a: Block["columns"], b: Block["columns"]) =>
  !!a && !!b && a.length === b.length && a.every((c, k) => Math.abs(c.start - b[k].start) <= 2);

/**
 * `Spedito con          Numero di tracking` over `BRT                  0624…`: in a plain-text
 * line laid out in columns, a part that is only the label has its value in the part of the next
 * line that starts under it. Only for one row: under a header of several rows alike (a table of
 * items) a cell is one row's, not the order's.
 */
function textColumnValue(
  blocks: Block[],
  i: number,
  alone: RegExp,
  accept: (raw: string) => string | null,
): Labelled | null {
  const next = blocks[i + 1]?.columns;
  if (!next || alike(next, blocks[i + 2]?.columns)) return null;
  for (const column of blocks[i].columns ?? []) {
    if (!alone.test(foldKeepingOffsets(column.text))) continue;
    const value = next.find((v) =>
      v.start >= column.start - 2 && v.start < column.start + column.text.length
    );
    const accepted = value && accept(value.text);
    if (accepted) return { value: accepted, block: i + 1, shape: "column", label: column.text };
  }
  return null;
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
  // A tracking label may carry its carrier (`Posti-seurantanumero`, `Numéro de suivi Colissimo`).
  return anyLabel.test(folded) || patterns("trackingNumber").alone.test(folded);
}

/** Whether a block's whole text is one of the field's labels (a header cell, a lone label). */
export function isLabel(text: string, field: LabelField): boolean {
  return patterns(field).alone.test(foldKeepingOffsets(text));
}

const endings = new Map<LabelField, RegExp>();

/**
 * Whether a (folded) text ends with one of the field's labels, as a word (`… avec le numéro de
 * suivi`): what stands right before a value in a sentence. Only the last 80 characters are read.
 */
export function endsWithLabel(folded: string, field: LabelField): boolean {
  let p = endings.get(field);
  if (!p) endings.set(field, p = new RegExp(`(?:^|[\\s(,;])(?:${LABELS[field]})\\s*$`));
  return p.test(folded.slice(-80));
}
