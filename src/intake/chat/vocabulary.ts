/**
 * What a label in a checkout post means. Labels are matched whole, after normalising: markdown,
 * emoji and invisible characters removed, case and spacing ignored, numbering dropped
 * (`Product (1)`, `Product #2`), a parenthesised part tried on its own (`订单号(order#)`,
 * `Size(s)`) and a `Size/Color` label split into its parts. Private labels are recognised
 * first and never read, however else they could match (`Order Email`, `Profile Name`).
 */
import { cleanText } from "./text.ts";

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

/** A label's meaning: an order field, a private value, or a known label that gives nothing. */
export type LabelKind = FieldKind | "private" | "other";

/** Spellings seen in the bots' posts (research: SOURCES.md A.3, intake.md §6), as `keyOf` gives them. */
const VOCABULARY: Record<FieldKind, readonly string[]> = {
  item: [
    "product",
    "products",
    "productname",
    "producttitle",
    "item",
    "items",
    "itemname",
    "itemtitle",
    "lineitem",
    "lineitems",
    "article",
    "商品",
  ],
  store: [
    "store",
    "storename",
    "site",
    "sitename",
    "website",
    "retailer",
    "shop",
    "shopname",
    "merchant",
    "region",
    "srore",
  ],
  orderNumber: [
    "order",
    "order#",
    "ordernumber",
    "ordernum",
    "orderno",
    "ordernr",
    "orderid",
    "ordercode",
    "orderref",
    "orderreference",
    "ordernumver",
    "confirmation",
    "confirmation#",
    "confirmationnumber",
    "confirmationno",
    "confirmationcode",
    "conf#",
    "订单号",
    "订单编号",
  ],
  price: ["price", "amount", "cost", "itemprice", "productprice", "unitprice", "priceeach"],
  total: [
    "total",
    "ordertotal",
    "grandtotal",
    "carttotal",
    "totalprice",
    "totalpaid",
    "totalamount",
    "checkouttotal",
  ],
  quantity: ["qty", "quantity", "quantities", "units"],
  size: ["size", "sz", "shoesize", "尺码"],
  trackingNumber: [
    "tracking",
    "trackingnumber",
    "tracking#",
    "trackingno",
    "trackingid",
    "trackingcode",
  ],
  trackingUrl: ["trackingurl", "trackinglink", "trackingpage"],
  carrier: ["carrier", "courier", "shippingcarrier"],
  estimatedDelivery: ["estimateddelivery", "eta", "deliverydate", "estimatedarrival", "arrives"],
};

/** Labels bots print that give no order field (known, so a `Label` line is not a value). */
const OTHER = [
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
  "status",
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
  /e-?mail|proxy|proxies|profile|payment|\bcard\b|\bcc\b|account|\bacct|password|passwd|login|webhook|\bip\b|customer|buyer|recipient|address|phone|billing|cvv|discord|\buser|\btask|\bmode\b|模式|delay|module|share|captcha|3d ?secure/;

const KIND_BY_KEY = new Map<string, LabelKind>([
  ...Object.entries(VOCABULARY).flatMap(([kind, keys]) =>
    keys.map((key) => [key, kind as FieldKind] as const)
  ),
  ...OTHER.map((key) => [key, "other" as const] as const),
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
}

/** Labels repeat from post to post (`Store`, `Product`...): their meanings are remembered. */
const MEANINGS = new Map<string, Readonly<LabelMeaning> | null>();
const MEANINGS_MAX = 5000;

/** What a label means, or null for a label we do not know. */
export function labelMeaning(raw: string): Readonly<LabelMeaning> | null {
  const known = MEANINGS.get(raw);
  if (known !== undefined) return known;
  const meaning = readLabel(raw);
  if (MEANINGS.size >= MEANINGS_MAX) MEANINGS.clear();
  MEANINGS.set(raw, meaning && Object.freeze(meaning));
  return meaning;
}

function readLabel(raw: string): LabelMeaning | null {
  const text = cleanText(raw).normalize("NFKC").toLowerCase()
    .replace(/\s*\(\s*\d+\s*\)/g, " ") // Product (1)
    .replace(/#\s*\d+\b/g, " ") // Product #2
    .replace(/(^|\s)\d+(?=\s|$)/g, " ") // Product 1 Name
    .replace(/\s*:+\s*$/, "")
    .trim();
  if (text === "") return null;
  if (PRIVATE.test(text)) return { kind: "private" };
  const outside = text.replace(/\([^()]*\)/g, " ");
  const inside = [...text.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]);
  // A field kind in any variant beats a known label that gives nothing (`Size(s)` is a size).
  const kinds = [outside, text, ...inside].map((v) => KIND_BY_KEY.get(keyOf(v)));
  const kind = kinds.find((k) => k !== undefined && k !== "other") ?? kinds.find(Boolean);
  if (kind) return { kind };
  const parts = outside.split("/");
  if (parts.length > 1) {
    for (const [index, part] of parts.entries()) {
      const kind = KIND_BY_KEY.get(keyOf(part));
      if (kind && kind !== "other") return { kind, part: { index, count: parts.length } };
    }
  }
  return null;
}
