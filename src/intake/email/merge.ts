/**
 * The trust order of intake's sources, field by field: schema.org markup > a matching custom
 * template > a built-in template (the store's name) > generic extraction. Money keeps the
 * printed display string: a markup price is shown as the figure the mail prints for it.
 */
import type { MessageFields } from "../../domain/orders/order.ts";
import { asWrittenIn, detectCarrier } from "../../domain/tracking/number.ts";
import { findMoney, type Money } from "../money.ts";
import { normaliseLine } from "../text.ts";
import { ourCarrierNamed } from "./carrier_names.ts";
import type { CustomValues } from "./custom_fields.ts";
import type { Extracted } from "./extract.ts";
import { type Item, itemSummary } from "./items.ts";
import type { Block } from "./html.ts";
import type { Letter } from "./letter.ts";
import type { MarkupItem, MarkupOrder } from "./markup.ts";
import type { BuiltInTemplate } from "./templates.ts";
import { type Evidence, evidence, type FieldEvidence } from "./evidence.ts";

export interface Sources {
  letter: Letter;
  generic: Extracted;
  markup: MarkupOrder | null;
  builtIn?: BuiltInTemplate;
  custom?: CustomValues;
  customId?: string;
}

/** Words senders add to a store's name in their display name. */
const SENDER_NOISE =
  /\s*(?:[-|–]\s*)?\b(?:transactions?|orders?|order updates?|notifications?|team|customer (?:service|care)|support|service|no-?reply|mailer|shipping|versand|kundenservice|service client)\s*$/i;
/** `Thanks for shopping at X.`, `Vielen Dank für Ihren Einkauf bei X!`, `Merci d'avoir commandé chez X`. */
const SHOPPING_AT =
  /\b(?:thanks? (?:you )?for (?:shopping|your (?:order|purchase)) (?:at|with|from)|vielen dank f(?:ü|u)r (?:ihren|deinen) einkauf bei|merci d'avoir (?:commande|commandé|acheté|achete) (?:chez|sur)|gracias por (?:comprar|tu compra) en|obrigad[oa] por comprar (?:na|no|em)|tak fordi du handlede hos|tack f(?:ö|o)r att du handlade hos|takk for at du handlet hos)\s+([\p{Lu}0-9][\p{L}\p{N}&'’. -]{0,40}?)\s*[.!,]?$/iu;
/** `このたびは青嵐窯 公式オンラインショップをご利用いただき`: the shop a Japanese mail thanks you for using. */
const JAPANESE_SHOP =
  /(?:この度は|このたびは|いつも)、?(.{2,40}?)(?:を|で)(?:ご利用|お買い(?:上げ|物))/u;
const TLD = /\.(?:com|de|co\.uk|fr|es|it|nl|net|org|shop|store|eu|ch|at|ca|us|co)$/i;

/**
 * `Vielen Dank für Deine Bestellung bei Bergfreunde.de`: a store whose own text writes its name
 * with its domain (as a word, not inside a link or an address) is called so.
 */
function writtenWithDomain(name: string, blocks: Block[]): boolean {
  return TLD.test(name) && writtenAs(name, blocks, "(?<![\\p{L}\\p{N}./@:-])");
}

/**
 * `Ihre Bestellung bei Löwen-Drogerie Versand`: a sender name the mail's own text gives as the
 * place of the order (after `bei`, `at`, `chez`...) is the store's whole name, noise words and all.
 */
function orderedAtFullName(name: string, blocks: Block[]): boolean {
  return SENDER_NOISE.test(name) &&
    writtenAs(name, blocks, "(?<![\\p{L}\\p{N}])(?:bei|at|chez|bij|en|presso|hos)\\s+");
}

/**
 * `Falken-Drogerie Versand <kunde@falken-drogerie-versand.example>`: a sender name whose letters, noise
 * word and all, are a label of the sender's own domain is the store's whole name.
 */
