/**
 * UPS Track API (research/carriers.md 2.1): OAuth client credentials with HTTP Basic at
 * `/security/v1/oauth/token`, then `GET /api/track/v1/details/{inquiryNumber}` with the bearer
 * token, a `transId` per request and a `transactionSrc`.
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
  upsStatus,
} from "../domain/tracking/answer.ts";
import {
  arr,
  type CarrierApi,
  formPost,
  type HttpAnswer,
  obj,
  type TrackQuery,
} from "./protocol.ts";

const TRANSACTION_SOURCE = "order-tracker";

export function upsApi(config: OAuthApiConfig): CarrierApi {
  const basic = new TextEncoder().encode(`${config.clientId}:${config.clientSecret}`).toBase64();
  return {
    name: "UPS",
    tokenRequest: () =>
      formPost(`${config.apiBase}/security/v1/oauth/token`, {
        grant_type: "client_credentials",
      }, { authorization: `Basic ${basic}` }),
    trackRequest: ({ trackingNumber }, token) => ({
      method: "GET",
      url: `${config.apiBase}/api/track/v1/details/${encodeURIComponent(trackingNumber)}?` +
        "locale=en_US&returnSignature=false&returnMilestones=false&returnPOD=false",
      headers: {
        authorization: `Bearer ${token}`,
        transId: crypto.randomUUID().replaceAll("-", ""),
        transactionSrc: TRANSACTION_SOURCE,
      },
    }),
    readTrack: readUps,
  };
}

function readUps(
  answer: HttpAnswer,
  { carrier, trackingNumber }: TrackQuery,
): TrackingResult | null {
  const body = obj(answer.body);
  // An unknown or malformed number: 404 as the spec says, or 400 TV1002 as UPS does.
  if (answer.status === 404 || answer.status === 400) {
    return arr(obj(body?.response)?.errors).length ? notFound(carrier, trackingNumber) : null;
  }
  if (answer.status !== 200) return null;
  const shipment = obj(arr(obj(body?.trackResponse)?.shipment)[0]);
  if (!shipment) return null;
  const pkg = obj(arr(shipment.package)[0]);
  // Not found in practice: 200 with a warning (TW0001) and no package.
  if (!pkg) return arr(shipment.warnings).length ? notFound(carrier, trackingNumber) : null;

  const activities = arr(pkg.activity).map(obj).filter((a) => a !== undefined);
  const events = boundEvents(activities.map(upsEvent));
  const current = obj(pkg.currentStatus) ?? obj(activities[0]?.status);
  const deliveredScan = activities.find((a) => obj(a.status)?.type === "D");
  const status = deliveredScan
    ? "delivered"
    : upsStatus(current?.type, current?.statusCode, current?.code);

  const dates = arr(pkg.deliveryDate).map(obj);
  const dateOf = (type: string) => dates.find((d) => d?.type === type)?.date;
  const time = obj(pkg.deliveryTime);
  const delivered = dateOf("DEL");
  const actualDelivery = delivered
    ? carrierTime(delivered, time?.type === "DEL" ? time.endTime : undefined)
    : deliveredScan && carrierTime(deliveredScan.date, deliveredScan.time);
  const estimated = dateOf("RDD") ?? dateOf("SDD");
  return {
    carrier,
    trackingNumber,
    found: true,
    status,
    events,
    eventCount: activities.length,
    estimatedDelivery: estimated ? carrierTime(estimated) : undefined,
    actualDelivery: status === "delivered" ? actualDelivery || undefined : undefined,
  };
}

function upsEvent(activity: Record<string, unknown>): TrackingEvent | null {
  const description = carrierText(obj(activity.status)?.description);
  if (!description) return null;
  const address = obj(obj(activity.location)?.address);
  return {
    time: carrierTime(activity.date, activity.time),
    location: joinLocation(address?.city, address?.stateProvince, address?.countryCode),
    description,
  };
}
