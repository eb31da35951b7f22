/**
 * Generic extraction: the order fields of a letter from labelled values, line items, money
 * figures, dates and tracking evidence, with no knowledge of the store.
 */
import { type Money, moneyValue } from "../money.ts";
import { foldKeepingOffsets } from "../text.ts";
import { type Day, dayString, headerDay, parseDay } from "./dates.ts";
import type { Block } from "./html.ts";
import { findItems, type Item, itemSummary } from "./items.ts";
import { LAST_FIGURE } from "./item_details.ts";
import { labelledValues } from "./labels.ts";
import { type Evidence, evidence, type FieldEvidence, fromLabel } from "./evidence.ts";
import type { Letter } from "./letter.ts";
import { findTracking, type Tracking } from "./tracking.ts";
import { findOrderNumber, type OrderNumberFields } from "./order_number.ts";

export interface Extracted extends Tracking, OrderNumberFields {
  items: Item[];
  itemSummary?: string;
  total?: Money;
  price?: Money;
  quantity?: number;
  size?: string;
  imageUrl?: string;
  estimatedDelivery?: string;
  /** Where each field found here came from. */
  evidence: FieldEvidence;
}

const SUBTOTAL =
  /^(?:item |items )?sub-?total|^zwischensumme|^sous-total|^shipment total|^subtotal|total (?:savings|discount|tax)|^gesamtkosten netto/;

/** `30,90 € (dont 5,15 € TVA)`, `79,95 € (incluye 13,88 € IVA)`: a note in brackets after the total, read past. */
const NOTE_AFTER = /\s*\([^()]{1,60}\)\s*$/;

function totalValue(raw: string): string | null {
  if (moneyValue(raw)) return raw;
  const bare = raw.replace(NOTE_AFTER, "");
  return bare !== raw && moneyValue(bare) ? bare : null;
}

function findTotal(blocks: Block[]): { money: Money; how: Evidence } | undefined {
  const found = labelledValues(blocks, "total", totalValue, { max: 20 })
    .filter((l) =>
      l.shape !== "column" &&
      !SUBTOTAL.test(foldKeepingOffsets(blocks[labelBlock(blocks, l.block, l.shape)].text))
    );
  if (found.length === 0) return undefined;
  const best = found.filter((l) => l.shape === found[0].shape);
  // Several totals of one shape (a total row and a payment line): the last is the order's.
  const last = best[best.length - 1];
  const money = moneyValue(last.value);
  return money ? { money, how: fromLabel(last) } : undefined;
}

/** The block that holds a value's label (the value's own block, or the one before it). */
function labelBlock(blocks: Block[], block: number, shape: string): number {
  if (shape !== "next") return block;
  for (let i = block - 1; i >= 0; i--) if (blocks[i].text) return i;
  return block;
}

function englishMonthFirst(letter: Letter): boolean {
  const text = foldKeepingOffsets(
    `${letter.subject} ${letter.blocks.slice(0, 30).map((b) => b.text).join(" ")}`,
  );
  const english = (text.match(/\b(?:the|your|order|has|thank|you|and)\b/g) ?? []).length;
  const other =
    (text.match(/\b(?:der|die|und|ihre|deine|votre|les|des|tu|el|los|su)\b/g) ?? []).length;
  return english > other && !/£|€/.test(text);
}

/** `It should be with you by Friday, 14 August.`: a delivery day inside one of the first sentences. */
const DELIVERY_SENTENCE =
  /\b(?:should (?:arrive|be with you|be delivered)|will (?:arrive|be delivered|be with you)|expected to arrive|arrives|arriving|sollte (?:am|bis)|wird voraussichtlich am|devrait arriver|devrait etre livre|llegara|deberia llegar|wordt naar verwachting|dovrebbe arrivare|llega|chega(?:ra)?|sera entregue|forventes leveret|bezorgt (?:je|uw) (?:pakket|bestelling)|liefert (?:dein|ihr) paket|livrera votre colis|entregara tu pedido|consegnera il (?:tuo )?pacco)\s+(?:on |by |le |el |am |bis |il |op )?((?:[^.!?]|(?<=\d)\.){4,40})/;

