/**
 * Line items (research/intake.md §1.9): product rows anchored on a product image, rows of a
 * table under a `Product | Qty | Price` header, and lines followed by `Size:`/`Qty:` attribute
 * lines or under an `Items shipped:` label (plain-text mails). Each item keeps its name as
 * printed (without the `× 1` suffix), quantity, size, price and image.
 */
import { moneyValue } from "../money.ts";
import { foldKeepingOffsets, memoByText } from "../text.ts";
import type { Block, Image } from "./html.ts";
import { isLabel, type LabelField } from "./labels.ts";
import {
  attributeKind,
  COUNT_LINE,
  describe,
  type Item,
  note,
  sameRow,
  splitLine,
  unitTimesCount,
} from "./item_details.ts";
import {
  countedItems,
  countedLine,
  countedRun,
  labelledItems,
  pricedRows,
} from "./items_anchored.ts";
import { isHeaderLine, textTableItems } from "./items_text_table.ts";
import { evidence } from "./evidence.ts";
import { isBoilerplate, isOtherId } from "./boilerplate.ts";

export type { Item };

const MAX_ITEMS = 50;
const RECOMMENDATIONS =
  /^(?:keep shopping|top picks|you (?:may|might) also (?:like|love)|recommended for you|customers (?:who bought|also)|related products|more to explore|inspired by your|shop (?:more|similar)|empfehlungen|das konnte (?:dir|ihnen) auch gefallen|vous aimerez aussi|vous aimerez peut-etre|te puede interesar|tambien te puede gustar)/;
/** Item-table header cells tried (a mail of thousands of "Item" cells stays cheap). */
const MAX_HEADER_TRIES = 10;
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
const ITEM_HEADERS = new RegExp(
  `^${ITEMS_OF}${ITEM_HEADER_WORDS}(?:\\s*/\\s*${ITEM_HEADER_WORDS})?$`,
);
const TOTAL_ROW =
  /^(?:sub-?total|total|zwischensumme|gesamt|versand|shipping|delivery|livraison|envio|tax|sales tax|mwst|tva|iva|discount|rabatt|remise|descuento|payment|zahlung|sous-total|frais|gastos|subtotaal|totaal|verzendkosten|subtotale|totale|spese di spedizione|小計|合計|送料|消費税|商品合計|ご請求|お支払|i alt|varer i alt|levering|fragt|forsendelse|frakt|moms|totalt|summa|delsumma|frete|impostos|impuestos|imposte|btw|ust\b|umsatzsteuer|mehrwertsteuer|desconto|yhteensa|valisumma|toimitus|alv|razem|suma|dostawa|wysylka|do zaplaty|lacznie)/;
const ITEMS_LABEL =
  /^(?:(?:shipped|ordered|purchased|cart|order) items|items? (?:shipped|ordered|in (?:this|your) (?:shipment|order|package|box))|your items?|items?|artikel|deine artikel|ihre artikel|articles?|vos articles|tus articulos|articulos|productos|products?|in (?:this|your) (?:parcel|package|shipment|box)|geliefert werden|in (?:deiner|ihrer) (?:lieferung|sendung)|dans ce colis|en este paquete|in dit pakket|in questo pacco|(?:canceled|cancelled) items?|stornierte[rn]? artikel|articles? annules?|articulos? cancelados?|geannuleerde artikelen|articoli annullati|(?:verzonden |bestelde |je )?artikelen|articoli(?: spediti| ordinati)?|prodotti|itens(?: do pedido| enviados)?|(?:produtos|artigos)(?: enviados)?|sendte varer|skickade artiklar|indhold|(?:dine )?varer|(?:dina )?varor|artiklar|tuotteet|(?:出荷|発送|ご?注文)商品|(?:この)?(?:配送|発送|荷物)に含まれる商品|(?:zamowione |twoje )?produkty)\s*:?$/;

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
const itemsHeading = memoByText((text: string) => ITEMS_LABEL.test(foldKeepingOffsets(text)));

/** Whether a block reads as a product name (not a label, money, date or a sentence). */
const nameLike = memoByText(readsAsName);