function domainSpellsName(name: string, address: string | undefined): boolean {
  const letters = name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  if (letters.length < 4 || !SENDER_NOISE.test(name)) return false;
  const domain = address?.split("@")[1]?.toLowerCase() ?? "";
  return domain.split(".").slice(0, 6).some((label) => label.replace(/-/g, "") === letters);
}

/** Whether the first blocks write `name` as a word after `before` (a regex source). */
function writtenAs(name: string, blocks: Block[], before: string): boolean {
  if (name.length > 60) return false;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const word = new RegExp(
    `${before}${escaped}(?![\\p{L}\\p{N}/@-]|\\.[\\p{L}\\p{N}])`,
    "iu",
  );
  return blocks.slice(0, 80).some((b) => word.test(b.text));
}

/** The store's name as the sender presents it (`Amazon.com` -> `Amazon`, `Etsy Transactions` -> `Etsy`). */
export function storeFromSender(
  name: string | undefined,
  address: string | undefined,
  blocks: Block[] = [],
): string | undefined {
  let store = normaliseLine(name ?? "").replace(/^["']|["']$/g, "").trim();
  if (/@/.test(store)) store = "";
  if (!writtenWithDomain(store, blocks)) store = store.replace(TLD, "");
  if (!orderedAtFullName(store, blocks) && !domainSpellsName(store, address)) {
    store = store.replace(SENDER_NOISE, "").trim();
  }
  if (store) return store;
  for (const b of blocks.slice(0, 80)) {
    const named = (SHOPPING_AT.exec(b.text) ?? JAPANESE_SHOP.exec(b.text))?.[1]?.replace(TLD, "")
      .trim();
    if (named) return named;
  }
  const domain = address?.split("@")[1]?.split(".").slice(-2, -1)[0];
  return domain ? domain.charAt(0).toUpperCase() + domain.slice(1) : undefined;
}

/** The printed figure for an amount (cents), if the mail prints one. */
function printed(letter: Letter, cents: number | undefined, prefer?: Money): string | undefined {
  if (cents === undefined) return undefined;
  if (prefer?.cents === cents) return prefer.display;
  for (const b of letter.blocks) {
    const money = findMoney(b.text).find((m) => m.cents === cents);
    if (money) return money.display;
  }
  return undefined;
}

function markupItems(m: MarkupOrder): MarkupItem[] {
  return m.items.length > 0 ? m.items : m.deliveries.flatMap((d) => d.items);
}

function fromMarkup(m: MarkupOrder, s: Sources): Partial<MessageFields> {
  const out: Partial<MessageFields> = {};
  const { generic, letter } = s;
  if (m.orderNumber) out.orderNumber = m.orderNumber;
  const items = markupItems(m);
  if (items.length > 0) {
    out.itemSummary = itemSummary(items.map((i) => ({ name: i.name, block: 0 }) as Item));
    if (items[0].image) out.imageUrl = items[0].image;
    if (items.length === 1) {
      const price = printed(letter, items[0].priceCents, generic.price);
      if (price) out.price = price;
      if (items[0].quantity) out.quantity = items[0].quantity;
    }
  }
  const total = printed(letter, m.priceCents, generic.total);
  if (total) out.total = total;
  const delivery = m.deliveries.find((d) => d.trackingNumber) ?? m.deliveries[0];
  if (delivery?.trackingNumber) {
    const detection = detectCarrier(delivery.trackingNumber);
    out.trackingNumber = detection.valid
      ? detection.trackingNumber
      : delivery.trackingNumber.replace(/\s/g, "");
    const named = ourCarrierNamed(delivery.carrierName ?? "");
    const carrier = detection.valid ? detection.carrier : named;
    if (carrier) out.carrier = carrier;
  }
  if (delivery?.trackingUrl && /^https?:\/\//i.test(delivery.trackingUrl)) {
    out.trackingUrl = delivery.trackingUrl;
  }
  const arrival = /^(\d{4}-\d{2}-\d{2})/.exec(delivery?.expectedArrival ?? "")?.[1];
  if (arrival) out.estimatedDelivery = arrival;
  if (m.merchant) out.store = m.merchant;
  return out;
}

function fromGeneric(g: Extracted): Partial<MessageFields> {
  return {
    ...(g.orderNumber ? { orderNumber: g.orderNumber } : {}),
    ...(g.itemSummary ? { itemSummary: g.itemSummary } : {}),
    ...(g.trackingNumber ? { trackingNumber: g.trackingNumber } : {}),
    ...(g.trackingNumber && g.carrier ? { carrier: g.carrier } : {}),
    ...(g.trackingUrl ? { trackingUrl: g.trackingUrl } : {}),
    ...(g.total ? { total: g.total.display } : {}),
    ...(g.items.length === 1 && g.price ? { price: g.price.display } : {}),
    ...(g.items.length === 1 && g.quantity ? { quantity: g.quantity } : {}),
    ...(g.items.length === 1 && g.size ? { size: g.size } : {}),
    ...(g.imageUrl ? { imageUrl: g.imageUrl } : {}),
    ...(g.estimatedDelivery ? { estimatedDelivery: g.estimatedDelivery } : {}),
  };
}

/** One source's fields and where they came from (`how` for each field it set). */
type Layer = [Partial<MessageFields>, (field: string) => Evidence];

/** Later sources fill only what earlier (more trusted) ones left empty; each field keeps its evidence. */
function layer(...sources: Layer[]): { fields: Partial<MessageFields>; evidence: FieldEvidence } {
  const out: Record<string, unknown> = {};
  const how: Record<string, Evidence> = {};
  for (const [source, why] of sources) {
    for (const [k, v] of Object.entries(source)) {
      if (v !== undefined && out[k] === undefined) {
        out[k] = v;
        how[k] = why(k);
      }
    }
  }
  return { fields: out as Partial<MessageFields>, evidence: how as FieldEvidence };
}

export function merge(
  s: Sources,
): {
  fields: Partial<MessageFields>;
  evidence: FieldEvidence;
  template: string;
  hasMarkup: boolean;
} {
  const markup = s.markup ? fromMarkup(s.markup, s) : {};
  const hasMarkup = !!(markup.orderNumber || markup.trackingNumber);
  const store = storeFromSender(s.letter.from?.name, s.letter.from?.address, s.letter.blocks);
  const generic = fromGeneric(s.generic);
  if (hasMarkup && s.markup && markupItems(s.markup).length > 1) {
    // The markup lists several items: one item's price, size or quantity is not the order's.
    delete generic.price;
    delete generic.quantity;
    delete generic.size;
  }
  const found = s.generic.evidence as Record<string, Evidence | undefined>;
  const { fields, evidence: how } = layer(
    [hasMarkup ? markup : {}, () => evidence("markup", "schema.org")],
    [s.custom ?? {}, () => evidence("template", s.customId)],
    [
      s.builtIn?.storeName ? { store: s.builtIn.storeName } : {},
      () => evidence("template", s.builtIn?.id),
    ],
    [generic, (k) => found[k] ?? evidence("generic")],
    [
      store ? { store } : {},
      () => evidence("generic", s.letter.from?.name ? "sender name" : "sender"),
    ],
  );
  if (fields.trackingNumber) {
    const text = s.letter.blocks.map((b) => b.text).join("\n");
    fields.trackingNumber = asWrittenIn(text, fields.trackingNumber);
  }
  // A tracking number's carrier is the one detection names; a template's own word is kept
  // only when detection knows no carrier for it.
  if (!fields.trackingNumber) {
    delete fields.carrier;
    delete how.carrier;
  }
  const template = hasMarkup ? "markup" : s.customId ?? s.builtIn?.id ?? "generic";
  return { fields, evidence: how, template, hasMarkup };
}
