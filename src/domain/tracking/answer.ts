/**
 * A carrier's tracking answer in one shape for every carrier, and the rules that map each
 * carrier's own status codes onto it (research/carriers.md sections 2 and 4). Pure: the adapters
 * in `src/tracking/` read the carriers' JSON and call these.
 */
import type { CarrierKey } from "./carriers.ts";

export const TRACKING_STATUSES = [
  "pre_transit",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "exception",
  "unknown",
] as const;
export type TrackingStatus = typeof TRACKING_STATUSES[number];

/** One scan. `time`: see {@link carrierTime}. */
export interface TrackingEvent {
  time?: string;
  location?: string;
  description: string;
}

/** What a live lookup learned about one tracking number. */
export interface TrackingResult {
  carrier: CarrierKey;
  trackingNumber: string;
  /** False when the carrier does not know the number (yet): nothing to apply to orders. */
  found: boolean;
  status: TrackingStatus;
  /** Newest first, at most {@link MAX_STORED_EVENTS}. */
  events: TrackingEvent[];
  /** Scans the carrier reported (all of them, even beyond the stored ones). */
  eventCount: number;
  /** The carrier's estimate and proof of delivery: times as {@link carrierTime} gives them. */
  estimatedDelivery?: string;
  actualDelivery?: string;
}

/** Scans kept per answer (a parcel has a few dozen at most; this bounds a hostile answer). */
export const MAX_STORED_EVENTS = 50;
/** Longest description or location kept. */
const MAX_TEXT = 300;

/** Trimmed, bounded text, or undefined when empty or not text. */
export function carrierText(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const text = String(value).replace(/\s+/g, " ").trim();
  return text ? text.slice(0, MAX_TEXT) : undefined;
}

/** `City, ST, CC` from whichever parts are there. */
export function joinLocation(...parts: unknown[]): string | undefined {
  const words = parts.map(carrierText).filter((p): p is string => p !== undefined);
  return words.length ? carrierText(words.join(", ")) : undefined;
}

const WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2})?(?:\.\d+)?)?$/;
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/;
const COMPACT_TIME = /^(\d{2})(\d{2})(\d{2})?$/;

/**
 * A carrier's time in one of two forms: an instant (`2024-04-26T16:26:00.000Z`) when the carrier
 * gave a zone, else the local time of the place (`2024-11-22T13:58:00`) or a date
 * (`2024-11-22`) as written. UPS's compact `YYYYMMDD` + `HHMMSS` become the local form.
 * Undefined for anything else.
 */
export function carrierTime(date: unknown, time?: unknown): string | undefined {
  if (typeof date !== "string") return undefined;
  const d = date.trim();
  const compact = COMPACT_DATE.exec(d);
  if (compact) {
    const day = `${compact[1]}-${compact[2]}-${compact[3]}`;
    const t = typeof time === "string" ? COMPACT_TIME.exec(time.trim()) : null;
    return validDay(day) ? (t ? `${day}T${t[1]}:${t[2]}:${t[3] ?? "00"}` : day) : undefined;
  }
  if (WITH_ZONE.test(d)) {
    const ms = Date.parse(d);
    return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
  }
  const local = LOCAL.exec(d);
  if (!local || !validDay(local[1])) return undefined;
  return local[2] ? `${local[1]}T${local[2]}${local[3] ?? ":00"}` : local[1];
}

function validDay(day: string): boolean {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(day);
}

/** Whether a {@link carrierTime} is an instant (it has a zone), not a local time or date. */
export function isInstant(time: string): boolean {
  return time.endsWith("Z");
}

// ---------------------------------------------------------------------------------------------
// Status codes of each carrier (research/carriers.md section 4).

/**
 * UPS: the status `type` of the current status or the newest activity (`D` delivered, `I` in
 * transit, `X` exception, `M`/`MV` label only, `P` pickup), with the 3-digit `statusCode` or
 * activity `code` telling out-for-delivery apart within `I`.
 */
