import { deepStrictEqual as eq, equal } from "node:assert/strict";
import {
  carrierText,
  carrierTime,
  dhlStatus,
  fedexStatus,
  joinLocation,
  upsStatus,
  uspsStatus,
} from "../../src/domain/tracking/answer.ts";
import { trackingKey } from "../../src/domain/tracking/number.ts";
import {
  calendarDate,
  deliveryTime,
  trackingChange,
  trackingEventData,
} from "../../src/domain/tracking/update.ts";
import type { TrackingResult } from "../../src/domain/tracking/answer.ts";
import { newOrder } from "../../src/domain/orders/order.ts";

Deno.test("UPS status types and codes (research section 4)", () => {
  const table: [unknown, unknown, unknown, string][] = [
    ["D", "011", "KB", "delivered"],
    ["I", "005", "DS", "in_transit"],
    ["I", "021", "OT", "out_for_delivery"],
    ["I", "006", undefined, "out_for_delivery"],
    ["I", undefined, "OF", "out_for_delivery"],
    ["M", "003", "MP", "pre_transit"],
    ["MV", undefined, undefined, "pre_transit"],
    ["X", "013", "48", "exception"],
    ["P", undefined, undefined, "in_transit"],
    ["NA", undefined, undefined, "unknown"],
    [undefined, undefined, undefined, "unknown"],
    [" d ", undefined, undefined, "delivered"],
  ];
  for (const [type, statusCode, code, status] of table) {
    equal(upsStatus(type, statusCode, code), status, `${type} ${statusCode} ${code}`);
  }
});

Deno.test("FedEx status codes, then the derived code", () => {
  const table: [unknown, unknown, string][] = [
    ["DL", undefined, "delivered"],
    ["OD", "IT", "out_for_delivery"],
    ["OC", "IN", "pre_transit"],
    ["DE", "DE", "exception"],
    ["SE", undefined, "exception"],
    ["CA", undefined, "exception"],
    ["RS", undefined, "exception"],
    ["PU", "PU", "in_transit"],
    ["FD", "RL", "in_transit"],
    ["DY", "DY", "in_transit"],
    ["HP", "IT", "in_transit"],
    ["ZZ", "DL", "delivered"],
    [undefined, undefined, "unknown"],
  ];
  for (const [code, derived, status] of table) equal(fedexStatus(code, derived), status, `${code}`);
});

Deno.test("USPS status categories, then the newest event's code", () => {
  const table: [unknown, unknown, string][] = [
    ["Delivered", "01", "delivered"],
    ["Out for Delivery", "OF", "out_for_delivery"],
    ["Pre-Shipment", "GX", "pre_transit"],
    ["Alert", "53", "exception"],
    ["Delivery Attempt", undefined, "exception"],
    ["Accepted", "03", "in_transit"],
    ["In Transit", "A1", "in_transit"],
    ["Available for Pickup", undefined, "in_transit"],
    [undefined, "01", "delivered"],
    [undefined, "OF", "out_for_delivery"],
    [undefined, "GX", "pre_transit"],
    [undefined, "T1", "in_transit"],
    [undefined, undefined, "unknown"],
  ];
  for (const [category, code, status] of table) equal(uspsStatus(category, code), status);
});

Deno.test("DHL status codes; out for delivery told by the text", () => {
  equal(dhlStatus("delivered"), "delivered");
  equal(dhlStatus("failure"), "exception");
  equal(dhlStatus("pre-transit"), "pre_transit");
  equal(dhlStatus("transit", "Processed at CINCINNATI HUB - USA"), "in_transit");
  equal(dhlStatus("transit", "With delivery courier"), "out_for_delivery");
  equal(dhlStatus("unknown"), "unknown");
  equal(dhlStatus(42), "unknown");
});

