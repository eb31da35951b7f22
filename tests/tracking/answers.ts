/**
 * A parcel's journey written once and rendered as each carrier's documented JSON answer
 * (research/carriers.md section 2: field names, code values, time formats, newest first), so
 * tests and the benchmark can feed the fakes any stage of any parcel. Values are our own.
 */
import {
  fedexExpressCheckDigit,
  gs1CheckDigit,
  mod7CheckDigit,
  upsCheckDigit,
} from "../../src/domain/tracking/check_digits.ts";

export type Stage = "label" | "transit" | "out" | "delivered" | "exception";

export interface Scan {
  stage: Stage;
  /** An instant (ISO, `Z`). */
  at: string;
  text: string;
  city?: string;
  state?: string;
  country?: string;
}

export interface Journey {
  scans: Scan[];
  /** Expected delivery, a calendar date. */
  estimated?: string;
}

/** Scans from a start instant, one every `stepHours`, through the given stages. */
export function journey(
  start: string,
  stages: Stage[],
  stepHours = 6,
  estimated?: string,
): Journey {
  const t0 = Date.parse(start);
  const words: Record<Stage, string> = {
    label: "Shipping label created",
    transit: "Arrived at facility",
    out: "Out for delivery",
    delivered: "Delivered",
    exception: "Delivery exception: recipient not available",
  };
  return {
    estimated,
    scans: stages.map((stage, i) => ({
      stage,
      at: new Date(t0 + i * stepHours * 3_600_000).toISOString(),
      text: words[stage],
      city: ["Leipzig", "Memphis", "Louisville", "Paramus"][i % 4],
      state: ["SN", "TN", "KY", "NJ"][i % 4],
      country: i % 4 === 0 ? "DE" : "US",
    })),
  };
}

const newestFirst = (j: Journey) => [...j.scans].reverse();
/** Local time 5 hours behind UTC, as a carrier without zones writes it. */
const local = (at: string) => new Date(Date.parse(at) - 5 * 3_600_000).toISOString().slice(0, 19);
const compactDate = (iso: string) => iso.slice(0, 10).replaceAll("-", "");
const compactTime = (iso: string) => iso.slice(11, 19).replaceAll(":", "");
/** The instant with a -05:00 offset, as FedEx writes times. */
const withOffset = (at: string) => `${local(at)}-05:00`;

const UPS_CODES: Record<Stage, { type: string; code: string; statusCode: string }> = {
  label: { type: "M", code: "MP", statusCode: "003" },
  transit: { type: "I", code: "DS", statusCode: "005" },
  out: { type: "I", code: "OT", statusCode: "021" },
  delivered: { type: "D", code: "KB", statusCode: "011" },
  exception: { type: "X", code: "48", statusCode: "013" },
};

export function upsAnswer(n: string, j: Journey): unknown {
  const scans = newestFirst(j);
  const activity = scans.map((s) => ({
    location: { address: { city: s.city, stateProvince: s.state, countryCode: s.country } },
    status: { ...UPS_CODES[s.stage], description: `${s.text} ` },
    date: compactDate(local(s.at)),
    time: compactTime(local(s.at)),
  }));
  const delivered = scans.find((s) => s.stage === "delivered");
  return {
    trackResponse: {
      shipment: [{
        inquiryNumber: n,
        package: [{
          trackingNumber: n,
          ...(scans[0] &&
            { currentStatus: { ...UPS_CODES[scans[0].stage], description: scans[0].text } }),
          deliveryDate: delivered
            ? [{ type: "DEL", date: compactDate(local(delivered.at)) }]
            : j.estimated
            ? [{ type: "SDD", date: j.estimated.replaceAll("-", "") }]
            : [],
          ...(delivered &&
            { deliveryTime: { type: "DEL", endTime: compactTime(local(delivered.at)) } }),
          activity,
          packageCount: 1,
        }],
      }],
    },
  };
}

const FEDEX_CODES: Record<Stage, { code: string; derived: string }> = {
  label: { code: "OC", derived: "IN" },
  transit: { code: "AR", derived: "IT" },
  out: { code: "OD", derived: "IT" },
  delivered: { code: "DL", derived: "DL" },
  exception: { code: "DE", derived: "DE" },
};

