/**
 * DHL Shipment Tracking - Unified API (research/carriers.md 2.4), for both `dhl` and
 * `dhl-express`: `GET /track/shipments?trackingNumber=...&service=...` with the static key in
 * `DHL-API-Key`. The `service` is sent whenever the format tells it, because without it DHL may
 * answer with a different, related shipment.
 */
import type { CarrierKey } from "../domain/tracking/carriers.ts";
import {
  boundEvents,
  carrierText,
  carrierTime,
  dhlStatus,
  joinLocation,
  notFound,
  type TrackingEvent,
  type TrackingResult,
} from "../domain/tracking/answer.ts";
import type { TrackingForm } from "../domain/tracking/number.ts";
import {
  arr,
  type CarrierApi,
  type HttpAnswer,
  type Json,
  obj,
  type TrackQuery,
} from "./protocol.ts";

/** DHL's `service` for a carrier key and detected format; undefined when not known. */
export function dhlService(carrier: CarrierKey, form?: TrackingForm): string | undefined {
  if (carrier === "dhl-express") return "express";
  switch (form) {
    case "dhl-paket-sscc":
      return "parcel-de";
    case "dhl-ecommerce":
    case "dhl-ecommerce-14":
      return "ecommerce";
    default:
      return undefined;
  }
}

export function dhlApi(config: { apiKey?: string; apiBase: string }): CarrierApi {
  return {
    name: "DHL",
    trackRequest: ({ carrier, trackingNumber, form }) => {
      const query = new URLSearchParams({ trackingNumber });
      const service = dhlService(carrier, form);
      if (service) query.set("service", service);
      return {
        method: "GET",
        url: `${config.apiBase}/track/shipments?${query}`,
        headers: { "DHL-API-Key": config.apiKey ?? "", accept: "application/json" },
      };
    },
    readTrack: readDhl,
  };
}

function readDhl(
  answer: HttpAnswer,
  { carrier, trackingNumber }: TrackQuery,
): TrackingResult | null {
  const body = obj(answer.body);
  // RFC 7807 problem details: "No shipment with given tracking number found."
  if (answer.status === 404) return body ? notFound(carrier, trackingNumber) : null;
  if (answer.status !== 200 || !body || !Array.isArray(body.shipments)) return null;
  const shipments = arr(body.shipments).map(obj).filter((s) => s !== undefined);
  if (shipments.length === 0) return notFound(carrier, trackingNumber);
  // `id` may be a number; prefer the shipment that is the number asked for.
  const shipment = shipments.find((s) => String(s.id).toUpperCase() === trackingNumber) ??
    shipments[0];
  const current = obj(shipment.status);
  const status = dhlStatus(current?.statusCode, current?.description ?? current?.status);
  const scans = arr(shipment.events).map(obj).filter((e) => e !== undefined);
  const proof = obj(obj(shipment.details)?.proofOfDelivery);
  const deliveredScan = scans.find((s) => dhlStatus(s.statusCode) === "delivered");
  const estimated = shipment.estimatedTimeOfDelivery ??
    obj(shipment.estimatedDeliveryTimeFrame)?.estimatedThrough;
  return {
    carrier,
    trackingNumber,
    found: true,
    status,
    events: boundEvents(scans.map(dhlEvent)),
    eventCount: scans.length,
    estimatedDelivery: carrierTime(estimated),
    actualDelivery: status === "delivered"
      ? carrierTime(proof?.timestamp) ?? carrierTime(deliveredScan?.timestamp)
      : undefined,
  };
}

function dhlEvent(scan: Json): TrackingEvent | null {
  const description = carrierText(scan.description) ?? carrierText(scan.status);
  if (!description) return null;
  const address = obj(obj(scan.location)?.address);
  return {
    time: carrierTime(scan.timestamp),
    location: joinLocation(address?.addressLocality),
    description,
  };
}
