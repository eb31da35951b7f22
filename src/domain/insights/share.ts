/**
 * Share cards (CONTRACT.md "Shares"): the public text of a card, frozen when it is created,
 * and the SVG it is drawn from. A card shows only the item name, store, image, status and the
 * money the owner chose; never order or tracking numbers, emails or addresses.
 */
import type { Profitability, ProfitRange } from "./profitability.ts";
import type { Order, OrderStatus } from "../orders/order.ts";

export const SHARES_MAX = 500;
export const TITLE_MAX = 120;

export interface CardText {
  title: string;
  lines: string[];
  imageUrl?: string;
}

/** `1234567` -> `12,345.67` (no currency: the service does not know it). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}${whole}.${String(abs % 100).padStart(2, "0")}`;
}

const STATUS_LABEL: Record<OrderStatus, string> = {
  ordered: "Ordered",
  shipped: "Shipped",
  delivered: "Delivered",
  canceled: "Canceled",
  issue: "Needs attention",
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/g;

/**
 * Text safe for a public card: the order's own numbers and anything shaped like an email are
 * taken out, whitespace collapsed, cut to `max` characters.
 */
export function publicText(
  text: string,
  order: Pick<Order, "orderNumber" | "trackingNumber">,
  max: number,
) {
  let out = text.replace(EMAIL, "");
  for (const secret of [order.orderNumber, order.trackingNumber]) {
    const bare = secret?.trim().replace(/^#/, "");
    if (bare) out = out.replace(new RegExp(`#?${escapeRegExp(bare)}`, "gi"), "");
  }
  out = out.replace(/\s+/g, " ").trim();
  return out.length > max ? `${out.slice(0, max - 1).trimEnd()}…` : out;
}

/** The card of an order; money only when `showPrices`. */
export function orderCard(order: Order, showPrices: boolean): CardText {
  const title = publicText(order.itemSummary, order, TITLE_MAX) || "An order";
  const lines: string[] = [];
  if (order.store) {
    const store = publicText(order.store, order, 60);
    if (store) lines.push(`Store: ${store}`);
  }
  lines.push(`Status: ${STATUS_LABEL[order.status]}`);
  if (showPrices) {
    const { costCents: cost, salePriceCents: sale } = order;
    const money: string[] = [];
    if (cost !== undefined) money.push(`Paid: ${formatCents(cost)}`);
    if (sale !== undefined) money.push(`Sold: ${formatCents(sale)}`);
    if (cost !== undefined && sale !== undefined) money.push(`Profit: ${formatCents(sale - cost)}`);
    if (money.length) lines.push(money.join(" · "));
  }
  const card: CardText = { title, lines };
  if (order.imageUrl?.startsWith("https://")) card.imageUrl = order.imageUrl;
  return card;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `March 2025`, `Q1 2025`, `2025`, `All time`. */
export function periodLabel(range: ProfitRange, today: string): string {
  const year = today.slice(0, 4);
  const month = Number(today.slice(5, 7));
  if (range === "month") return `${MONTHS[month - 1]} ${year}`;
  if (range === "quarter") return `Q${Math.ceil(month / 3)} ${year}`;
  if (range === "year") return year;
  return "All time";
}

/** The card of a profitability answer. */
export function profitCard(p: Profitability): CardText {
  return {
    title: `Reselling profit, ${periodLabel(p.range, p.to)}`,
    lines: [
      `Profit: ${formatCents(p.profitCents)}`,
      `Revenue: ${formatCents(p.revenueCents)}`,
      `Orders: ${p.orders.toLocaleString("en-US")}`,
    ],
  };
}