export function upsStatus(type: unknown, statusCode?: unknown, code?: unknown): TrackingStatus {
  switch (typeof type === "string" ? type.trim().toUpperCase() : "") {
    case "D":
      return "delivered";
    case "X":
      return "exception";
    case "M":
    case "MV":
      return "pre_transit";
    case "I":
      return statusCode === "006" || statusCode === "021" || code === "OT" || code === "OF"
        ? "out_for_delivery"
        : "in_transit";
    case "P":
    case "DO":
    case "DD":
    case "W":
      return "in_transit";
    default:
      return "unknown";
  }
}

const FEDEX_EXCEPTIONS = new Set(["DE", "SE", "CA", "RS"]);
/** Movement, delay, hold and customs codes: the parcel is with FedEx and under way. */
const FEDEX_MOVING = new Set([
  ..."PU PX IT IX AR AF DP FD SF AO AA AC AD AP AX CD CP CC DY DD PD".split(" "),
  ..."HL HP OF OX PF PL PM SP TR EA EO RR RM RC RD LO RL CH EP IN MS".split(" "),
]);

/**
 * FedEx: `latestStatusDetail.code` (`DL` delivered, `OD` on the vehicle for delivery, `OC` label
 * only, `DE`/`SE` delivery or shipment exception, `CA` canceled, `RS` return to shipper; delays,
 * holds, customs and movement scans are in transit), else its `derivedCode`.
 */
export function fedexStatus(code: unknown, derivedCode?: unknown): TrackingStatus {
  for (const c of [code, derivedCode]) {
    if (typeof c !== "string") continue;
    const k = c.trim().toUpperCase();
    if (k === "DL") return "delivered";
    if (k === "OD") return "out_for_delivery";
    if (k === "OC") return "pre_transit";
    if (FEDEX_EXCEPTIONS.has(k)) return "exception";
    if (FEDEX_MOVING.has(k)) return "in_transit";
  }
  return "unknown";
}

/**
 * USPS: `statusCategory` (`Delivered`, `Out for Delivery`, `Pre-Shipment`, `Alert` and
 * `Delivery Attempt` as exceptions, `Accepted`/`In Transit`/`Available for Pickup` moving), else
 * the newest event's code (`01` delivered, `OF` out for delivery, `GX`/`MA` label only).
 */
export function uspsStatus(category: unknown, eventCode?: unknown): TrackingStatus {
  const c = typeof category === "string" ? category.trim().toLowerCase() : "";
  if (c === "delivered") return "delivered";
  if (c === "out for delivery") return "out_for_delivery";
  if (c === "pre-shipment" || c === "pre shipment") return "pre_transit";
  if (c === "alert" || c === "delivery attempt") return "exception";
  if (c === "accepted" || c === "in transit" || c === "available for pickup") return "in_transit";
  switch (eventCode) {
    case "01":
      return "delivered";
    case "OF":
      return "out_for_delivery";
    case "GX":
    case "MA":
      return "pre_transit";
    case undefined:
    case null:
    case "":
      return "unknown";
    default:
      return "in_transit";
  }
}

const DHL_OUT_FOR_DELIVERY = /with delivery courier|out for delivery/i;

/**
 * DHL (both services): `statusCode` `pre-transit`, `transit`, `delivered`, `failure`
 * (exception) or `unknown`; DHL has no out-for-delivery code, so a `transit` status whose text
 * says so ("With delivery courier") is taken as one.
 */
export function dhlStatus(statusCode: unknown, description?: unknown): TrackingStatus {
  switch (typeof statusCode === "string" ? statusCode.trim().toLowerCase() : "") {
    case "delivered":
      return "delivered";
    case "failure":
      return "exception";
    case "pre-transit":
      return "pre_transit";
    case "transit":
      return typeof description === "string" && DHL_OUT_FOR_DELIVERY.test(description)
        ? "out_for_delivery"
        : "in_transit";
    default:
      return "unknown";
  }
}

/** An answer for a number the carrier does not know (or not yet: `status` says which). */
export function notFound(
  carrier: CarrierKey,
  trackingNumber: string,
  status: TrackingStatus = "unknown",
): TrackingResult {
  return { carrier, trackingNumber, found: false, status, events: [], eventCount: 0 };
}

/** Keeps the newest {@link MAX_STORED_EVENTS} scans with a description. */
export function boundEvents(events: (TrackingEvent | null)[]): TrackingEvent[] {
  return events.filter((e): e is TrackingEvent => e !== null).slice(0, MAX_STORED_EVENTS);
}
