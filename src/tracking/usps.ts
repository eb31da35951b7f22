/**
 * USPS Tracking API v3 (research/carriers.md 2.3): OAuth client credentials as JSON at
 * `/oauth2/v3/token`, then `GET /tracking/v3/tracking/{trackingNumber}?expand=DETAIL` with the
 * bearer token.
 */
import type { OAuthApiConfig } from "../config.ts";
import {
  boundEvents,
  carrierText,
  carrierTime,
  joinLocation,
  notFound,
  type TrackingEvent,
  type TrackingResult,
  uspsStatus,
} from "../domain/tracking/answer.ts";
import {
  arr,
  type CarrierApi,
  type HttpAnswer,
  type Json,
  jsonPost,
  obj,
  str,
  type TrackQuery,
} from "./protocol.ts";

/** "A status update is not yet available": a label USPS has not scanned yet. */
const NOT_YET_SCANNED = "150006";

export function uspsApi(config: OAuthApiConfig): CarrierApi {
  return {
    name: "USPS",
    tokenRequest: () =>
      jsonPost(`${config.apiBase}/oauth2/v3/token`, {
        client_id: config.clientId,
        client_secret: config.clientSecret,
        grant_type: "client_credentials",
      }),
    trackRequest: ({ trackingNumber }, token) => ({
      method: "GET",
      url: `${config.apiBase}/tracking/v3/tracking/${encodeURIComponent(trackingNumber)}` +
        "?expand=DETAIL",
      headers: { authorization: `Bearer ${token}` },
    }),
    readTrack: readUsps,
  };
}

function readUsps(
  answer: HttpAnswer,
  { carrier, trackingNumber }: TrackQuery,
): TrackingResult | null {
  const body = obj(answer.body);
  if (answer.status === 404 || answer.status === 400) {
    const error = obj(body?.error);
    if (!error) return null;
    const codes = arr(error.errors).map((e) => str(obj(e)?.code));
    return notFound(
      carrier,
      trackingNumber,
      codes.includes(NOT_YET_SCANNED) ? "pre_transit" : "unknown",
    );
  }
  if (answer.status !== 200 || !body || !Array.isArray(body.trackingEvents)) return null;
  const scans = body.trackingEvents.map(obj).filter((e) => e !== undefined);
  const status = uspsStatus(body.statusCategory, scans[0]?.eventCode);
  const expectation = obj(body.deliveryDateExpectation);
  const estimated = body.expectedDeliveryTimeStamp ?? body.expectedDeliveryDate ??
    expectation?.expectedDeliveryDate ?? body.predictedDeliveryDate ??
    expectation?.predictedDeliveryDate;
  const deliveredScan = scans.find((s) => s.eventCode === "01");
  return {
    carrier,
    trackingNumber,
    found: true,
    status,
    events: boundEvents(scans.map(uspsEvent)),
    eventCount: scans.length,
    estimatedDelivery: carrierTime(estimated),
    actualDelivery: status === "delivered" && deliveredScan ? scanTime(deliveredScan) : undefined,
  };
}

/** The scan's instant where USPS gives it (`GMTTimestamp`), else its local time. */
function scanTime(scan: Json): string | undefined {
  return carrierTime(scan.GMTTimestamp) ?? carrierTime(scan.eventTimestamp);
}

function uspsEvent(scan: Json): TrackingEvent | null {
  const description = carrierText(scan.eventType);
  if (!description) return null;
  return {
    time: scanTime(scan),
    location: joinLocation(scan.eventCity, scan.eventState, scan.eventZIP, scan.eventCountry),
    description,
  };
}