/** Whether a block may hold an item name: name-like text, not boilerplate. */
type NameTest = (block: Block) => boolean;

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
function isBrandLine(line: Block, next: Block, isName: NameTest): boolean {
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
function isDetailLine(b: Block): boolean {
  return attributeKind(foldKeepingOffsets(b.text)) !== undefined || moneyValue(b.text) !== null ||
    COUNT_LINE.test(b.text) || unitTimesCount(b.text) !== null;
}

/** Items anchored on product images. */
function imageItems(blocks: Block[], storeNames: string[], isName: NameTest): Item[] {
  const anchors: { block: number; image: Image }[] = [];
  for (let i = 0; i < blocks.length && anchors.length < MAX_ITEMS; i++) {
    const image = blocks[i].images.find((img) => isProductImage(img, storeNames));
    if (image) anchors.push({ block: i, image });
  }
  const items: Item[] = [];
  anchors.forEach((anchor, k) => {
    const end = k + 1 < anchors.length ? anchors[k + 1].block : blocks.length;
    let nameAt = -1;
    for (let i = anchor.block; i < Math.min(end, anchor.block + 4); i++) {
      if (blocks[i].text && isName(blocks[i])) {
        nameAt = i;
        break;
      }
      // A price may stand between the picture and the name.
      if (blocks[i].text && i > anchor.block && !moneyValue(blocks[i].text)) break;
    }
    if (nameAt < 0) return;
    if (nameAt + 1 < end && isBrandLine(blocks[nameAt], blocks[nameAt + 1], isName)) nameAt++;
    // The item's details: the rest of its table row, or the next few blocks of a stacked layout.
    const row = blocks[anchor.block];
    // Image, name and details each in a row of their own (a stacked table): the details are
    // the rows under the name, up to the totals, not the image's row alone.
    const stacked = !!(row.cell && blocks[nameAt].cell && !sameRow(row, blocks[nameAt]));
    let to = nameAt + 1;
    while (to < end && to < nameAt + 12) {
      const b = blocks[to];
      if (
        !stacked && row.cell && b.cell && !sameRow(row, b) &&
        !(b.cell.table > row.cell.table && to <= nameAt + 10) &&
        // Detail rows under the picture-and-name row (`JAN: …`, `単価:￥6,380 × 1個`) are its own.
        !(to < nameAt + 4 && isDetailLine(b))
      ) break;
      if (!row.cell && b.cell) break;
      if (!sameRow(row, b) && TOTAL_ROW.test(foldKeepingOffsets(b.text))) break;
      to++;
    }
    items.push(
      describe(
        {
          name: blocks[nameAt].text,
          image: anchor.image.src,
          block: nameAt,
          evidence: evidence("generic", "product image"),
        },
        blocks,
        nameAt,
        to,
      ),
    );
    if (k === anchors.length - 1 || anchors[k + 1].block > to) {
      items.push(...siblingRows(blocks, nameAt, to, end, isName));
    }
  });
  return items;
}

/**
 * Rows after an image-anchored item that repeat its layout without an image (only the first
 * item of a list has a picture): a name in the same column, then a quantity or a price.
 */
function siblingRows(
  blocks: Block[],
  nameAt: number,
  from: number,
  end: number,
  isName: NameTest,
): Item[] {
  const first = blocks[nameAt].cell;
  if (!first) return [];
  const out: Item[] = [];
  let i = from;
  while (i < end && out.length < MAX_ITEMS) {
    const b = blocks[i];
    if (
      !b.cell || b.cell.table !== first.table || b.cell.col !== first.col || b.cell.row <= first.row
    ) break;
    if (!isName(b) || TOTAL_ROW.test(foldKeepingOffsets(b.text))) break;
    let to = i + 1;
    while (to < end && blocks[to].cell && sameRow(blocks[to], b)) to++;
    const item = describe(
      { name: b.text, block: i, evidence: evidence("generic", "row like the item above") },
      blocks,
      i,
      to,
    );
    if (item.quantity === undefined && item.price === undefined) break;
    out.push(item);
    i = to;
  }
  return out;
}

/** Items in the rows of a table whose header row names an item column. */
function tableItems(blocks: Block[], isName: NameTest): Item[] {
  const items: Item[] = [];
  let tries = 0;
  for (let h = 0; h < blocks.length && items.length === 0 && tries < MAX_HEADER_TRIES; h++) {
    const head = blocks[h];
    const folded = head.cell ? foldKeepingOffsets(head.text).replace(/[:.]$/, "") : "";
    // A column headed like an item list (`In this parcel | Qty`) is an item column too, when a
    // column of its row is headed by a detail.
    const listHead = !ITEM_HEADERS.test(folded) && ITEMS_LABEL.test(folded);
    if (!head.cell || !(listHead || ITEM_HEADERS.test(folded))) continue;
    tries++;
    const headers = blocks.filter((b) => b.cell && sameRow(b, head));
    // A header row has cells side by side; blocks of one layout cell are no header row.
    if (new Set(headers.map((b) => b.cell!.col)).size < 2) continue;
    const column = (field: "quantity" | "size" | "price") =>
      headers.find((b) => isLabel(b.text, field))?.cell?.col;
    const [qtyCol, sizeCol, priceCol] = [column("quantity"), column("size"), column("price")];
    if (listHead && qtyCol === undefined && sizeCol === undefined && priceCol === undefined) {
      continue;
    }
    const table = head.cell.table;
    let row = head.cell.row + 1;
    for (let guard = 0; guard < MAX_ITEMS; guard++, row++) {
      const cells = blocks.map((b, i) => ({ b, i })).filter(({ b }) =>
        b.cell?.table === table && b.cell.row === row
      );
      if (cells.length === 0) break;
      const nameCell = cells.filter(({ b }) => b.cell!.col === head.cell!.col);
      if (
        nameCell.length === 0 || !isName(nameCell[0].b) ||
        TOTAL_ROW.test(foldKeepingOffsets(nameCell[0].b.text))
      ) break;
      const first = nameCell[0];
      const item = describe(
        {
          name: first.b.text,
          block: first.i,
          image: cells.flatMap(({ b }) => b.images)[0]?.src,
          evidence: evidence("table", head.text),
        },
        blocks,
        first.i,
        cells.at(-1)!.i + 1,
      );
      const qty = qtyCol === undefined
        ? undefined
        : cells.find(({ b }) => b.cell!.col === qtyCol)?.b.text;
      const header = (col?: number) =>
        evidence("table", headers.find((b) => b.cell!.col === col)?.text);
      // The count alone, or with its times sign (`× 1`, `2x`) as a checkout prints it.
      const count = qty && /^(?:[×x]\s?)?(\d{1,3})(?:\s?[×x])?$/i.exec(qty);
      if (count) {
        item.quantity = Number(count[1]);
        note(item, "quantity", header(qtyCol));
      }
      // A size column and a unit-price column (beside a line-total column) say which is which.
      const cellOf = (col?: number) =>
        col === undefined ? undefined : cells.find(({ b }) => b.cell!.col === col)?.b.text;
      const size = cellOf(sizeCol);
      if (size && size.length <= 24) {
        item.size = size;
        note(item, "size", header(sizeCol));
      }
      const price = moneyValue(cellOf(priceCol) ?? "");
      if (price) {
        item.price = price;
        note(item, "price", header(priceCol));
      }
      items.push(item);
    }
  }
  return items;
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
function valueOfLabel(blocks: Block[], i: number): boolean {
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

/** Items of plain lists: a line followed by attribute lines, or lines under an items label. */
function listItems(blocks: Block[], isName: NameTest): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < blocks.length && items.length < MAX_ITEMS; i++) {
    const folded = foldKeepingOffsets(blocks[i].text);
    if (ITEMS_LABEL.test(folded) && i + 1 < blocks.length && isName(blocks[i + 1])) {
      // `2x Name - R$ 39,90 cada` under the label: the line says count, name and price.
      const counted = countedLine(blocks[i + 1].text, i + 1);
      if (counted && isName({ ...blocks[i + 1], text: counted.name })) {
        items.push({ ...counted, evidence: evidence("label", blocks[i].text) });
        i++;
        continue;
      }
      // `1 x Name` lines one under another below the label: one counted item each.
      const run = countedRun(blocks, i + 1, isName);
      if (run.length >= 2) {
        items.push(
          ...run.map((item) => ({ ...item, evidence: evidence("label", blocks[i].text) })),
        );
        i += run.length;
        continue;
      }
      let end = i + 2;
      while (
        end < Math.min(blocks.length, i + 8) &&
        !TOTAL_ROW.test(foldKeepingOffsets(blocks[end].text))
      ) end++;
      const item = {
        name: blocks[i + 1].text,
        block: i + 1,
        evidence: evidence("label", blocks[i].text),
      };
      items.push(describe(item, blocks, i + 1, end));
      // Past the item's detail lines: their values are not names of further items.
      let k = i + 2;
      for (let kind; k < end && (kind = attributeKind(foldKeepingOffsets(blocks[k].text)));) {
        k += kind === "label" ? 2 : 1;
      }
      i = k - 1;
      continue;
    }
    // The attribute lines first: most blocks have none, and then the name test is moot.
    let attributes = 0;
    let j = i + 1;
    for (; j < Math.min(blocks.length, i + 6); j++) {
      const kind = attributeKind(foldKeepingOffsets(blocks[j].text));
      if (kind === "counts") attributes++;
      else if (kind === "label") {
        // A lone label (`Size` / `L` in two blocks): its value is the next block.
        attributes++;
        j++;
      } else if (sameRow(blocks[j], blocks[i])) continue; // a cell of the name's own row
      else if (attributes > 0 && !kind && moneyValue(blocks[j].text)) {
        // The item's figure right after its details (`Qty: 1` / `$42.00`) closes the item.
        j++;
        break;
      } else if (kind !== "neutral" && attributes > 0) break;
      else if (attributes === 0 && j > i + 1 && kind !== "neutral") break;
      // Boilerplate never stands between a name and its details (`Commande n° 7712`).
      // A product code line (`Art.-Nr.: 123`) may: it is the item's own.
      else if (
        attributes === 0 && kind !== "neutral" && isBoilerplate(blocks[j]) &&
        !isOtherId(blocks[j].text)
      ) break;
    }
    // The item's price may stand alone under its details (`Cantidad: 1` / `64,90 €`).
    if (attributes > 0 && j < Math.min(blocks.length, i + 6) && moneyValue(blocks[j].text)) j++;
    if (attributes === 0) {
      // `Name - Taille : M - Qté : 1`: a name carrying its own labelled details is an item.
      const { name, details } = splitLine(blocks[i].text);
      if (details.length > 0 && isName({ ...blocks[i], text: name })) {
        const item = { name, block: i, evidence: evidence("generic", "item details") };
        // The other cells of its row (`Name - Size 10` | `$139.95`) are its own too.
        let end = i + 1;
        while (end < Math.min(blocks.length, i + 6) && sameRow(blocks[end], blocks[i])) end++;
        items.push(describe(item, blocks, i, end));
        i = end - 1;
        continue;
      }
    }
    if (
      attributes > 0 && isName(blocks[i]) && !isLabel(blocks[i].text, "quantity") &&
      !valueOfLabel(blocks, i) && attributeKind(foldKeepingOffsets(blocks[i].text)) !== "neutral"
    ) {
      const at = i + 1 < j && isBrandLine(blocks[i], blocks[i + 1], isName) ? i + 1 : i;
      const item = {
        name: blocks[at].text,
        block: at,
        evidence: evidence("generic", "item details"),
      };
      items.push(describe(item, blocks, at, j));
      i = j - 1;
    }
  }
  return items;
}

/**
 * The line items of a message, first method that finds any: image-anchored product rows, an
 * item table, then plain lists. `storeNames` keeps logos (alt text = the store) out.
 */
export function findItems(all: Block[], storeNames: string[], subject = ""): Item[] {
  // The heading of an item list (`In this parcel`, `Artikel`) is never an item itself.
  const isName: NameTest = (b) =>
    nameLike(b.text) && !isBoilerplate(b, subject) && !itemsHeading(b.text);
  // Recommendations after the order ("Keep shopping for", "You may also like") are not items.
  const cut = all.findIndex((b) => RECOMMENDATIONS.test(foldKeepingOffsets(b.text)));
  const blocks = cut > 0 ? all.slice(0, cut) : all;
  // Tried in order, each only when the ones before found nothing.
  const methods = [
    () => imageItems(blocks, storeNames, isName),
    () => tableItems(blocks, isName),
    () => textTableItems(blocks, isName, (folded) => TOTAL_ROW.test(folded)),
    () => listItems(blocks, isName),
    () => countedItems(blocks, isName),
    () => labelledItems(blocks, isName, (folded) => TOTAL_ROW.test(folded)),
    () => pricedRows(blocks, isName, (folded) => TOTAL_ROW.test(folded)),
  ];
  for (const find of methods) {
    const method = find();
    const unique = method.filter((item, i) =>
      item.name && method.findIndex((o) => o.name === item.name) === i
    );
    if (unique.length > 0) return unique.slice(0, MAX_ITEMS);
  }
  return [];
}

/** `Name (+N more)` as the fixtures and the inbox show a multi-item order. */
export function itemSummary(items: Item[]): string | undefined {
  if (items.length === 0) return undefined;
  return items.length === 1 ? items[0].name : `${items[0].name} (+${items.length - 1} more)`;
}