/**
 * A sentence that ends on a colon and says the parcel will come (`we komen je boodschappen
 * brengen op:`, `We'll deliver your order on:`): the next block's one day is the delivery day.
 */
const DELIVERY_INTRO =
  /\b(?:deliver|bring|arrive|liefern|bringen|zustellen|livrer|livrons|livrerons|entregar|entregaremos|consegnare|consegneremo|bezorgen|brengen|leveren)\b[^.!?]{0,30}:$/;

function deliveryInSentence(
  blocks: Block[],
  anchor: Day | undefined,
  monthFirst: boolean,
): { value: string; how: Evidence } | undefined {
  for (const [i, b] of blocks.slice(0, 40).entries()) {
    if (b.text.length > 400) continue;
    const intro = b.text.split(" ").length >= 4 && DELIVERY_INTRO.exec(foldKeepingOffsets(b.text));
    const next = intro ? blocks.slice(i + 1, i + 3).find((n) => n.text) : undefined;
    const said = next && parseDay(next.text, { anchor, monthFirst });
    if (said) return { value: dayString(said), how: evidence("generic", b.text) };
    const m = DELIVERY_SENTENCE.exec(foldKeepingOffsets(b.text));
    // A sentence, not a label line (`Arrives by Thu, May 21` in an item row is the label path's).
    // A sentence that opens with its verb (`Llega el sábado 21 de noviembre a …`) is long.
    const words = b.text.split(" ").length;
    if (!m || words < 6 || m.index === 0 && words < 8) continue;
    const raw = b.text.slice(m.index + m[0].length - m[1].length, m.index + m[0].length);
    const day = parseDay(raw, { anchor, monthFirst });
    if (day) return { value: dayString(day), how: evidence("generic", m[0]) };
  }
  return undefined;
}

/** A label or column header that says its figure is one piece's. */
const UNIT_WORDS = /\bunit|\beach\b|einzel|stuck|unitaire|unitario|stuk|単価/;

/** A label or column header that names the line's amount (`金額`, `Importe`): unit price × count. */
const LINE_AMOUNT = /金額|\bimporte\b/;

/** Whether a price was read under a label naming the line's amount, not one piece's price. */
const lineAmount = (how: Evidence | undefined) =>
  (how?.kind === "label" || how?.kind === "table") &&
  LINE_AMOUNT.test(foldKeepingOffsets(how.anchor ?? ""));

/**
 * The item's price as one piece's. For several pieces a row's last figure or a plain `Price`
 * column may be the line's total (`Qty: 2` … `$99.98`): a subtotal equal to it says so (no
 * price then), and a last figure is kept only when the subtotal is that many times it. A unit
 * label (`Unit price`, `Einzelpreis`) or a figure said to be each piece's is one piece's.
 */
function unitPrice(item: Item, blocks: Block[]): Money | undefined {
  const { price, quantity } = item;
  const how = item.how?.price;
  // A line's amount is one piece's price only when the line is known to hold one piece.
  if (price && lineAmount(how) && !UNIT_WORDS.test(foldKeepingOffsets(how?.anchor ?? ""))) {
    return quantity === 1 ? price : undefined;
  }
  if (!price || (quantity ?? 1) <= 1 || !how) return price;
  const last = how.anchor === LAST_FIGURE;
  if (!last && (how.kind === "generic" || UNIT_WORDS.test(foldKeepingOffsets(how.anchor ?? "")))) {
    return price;
  }
  const subtotal = labelledValues(blocks, "subtotal", (raw) => moneyValue(raw) ? raw : null, {
    max: 1,
    sentences: false,
  })[0];
  const sum = subtotal && moneyValue(subtotal.value);
  if (sum && sum.cents === price.cents * quantity!) return price;
  return last || (sum && sum.cents === price.cents) ? undefined : price;
}

/** The evidence entries that name a reading (a field found with no evidence gets `generic`). */
function withValues(all: Record<string, Evidence | undefined>): FieldEvidence {
  return Object.fromEntries(Object.entries(all).filter(([, e]) => e !== undefined));
}

