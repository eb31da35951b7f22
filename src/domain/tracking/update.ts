/**
 * What a live carrier answer means for an order (CONTRACT.md "Carriers", docs/orders.md
 * "Carrier lookups"): the fields and status signals it is merged with, by the same merge rules
 * as a message, so fields in `userEdited` are never touched. Pure; the clock is passed in.
 */
import { localDate } from "../../lib/timezone.ts";
import type { MessageFields, Order, StatusSignals } from "../orders/order.ts";
import { isInstant, type TrackingResult } from "./answer.ts";

/** A carrier time as a calendar date: an instant in the account's zone, a local time as written. */
export function calendarDate(time: string, timeZone: string): string {
  return isInstant(time) ? localDate(Date.parse(time), timeZone) : time.slice(0, 10);
}

/**
 * When the parcel was delivered: the carrier's proof of delivery, else the newest scan, else the
 * moment the lookup saw it delivered.
 */
export function deliveryTime(result: TrackingResult, checkedAt: number): string {
  return result.actualDelivery ?? result.events[0]?.time ?? new Date(checkedAt).toISOString();
}

/**
 * The merge a found answer makes: the carrier key (the lookup proved it), the estimate, and by
 * status: delivered sets `actualDelivery` (a calendar date in the account's zone) and signals
 * delivery; in transit and out for delivery signal shipping; an exception signals a problem
 * (`issue`). A label the carrier has not scanned yet, or an unknown status, moves nothing.
 * Null when the carrier does not know the number: nothing to apply.
 */
export function trackingChange(
  result: TrackingResult,
  timeZone: string,
  checkedAt: number,
): { fields: MessageFields; signals: StatusSignals } | null {
  if (!result.found) return null;
  const fields: MessageFields = { carrier: result.carrier };
  const signals: StatusSignals = {};
  if (result.estimatedDelivery) {
    fields.estimatedDelivery = calendarDate(result.estimatedDelivery, timeZone);
  }
  switch (result.status) {
    case "delivered":
      fields.actualDelivery = calendarDate(deliveryTime(result, checkedAt), timeZone);
      signals.delivered = true;
      break;
    case "exception":
      signals.issue = true;
      break;
    case "in_transit":
    case "out_for_delivery":
      signals.shipped = true;
      break;
  }
  return { fields, signals };
}

/** `order.tracking_updated` data: the spec's payload fields. */
export function trackingEventData(order: Order, result: TrackingResult) {
  return {
    order,
    carrier: result.carrier,
    delivered: result.status === "delivered",
    eventCount: result.eventCount,
  };
}
