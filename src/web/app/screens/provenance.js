// @ts-check
/**
 * Where an order's fields came from, in people's words: one sentence per message ("Item name,
 * order number and total from the order email of Nov 24"). Pure: no DOM, no requests.
 */

/** @typedef {import("../api.js").Schemas["IntakeEntry"]} IntakeEntry */

/** Order fields as people call them, never the API's names. */
const FIELD_WORDS = /** @type {Record<string, string>} */ ({
  itemSummary: "item name",
  orderNumber: "order number",
  store: "store",
  trackingNumber: "tracking number",
  carrier: "carrier",
  total: "total",
  price: "price",
  costCents: "cost",
  salePriceCents: "sale price",
  receivedAt: "order date",
  estimatedDelivery: "estimated delivery",
  actualDelivery: "delivery date",
  status: "status",
  imageUrl: "image",
  size: "size",
  quantity: "quantity",
  trackingUrl: "tracking page",
  sourceId: "source",
  shippedAt: "shipping date",
});

/**
 * Fields a message sets along with what it says, left out of its sentence: the message's kind
 * already tells its status and shipping date, and its date is the order's date.
 */
const IMPLIED = new Set(["status", "shippedAt", "receivedAt"]);

/**
 * "Item name, order number and total": fields as a list for a sentence's start.
 * @param {readonly string[]} fields
 */
export function fieldWords(fields) {
  const words = fields.map((f) => FIELD_WORDS[f] ?? "another detail");
  const unique = [...new Set(words)];
  const text = unique.length > 1
    ? `${unique.slice(0, -1).join(", ")} and ${unique[unique.length - 1]}`
    : unique.join("");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a message is called by the status it said, per channel. */
const KIND_WORDS = {
  email: {
    ordered: "order email",
    shipped: "shipping email",
    delivered: "delivery email",
    canceled: "cancellation email",
    issue: "email about a problem",
  },
  chat: {
    ordered: "checkout post",
    shipped: "shipping post",
    delivered: "delivery post",
    canceled: "cancellation post",
    issue: "post about a problem",
  },
};

/**
 * "order email", "shipping email", "checkout post": a message by what it said; an entry
 * stored before messages kept what they said is just an email or a post.
 * @param {Pick<IntakeEntry, "channel" | "said">} entry
 */
function messageKind(entry) {
  if (entry.said) return KIND_WORDS[entry.channel][entry.said];
  return entry.channel === "email" ? "email" : "post";
}

/** Day formatters by zone ("Nov 24"). */
const days = new Map();

/**
 * @param {string} iso
 * @param {string | undefined} timeZone
 */
function day(iso, timeZone) {
  let f = days.get(timeZone ?? "");
  if (!f) {
    const options = /** @type {const} */ ({ month: "short", day: "numeric" });
    try {
      f = new Intl.DateTimeFormat(undefined, { ...options, timeZone });
    } catch {
      f = new Intl.DateTimeFormat(undefined, options); // an unknown zone: the browser's own
    }
    days.set(timeZone ?? "", f);
  }
  return f.format(new Date(iso));
}

/**
 * One sentence for what a message set on its order, or "" when it set nothing:
 * "Tracking number and carrier from the shipping email of Nov 26". The day is the message's
 * own (when it was sent), else when it was received.
 * @param {Pick<IntakeEntry, "channel" | "said" | "setFields" | "receivedAt" | "sentAt">} entry
 * @param {string} [timeZone] the account's
 */
export function provenance(entry, timeZone) {
  const set = entry.setFields ?? [];
  if (set.length === 0) return "";
  const told = set.filter((f) => !IMPLIED.has(f));
  // A message that only moved the status says so: "Status from the delivery email of ...".
  const fields = told.length ? told : set.filter((f) => f !== "receivedAt" && f !== "shippedAt");
  const what = fieldWords(fields.length ? fields : set);
  return `${what} from the ${messageKind(entry)} of ${
    day(entry.sentAt ?? entry.receivedAt, timeZone)
  }`;
}
