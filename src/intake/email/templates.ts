/**
 * Built-in templates: what intake knows about the stores and platforms users buy from, as data.
 * A template is recognised by the real sender's domain (or, for platforms that send from the
 * shop's own domain, by markers in the mail), and adds the store's name, subject rules for
 * status and for mails that are never orders, and the trust that a known store's mail reads as
 * an order. Fields still come from the generic reader. `GET /api/templates` lists `BUILT_IN`.
 */
import type { Phase } from "./signals.ts";

export type SubjectRule = [RegExp, Phase | "ignore"];

export interface BuiltInTemplate {
  id: string;
  name: string;
  /** Sender domains (a domain matches itself and its subdomains). */
  stores: string[];
  /** The store name orders get; absent for platforms (the sender's display name is the store). */
  storeName?: string;
  /** Recognises a platform mail sent from the shop's own domain. */
  marker?: { messageId?: RegExp; body?: RegExp };
  /** Subject rules, first match wins; `ignore` marks mails that are never orders. */
  subjects?: SubjectRule[];
  /** Sender local parts whose mails are never orders (review requests, launches). */
  ignoreSenders?: RegExp;
}

const SHOPIFY_SUBJECTS: SubjectRule[] = [
  [/refund notification|refund for order/i, "ignore"],
  [/cancel+ed/i, "canceled"],
  [/has been delivered|have been delivered/i, "delivered"],
  [/out for delivery/i, "out_for_delivery"],
  [/on the way|shipping confirmation|shipping update|has shipped/i, "shipped"],
  [/confirm|order #?\S+ placed|thank you for your (?:order|purchase)/i, "confirmed"],
];

export const BUILT_IN: readonly BuiltInTemplate[] = [
  {
    id: "shopify",
    name: "Shopify default notifications",
    stores: ["t.shopifyemail.com", "shopifyemail.com"],
    marker: {
      messageId: /@shopify\.com>?$/i,
      body: /cdn\.shopify\.com\/shopifycloud\/shopify\/assets\/themes_support\/notifications/i,
    },
    subjects: SHOPIFY_SUBJECTS,
  },
  {
    id: "woocommerce",
    name: "WooCommerce default emails",
    stores: [],
    marker: { body: /\/wp-content\/|\[order #\d+\]|woocommerce/i },
    subjects: [
      [/is now complete|is on its way|has been fulfilled/i, "shipped"],
      [/has been cancel+ed/i, "canceled"],
      [/has been received|order received/i, "confirmed"],
    ],
  },
  {
    id: "magento",
    name: "Magento 2 / Adobe Commerce default emails",
    stores: [],
    marker: {
      body:
        /your shipment #\s*\S+ for order #|\/media\/catalog\/product\/cache\/|\/media\/email\/logo\//,
    },
    subjects: [
      [/shipment|has shipped/i, "shipped"],
      [/cancel+ed/i, "canceled"],
      [/order confirmation|new order/i, "confirmed"],
    ],
  },
  {
    id: "amazon",
    name: "Amazon",
    storeName: "Amazon",
    stores: [
      "amazon.com",
      "amazon.de",
      "amazon.co.uk",
      "amazon.fr",
      "amazon.es",
      "amazon.it",
      "amazon.ca",
      "amazon.nl",
      "amazon.com.mx",
      "amazon.com.au",
      "amazon.co.jp",
    ],
    ignoreSenders:
      /^(?:customer-reviews|store-news|marketplace-messages|no-reply-aws|account-update)/i,
    subjects: [
      [/your opinion|rate your|review|レビュー|評価/i, "ignore"],
      [
        /^(?:delivered|zugestellt|livr[ée]|entregado|consegnato|bezorgd)\b|配達(?:が)?完了|お届け済み/i,
        "delivered",
      ],
      [
        /^(?:out for delivery|in zustellung|en cours de livraison|en reparto)\b/i,
        "out_for_delivery",
      ],
      [
        /^(?:shipped|versandt|versendet|exp[ée]di[ée]|enviado|spedito)\b|versandbest[äa]tigung|has (?:shipped|been dispatched)|wurde versandt/i,
        "shipped",
      ],
      [/発送しました|発送済み|出荷/, "shipped"],
      [/cancel+ed|storniert|annul[ée]e?|cancelado|キャンセル/i, "canceled"],
      [
        /^(?:ordered|bestellt|command[ée]|pedido)\b|bestellung von|your amazon(?:\.\w+)+ order of|でのご注文|ご注文の確認/i,
        "confirmed",
      ],
    ],
  },
  {
    id: "nike",
    name: "Nike and SNKRS",
    storeName: "Nike",
    stores: ["nike.com", "official.nike.com", "notifications.nike.com"],
    subjects: [
      [/didn't get 'em|not selected/i, "ignore"],
      [/delivered/i, "delivered"],
      [/shipped|on its way/i, "shipped"],
      [/cancel+ed/i, "canceled"],
      [/got 'em|thanks for your order|order (?:received|confirmed)/i, "confirmed"],
    ],
  },
  {
    id: "adidas",
    name: "adidas and CONFIRMED",
    storeName: "adidas",
    stores: ["adidas.com", "adidas.de", "adidas.co.uk", "adidas.fr", "adidas.es"],
  },
  {
    id: "footlocker",
    name: "Foot Locker",
    storeName: "Foot Locker",
    stores: ["footlocker.com", "footlocker.de", "footlocker.co.uk", "footlocker.eu"],
    ignoreSenders: /^(?:launch|flx)/i,
  },
  { id: "champs", name: "Champs Sports", storeName: "Champs Sports", stores: ["champssports.com"] },
  {
    id: "bestbuy",
    name: "Best Buy",
    storeName: "Best Buy",
    stores: ["bestbuy.com", "emailinfo.bestbuy.com"],
  },
  { id: "target", name: "Target", storeName: "Target", stores: ["target.com", "oe.target.com"] },
  { id: "walmart", name: "Walmart", storeName: "Walmart", stores: ["walmart.com"] },
  {
    id: "ebay",
    name: "eBay",
    storeName: "eBay",
    stores: ["ebay.com", "ebay.de", "ebay.co.uk", "ebay.fr", "ebay.es"],
  },
  {
    id: "apple",
    name: "Apple Store",
    storeName: "Apple Store",
    stores: ["apple.com", "orders.apple.com"],
  },
  {
    id: "stockx",
    name: "StockX",
    storeName: "StockX",
    stores: ["stockx.com"],
    subjects: [[/\bbid\b|\bask\b|price alert/i, "ignore"]],
  },
  { id: "goat", name: "GOAT", storeName: "GOAT", stores: ["goat.com"] },
  {
    id: "zalando",
    name: "Zalando",
    storeName: "Zalando",
    stores: [
      "zalando.de",
      "zalando.com",
      "zalando.fr",
      "zalando.es",
      "zalando.it",
      "zalando.nl",
      "zalando.co.uk",
      "zalando.at",
      "zalando.ch",
    ],
  },
  {
    id: "pokemoncenter",
    name: "Pokémon Center",
    storeName: "Pokémon Center",
    stores: ["pokemoncenter.com"],
  },
  {
    id: "endclothing",
    name: "END. Clothing",
    storeName: "END. Clothing",
    stores: ["endclothing.com"],
    ignoreSenders: /^launch/i,
  },
  { id: "ssense", name: "SSENSE", storeName: "SSENSE", stores: ["ssense.com"] },
  {
    id: "supreme",
    name: "Supreme",
    storeName: "Supreme",
    stores: ["supremenewyork.com", "supreme.com"],
  },
  { id: "mrporter", name: "MR PORTER", storeName: "MR PORTER", stores: ["mrporter.com"] },
  {
    id: "jdsports",
    name: "JD Sports",
    storeName: "JD Sports",
    stores: ["jdsports.co.uk", "jdsports.com", "jdsports.de", "jdsports.fr", "jdsports.es"],
  },
  { id: "fnac", name: "Fnac", storeName: "Fnac", stores: ["fnac.com"] },
  { id: "courir", name: "Courir", storeName: "Courir", stores: ["courir.com"] },
  {
    id: "elcorteingles",
    name: "El Corte Inglés",
    storeName: "El Corte Inglés",
    stores: ["elcorteingles.es"],
  },
  { id: "zara", name: "ZARA", storeName: "ZARA", stores: ["zara.com"] },
];

/** The built-in list as `GET /api/templates` shows it. */
export function builtInTemplates(): { id: string; name: string; stores: string[] }[] {
  return BUILT_IN.map(({ id, name, stores }) => ({ id, name, stores: [...stores] }));
}

export function domainMatches(address: string, domain: string): boolean {
  const host = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  return host === domain || host.endsWith(`.${domain}`);
}

/** The built-in template of a mail: by sender domain, else by a platform's markers. */
export function matchBuiltIn(
  sender: string | undefined,
  messageId: string | undefined,
  signature: string,
): BuiltInTemplate | undefined {
  if (sender) {
    const byDomain = BUILT_IN.find((t) => t.stores.some((d) => domainMatches(sender, d)));
    if (byDomain) return byDomain;
  }
  return BUILT_IN.find((t) =>
    t.marker && ((t.marker.messageId && messageId && t.marker.messageId.test(messageId)) ||
      (t.marker.body && t.marker.body.test(signature)))
  );
}

/** What a template's subject rules say about a subject. */
export function subjectRule(
  template: BuiltInTemplate | undefined,
  subject: string,
): Phase | "ignore" | undefined {
  return template?.subjects?.find(([re]) => re.test(subject))?.[1];
}
