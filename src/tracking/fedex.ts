/**
 * FedEx Track API (research/carriers.md 2.2): OAuth client credentials (API key and secret key
 * in the form body) at `/oauth/token`, then `POST /track/v1/trackingnumbers` with the bearer
 * token. One number per request here (the API takes up to 30).
 */
import type { OAuthApiConfig } from "../config.ts";
import {
  boundEvents,
  carrierText,
  carrierTime,
  fedexStatus,
  joinLocation,
  notFound,
  type TrackingEvent,
  type TrackingResult,
} from "../domain/tracking/answer.ts";
import {
  arr,
  type CarrierApi,
  formPost,
  type HttpAnswer,
  type Json,
  jsonPost,
  obj,
  str,
  type TrackQuery,
} from "./protocol.ts";

export function fedexApi(config: OAuthApiConfig): CarrierApi {
  return {
    name: "FedEx",
    tokenRequest: () =>
      formPost(`${config.apiBase}/oauth/token`, {
        grant_type: "client_credentials",
        client_id: config.clientId ?? "",
        client_secret: config.clientSecret ?? "",
      }),
    trackRequest: ({ trackingNumber }, token) =>
      jsonPost(`${config.apiBase}/track/v1/trackingnumbers`, {
        includeDetailedScans: true,
        trackingInfo: [{ trackingNumberInfo: { trackingNumber } }],
      }, {
        authorization: `Bearer ${token}`,
        "x-locale": "en_US",
        "x-customer-transaction-id": crypto.randomUUID(),
      }),
    readTrack: readFedex,
  };
}

/** Request-level errors about the number itself (`TRACKING.TRACKINGNUMBER.*`) mean unknown. */
function aboutTheNumber(body: Json | undefined): boolean {
  return arr(body?.errors).some((e) => /TRACKINGNUMBER/i.test(str(obj(e)?.code) ?? ""));
}

function readFedex(
  answer: HttpAnswer,
  { carrier, trackingNumber }: TrackQuery,
): TrackingResult | null {
  const body = obj(answer.body);
  if (answer.status !== 200) return aboutTheNumber(body) ? notFound(carrier, trackingNumber) : null;
  const complete = obj(arr(obj(body?.output)?.completeTrackResults)[0]);
  if (!complete) return null;
  const results = arr(complete.trackResults).map(obj).filter((r) => r !== undefined);
  if (results.length === 0) return null;
  // A reused number can have several shipments: the one with the newest scan is this parcel.
  const live = results.filter((r) => !r.error).sort((a, b) => newestScan(b) - newestScan(a));
  const result = live[0];
  if (!result) return notFound(carrier, trackingNumber);

  const scans = arr(result.scanEvents).map(obj).filter((e) => e !== undefined);
  const latest = obj(result.latestStatusDetail);
  const times = arr(result.dateAndTimes).map(obj);
  const timeOf = (type: string) => times.find((t) => t?.type === type)?.dateTime;
  const window = (name: string) => obj(obj(result[name])?.window);
  const estimated = timeOf("ESTIMATED_DELIVERY") ?? window("estimatedDeliveryTimeWindow")?.ends ??
    window("estimatedDeliveryTimeWindow")?.begins ?? window("standardTransitTimeWindow")?.ends;
  const status = fedexStatus(latest?.code, latest?.derivedCode);
  return {
    carrier,
    trackingNumber,
    found: true,
    status,
    events: boundEvents(scans.map(fedexEvent)),
    eventCount: scans.length,
    estimatedDelivery: carrierTime(estimated),
    actualDelivery: status === "delivered" ? carrierTime(timeOf("ACTUAL_DELIVERY")) : undefined,
  };
}

function newestScan(result: Json): number {
  const ms = Date.parse(str(obj(arr(result.scanEvents)[0])?.date) ?? "");
  return Number.isFinite(ms) ? ms : 0;
}

function fedexEvent(scan: Json): TrackingEvent | null {
  const description = carrierText(scan.eventDescription);
  if (!description) return null;
  const place = obj(scan.scanLocation);
  return {
    time: carrierTime(scan.date),
    location: joinLocation(place?.city, place?.stateOrProvinceCode, place?.countryCode),
    description,
  };
}