export function fedexAnswer(n: string, j: Journey): unknown {
  const scans = newestFirst(j);
  const latest = scans[0];
  const delivered = scans.find((s) => s.stage === "delivered");
  return {
    transactionId: crypto.randomUUID(),
    output: {
      completeTrackResults: [{
        trackingNumber: n,
        trackResults: [{
          trackingNumberInfo: { trackingNumber: n, carrierCode: "FDXE" },
          latestStatusDetail: latest
            ? {
              code: FEDEX_CODES[latest.stage].code,
              derivedCode: FEDEX_CODES[latest.stage].derived,
              statusByLocale: latest.text,
              description: latest.text,
              scanLocation: {
                city: latest.city,
                stateOrProvinceCode: latest.state,
                countryCode: latest.country,
              },
            }
            : {},
          dateAndTimes: [
            ...(delivered ? [{ type: "ACTUAL_DELIVERY", dateTime: withOffset(delivered.at) }] : []),
            ...(j.estimated
              ? [{ type: "ESTIMATED_DELIVERY", dateTime: `${j.estimated}T20:00:00-05:00` }]
              : []),
          ],
          estimatedDeliveryTimeWindow: { window: {} },
          scanEvents: scans.map((s) => ({
            date: withOffset(s.at),
            eventType: FEDEX_CODES[s.stage].code,
            derivedStatusCode: FEDEX_CODES[s.stage].derived,
            eventDescription: s.text,
            scanLocation: { city: s.city, stateOrProvinceCode: s.state, countryCode: s.country },
          })),
        }],
      }],
    },
  };
}

const USPS_CODES: Record<Stage, { category: string; code: string }> = {
  label: { category: "Pre-Shipment", code: "GX" },
  transit: { category: "In Transit", code: "A1" },
  out: { category: "Out for Delivery", code: "OF" },
  delivered: { category: "Delivered", code: "01" },
  exception: { category: "Alert", code: "53" },
};

export function uspsAnswer(n: string, j: Journey): unknown {
  const scans = newestFirst(j);
  const latest = scans[0];
  return {
    trackingNumber: n,
    mailClass: "USPS Ground Advantage",
    status: latest?.text ?? "",
    statusCategory: latest ? USPS_CODES[latest.stage].category : "",
    ...(j.estimated && { expectedDeliveryTimeStamp: `${j.estimated}T21:00:00Z` }),
    trackingEvents: scans.map((s) => ({
      eventType: s.text,
      eventTimestamp: local(s.at),
      GMTTimestamp: s.at.replace(/\.\d+Z$/, "Z"),
      GMTOffset: "-05:00",
      eventCity: s.city?.toUpperCase(),
      eventState: s.state,
      eventZIP: "07652",
      eventCountry: "",
      eventCode: USPS_CODES[s.stage].code,
    })),
  };
}

const DHL_CODES: Record<Stage, string> = {
  label: "pre-transit",
  transit: "transit",
  out: "transit",
  delivered: "delivered",
  exception: "failure",
};

export function dhlAnswer(n: string, j: Journey, service = "express"): unknown {
  const scans = newestFirst(j);
  const event = (s: Scan) => ({
    timestamp: local(s.at),
    statusCode: DHL_CODES[s.stage],
    status: DHL_CODES[s.stage],
    description: s.stage === "out" ? "With delivery courier" : s.text,
    location: { address: { addressLocality: `${s.city} - ${s.country}` } },
  });
  const delivered = scans.find((s) => s.stage === "delivered");
  return {
    shipments: [{
      // DHL's own examples give `id` as a number sometimes.
      id: /^\d+$/.test(n) ? Number(n) : n,
      service,
      status: scans[0] ? event(scans[0]) : { statusCode: "unknown", status: "unknown" },
      ...(j.estimated && { estimatedTimeOfDelivery: `${j.estimated}T23:59:00Z` }),
      details: {
        totalNumberOfPieces: 1,
        ...(delivered &&
          { proofOfDelivery: { timestamp: local(delivered.at), signed: { name: "J DOE" } } }),
      },
      events: scans.map(event),
    }],
    possibleAdditionalShipmentsUrl: [],
  };
}

// Valid numbers of each carrier, made from a counter with their check digits.

const pad = (i: number, width: number) => String(i).padStart(width, "0");

export function upsNumber(i: number): string {
  const serial = `R8939${pad(i, 10)}`;
  return `1Z${serial}${upsCheckDigit(serial)}`;
}

export function fedexNumber(i: number): string {
  const body = `7${pad(i, 10)}`;
  return `${body}${fedexExpressCheckDigit(body)}`;
}

export function uspsNumber(i: number): string {
  const body = `940011120620${pad(i, 9)}`;
  return `${body}${gs1CheckDigit(body)}`;
}

export function dhlExpressNumber(i: number): string {
  const serial = `3${pad(i, 8)}`;
  return `${serial}${mod7CheckDigit(serial)}`;
}

export function dhlNumber(i: number): string {
  return `GM29${pad(i, 14)}`;
}