/** Every generic field of a letter. */
export function extractFields(letter: Letter, storeNames: string[], now?: number): Extracted {
  const { blocks } = letter;
  const { how: orderHow, ...order } = findOrderNumber(letter);
  const items = findItems(blocks, storeNames, letter.subject);
  const { trackingEvidence, ...tracking } = findTracking(
    blocks,
    order.orderNumber,
    letter.subject,
    `${letter.from?.name ?? ""} ${letter.from?.address ?? ""}`,
  );
  const single = items.length === 1 ? items[0] : undefined;
  const found = findTotal(blocks);
  const total = found?.money;
  let price = single && unitPrice(single, blocks);
  let priceHow = single?.how?.price ?? single?.evidence;
  // A price the item's own reading left out as a line's total is not looked for again.
  if (single && !single.price) {
    const labelled = labelledValues(blocks, "price", (raw) =>
      moneyValue(raw) ? raw : null, { max: 1, sentences: false })[0];
    if (labelled && (single.quantity === 1 || !lineAmount(fromLabel(labelled)))) {
      price = moneyValue(labelled.value) ?? undefined;
      priceHow = fromLabel(labelled);
    }
  }
  // A quantity column whose cell the item's own reading did not reach (the name in a table of
  // its own inside the row): the count under the one `Qty` header of a single-item order.
  let quantity = single?.quantity;
  let quantityHow = single?.how?.quantity ?? single?.evidence;
  if (single && quantity === undefined) {
    const column = labelledValues(
      blocks,
      "quantity",
      (raw) => /^\d{1,3}$/.test(raw.trim()) && Number(raw) >= 1 ? raw.trim() : null,
      {
        max: 2,
        sentences: false,
      },
    ).filter((l) => l.shape === "column");
    if (column.length === 1) {
      quantity = Number(column[0].value);
      quantityHow = fromLabel(column[0]);
    }
  }
  // The mail's own day; a mail without a readable date is taken as written when it is read.
  const anchor = headerDay(letter.date) ?? parseDay(letter.date ?? "") ??
    headerDay(now === undefined ? undefined : new Date(now).toUTCString()) ?? undefined;
  const monthFirst = englishMonthFirst(letter);
  const acceptDay = (raw: string) => {
    const day = parseDay(raw.replace(/^[:\s]+/, ""), { anchor, monthFirst });
    return day ? dayString(day) : null;
  };
  // In a Japanese sentence the label is the topic: `お届け予定日は11月8日です。`.
  const delivery =
    labelledValues(blocks, "estimatedDelivery", acceptDay, { max: 1, sentences: false })[0] ??
      labelledValues(blocks, "estimatedDelivery", acceptDay, { max: 3, to: 60 })
        .find((l) => l.shape === "sentence" && l.label.endsWith("は"));
  const deliveryDay = delivery
    ? { value: delivery.value, how: fromLabel(delivery) }
    : deliveryInSentence(blocks, anchor, monthFirst);
  return {
    ...order,
    ...tracking,
    items,
    ...(items.length > 0 ? { itemSummary: itemSummary(items) } : {}),
    ...(total ? { total } : {}),
    ...(price ? { price } : {}),
    ...(quantity ? { quantity } : {}),
    ...(single?.size ? { size: single.size } : {}),
    ...(items[0]?.image ? { imageUrl: items[0].image } : {}),
    ...(deliveryDay ? { estimatedDelivery: deliveryDay.value } : {}),
    evidence: withValues({
      orderNumber: order.orderNumber ? orderHow : undefined,
      itemSummary: items[0]?.evidence,
      trackingNumber: trackingEvidence,
      carrier: tracking.carrier ? trackingEvidence : undefined,
      trackingUrl: tracking.trackingUrl ? evidence("generic", "link") : undefined,
      total: found?.how,
      price: price ? priceHow : undefined,
      quantity: quantity ? quantityHow : undefined,
      size: single?.size ? single.how?.size ?? single.evidence : undefined,
      imageUrl: items[0]?.image ? evidence("generic", "product image") : undefined,
      estimatedDelivery: deliveryDay?.how,
    }),
  };
}