Deno.test("carrier times: instants become UTC, local times and dates stay as written", () => {
  equal(carrierTime("2024-04-26T09:26:00-07:00"), "2024-04-26T16:26:00.000Z");
  equal(carrierTime("2024-11-22T18:58:40Z"), "2024-11-22T18:58:40.000Z");
  equal(carrierTime("2024-11-22T13:58:00"), "2024-11-22T13:58:00");
  equal(carrierTime("2024-11-22T13:58"), "2024-11-22T13:58:00");
  equal(carrierTime("2024-11-22"), "2024-11-22");
  equal(carrierTime("20220126", "163000"), "2022-01-26T16:30:00");
  equal(carrierTime("20220126"), "2022-01-26");
  equal(carrierTime("20220230"), undefined);
  equal(carrierTime("2024-02-30T10:00:00"), undefined);
  equal(carrierTime("next Tuesday"), undefined);
  equal(carrierTime(20220126), undefined);
  equal(carrierTime(undefined), undefined);
});

Deno.test("carrier text is trimmed, spaces collapsed, bounded; locations joined", () => {
  equal(carrierText("  DELIVERED \n "), "DELIVERED");
  equal(carrierText(""), undefined);
  equal(carrierText({}), undefined);
  equal(carrierText("x".repeat(1000))!.length, 300);
  equal(joinLocation("PARAMUS", "NJ", undefined, "", "US"), "PARAMUS, NJ, US");
  equal(joinLocation(undefined, null), undefined);
});

Deno.test("tracking keys: separators and case ignored, letters and digits only, bounded", () => {
  equal(trackingKey(" 1z 5r8-939 0357567127 "), "1Z5R89390357567127");
  equal(trackingKey("AB/12"), null);
  equal(trackingKey("   "), null);
  equal(trackingKey("A".repeat(64)), "A".repeat(64));
  equal(trackingKey("A".repeat(65)), null);
  equal(trackingKey("1".repeat(300)), null);
});

const found = (over: Partial<TrackingResult>): TrackingResult => ({
  carrier: "ups",
  trackingNumber: "1Z5R89390357567127",
  found: true,
  status: "in_transit",
  events: [],
  eventCount: 0,
  ...over,
});

Deno.test("a found answer becomes order fields and signals by its status", () => {
  const at = Date.parse("2025-03-10T03:30:00Z");
  eq(trackingChange(found({ estimatedDelivery: "2025-03-12" }), "UTC", at), {
    fields: { carrier: "ups", estimatedDelivery: "2025-03-12" },
    signals: { shipped: true },
  });
  eq(trackingChange(found({ status: "out_for_delivery" }), "UTC", at)?.signals, { shipped: true });
  eq(trackingChange(found({ status: "exception" }), "UTC", at)?.signals, { issue: true });
  eq(trackingChange(found({ status: "pre_transit" }), "UTC", at)?.signals, {});
  eq(trackingChange(found({ status: "unknown" }), "UTC", at)?.signals, {});
  equal(trackingChange({ ...found({}), found: false }, "UTC", at), null);
});

Deno.test("delivery: the carrier's time, else the newest scan, else the lookup, as an account-zone date", () => {
  const at = Date.parse("2025-03-10T03:30:00Z");
  const delivered = found({
    status: "delivered",
    actualDelivery: "2025-03-10T02:00:00.000Z",
    events: [{ time: "2025-03-10T01:00:00.000Z", description: "Delivered" }],
  });
  eq(trackingChange(delivered, "America/New_York", at), {
    fields: { carrier: "ups", actualDelivery: "2025-03-09" },
    signals: { delivered: true },
  });
  equal(trackingChange(delivered, "Europe/Berlin", at)?.fields.actualDelivery, "2025-03-10");
  equal(deliveryTime({ ...delivered, actualDelivery: undefined }, at), "2025-03-10T01:00:00.000Z");
  equal(
    deliveryTime({ ...delivered, actualDelivery: undefined, events: [] }, at),
    "2025-03-10T03:30:00.000Z",
  );
  // A local time is the date the carrier wrote, whatever the account's zone.
  equal(calendarDate("2025-03-09T23:30:00", "Asia/Tokyo"), "2025-03-09");
  equal(calendarDate("2025-03-09", "Asia/Tokyo"), "2025-03-09");
});

Deno.test("order.tracking_updated data: order, carrier, delivered, eventCount", () => {
  const order = newOrder("ord_1", { itemSummary: "Shoes" }, {}, "manual", 0);
  eq(trackingEventData(order, found({ status: "delivered", eventCount: 7 })), {
    order,
    carrier: "ups",
    delivered: true,
    eventCount: 7,
  });
});
