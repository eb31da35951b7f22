/**
 * schema.org `Order` and `ParcelDelivery` markup (research/intake.md §5), from JSON-LD scripts
 * and microdata, reduced to what intake reads: order number, merchant, status, price, items and
 * deliveries. Status values compare case-insensitively on their last path segment.
 */
import { parseAmount } from "../money.ts";
import type { MicrodataItem } from "./html.ts";

export interface MarkupItem {
  name: string;
  image?: string;
  priceCents?: number;
  quantity?: number;
}

export interface MarkupDelivery {
  trackingNumber?: string;
  trackingUrl?: string;
  carrierName?: string;
  expectedArrival?: string;
  items: MarkupItem[];
}

export interface MarkupOrder {
  orderNumber?: string;
  merchant?: string;
  status?: "ordered" | "shipped" | "delivered" | "canceled" | "issue";
  priceCents?: number;
  items: MarkupItem[];
  deliveries: MarkupDelivery[];
}

const MAX_NODES = 500;

type Node = Record<string, unknown>;

/** Every object of a JSON-LD value, `@graph` and nesting included, up to a bound. */
function objects(value: unknown, out: Node[] = [], depth = 0): Node[] {
  if (out.length >= MAX_NODES || depth > 12 || value === null || typeof value !== "object") {
    return out;
  }
  if (Array.isArray(value)) {
    for (const v of value) objects(v, out, depth + 1);
    return out;
  }
  out.push(value as Node);
  for (const v of Object.values(value as Node)) objects(v, out, depth + 1);
  return out;
}

function typeOf(node: Node): string {
  const t = node["@type"] ?? node.type;
  const first = Array.isArray(t) ? t[0] : t;
  return typeof first === "string" ? first.split(/[/#:]/).pop()!.toLowerCase() : "";
}

function str(value: unknown): string | undefined {
  if (Array.isArray(value)) return str(value[0]);
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number") return String(value);
  if (value && typeof value === "object") {
    const v = value as Node;
    return str(v.name ?? v["@id"] ?? v.url ?? v.value);
  }
  return undefined;
}

function node(value: unknown): Node | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && typeof v === "object" ? v as Node : undefined;
}

function list(value: unknown): Node[] {
  return (Array.isArray(value) ? value : [value]).filter((v): v is Node =>
    !!v && typeof v === "object"
  );
}

const STATUS: Record<string, MarkupOrder["status"]> = {
  orderprocessing: "ordered",
  orderpaymentdue: "ordered",
  orderpickupavailable: "shipped",
  orderintransit: "shipped",
  orderdelivered: "delivered",
  ordercancelled: "canceled",
  ordercanceled: "canceled",
  orderproblem: "issue",
  orderreturned: "canceled",
};

function status(value: unknown): MarkupOrder["status"] {
  const s = str(value);
  return s ? STATUS[s.split("/").pop()!.toLowerCase()] : undefined;
}

function cents(value: unknown): number | undefined {
  const s = str(value);
  if (!s) return undefined;
  const amount = parseAmount(s.replace(/[^\d.,' ]/g, ""));
  return amount ?? undefined;
}

function product(value: unknown, offer?: Node): MarkupItem | null {
  const p = node(value);
  const name = str(p?.name);
  if (!p || !name) return null;
  const quantity = Number(
    str(node(offer?.eligibleQuantity)?.value ?? offer?.eligibleQuantity ?? p.orderQuantity),
  );
  const price = cents(offer?.price);
  return {
    name,
    ...(str(p.image) ? { image: str(p.image) } : {}),
    ...(price !== undefined ? { priceCents: price } : {}),
    ...(Number.isInteger(quantity) && quantity > 0 ? { quantity } : {}),
  };
}

function readOrder(o: Node): MarkupOrder {
  const items: MarkupItem[] = [];
  for (const offer of list(o.acceptedOffer)) {
    const item = product(offer.itemOffered, offer);
    if (item) items.push(item);
  }
  for (const ordered of list(o.orderedItem)) {
    const item = product(ordered.orderedItem ?? ordered, ordered);
    if (item) items.push(item);
  }
  return {
    ...(str(o.orderNumber) ? { orderNumber: str(o.orderNumber) } : {}),
    ...(str(o.merchant ?? o.seller) ? { merchant: str(o.merchant ?? o.seller) } : {}),
    ...(status(o.orderStatus) ? { status: status(o.orderStatus) } : {}),
    ...(cents(o.price ?? o.totalPrice) !== undefined
      ? { priceCents: cents(o.price ?? o.totalPrice) }
      : {}),
    items,
    deliveries: [],
  };
}

function readDelivery(d: Node): MarkupDelivery {
  const items = list(d.itemShipped).map((p) => product(p)).filter((i): i is MarkupItem => !!i);
  return {
    ...(str(d.trackingNumber) ? { trackingNumber: str(d.trackingNumber) } : {}),
    ...(str(d.trackingUrl) ? { trackingUrl: str(d.trackingUrl) } : {}),
    ...(str(d.provider ?? d.carrier) ? { carrierName: str(d.provider ?? d.carrier) } : {}),
    ...(str(d.expectedArrivalUntil ?? d.expectedArrivalFrom)
      ? { expectedArrival: str(d.expectedArrivalUntil ?? d.expectedArrivalFrom) }
      : {}),
    items,
  };
}

/** Microdata items as JSON-LD-shaped objects, so one reader serves both. */
function microdataAsNode(item: MicrodataItem, depth = 0): Node {
  const out: Node = { "@type": item.type };
  for (const [key, values] of Object.entries(item.props)) {
    const mapped = values.map((v) =>
      typeof v === "string" ? v : depth < 8 ? microdataAsNode(v, depth + 1) : {}
    );
    out[key] = mapped.length === 1 ? mapped[0] : mapped;
  }
  return out;
}

/** The order the markup describes, merged over every Order and ParcelDelivery found; null if none. */
export function readMarkup(jsonLd: string[], microdata: MicrodataItem[]): MarkupOrder | null {
  const roots: unknown[] = [];
  for (const text of jsonLd.slice(0, 10)) {
    try {
      roots.push(JSON.parse(text.trim().replace(/^<!--|-->$/g, "")));
    } catch {
      // Broken JSON-LD is ignored like any other unreadable decoration.
    }
  }
  for (const item of microdata.slice(0, 20)) roots.push(microdataAsNode(item));
  const all = objects(roots);
  let order: MarkupOrder | null = null;
  const merge = (o: MarkupOrder) => {
    if (!order) order = o;
    else {
      order.orderNumber ??= o.orderNumber;
      order.merchant ??= o.merchant;
      order.status ??= o.status;
      order.priceCents ??= o.priceCents;
      if (order.items.length === 0) order.items = o.items;
    }
  };
  for (const n of all) {
    const type = typeOf(n);
    if (type === "parceldelivery") {
      const delivery = readDelivery(n);
      const part = node(n.partOfOrder);
      merge(part ? readOrder(part) : { items: [], deliveries: [] });
      order!.deliveries.push(delivery);
    } else if (type === "order") {
      merge(readOrder(n));
    }
  }
  return order;
}
