/**
 * Each adapter against its fake carrier: the token exchange and bearer use, the documented
 * answers read into one shape (status, scans, places, times, estimated and actual delivery),
 * numbers the carrier does not know, and the carriers' own error shapes.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import type { TrackingResult } from "../../src/domain/tracking/answer.ts";
import {
  dhlAnswer,
  dhlExpressNumber,
  dhlNumber,
  fedexAnswer,
  fedexNumber,
  journey,
  upsAnswer,
  upsNumber,
  uspsAnswer,
  uspsNumber,
} from "./answers.ts";
import { carrierClient, queryFor } from "./helpers.ts";

const IN_TRANSIT = journey("2025-03-08T14:00:00Z", ["label", "transit", "out"], 6, "2025-03-10");
const DELIVERED = journey("2025-03-08T14:00:00Z", ["label", "transit", "out", "delivered"], 6);

async function track(ctx: Awaited<ReturnType<typeof carrierClient>>, n: string) {
  const outcome = await ctx.carriers.track(queryFor(n), "lookup");
  if (!outcome.ok) throw new Error(`not ok: ${outcome.reason}`);
  return outcome.result;
}

Deno.test("UPS: Basic-auth token, bearer and transId on GET details; local times, SDD estimate", async () => {
  await using ctx = await carrierClient();
  const n = upsNumber(1);
  ctx.fakes.ups.parcels.set(n, upsAnswer(n, IN_TRANSIT));
  const result = await track(ctx, n);
  eq(
    result,
    {
      carrier: "ups",
      trackingNumber: n,
      found: true,
      status: "out_for_delivery",
      events: [
        {
          time: "2025-03-08T21:00:00",
          location: "Louisville, KY, US",
          description: "Out for delivery",
        },
        {
          time: "2025-03-08T15:00:00",
          location: "Memphis, TN, US",
          description: "Arrived at facility",
        },
        {
          time: "2025-03-08T09:00:00",
          location: "Leipzig, SN, DE",
          description: "Shipping label created",
        },
      ],
      eventCount: 3,
      estimatedDelivery: "2025-03-10",
      actualDelivery: undefined,
    } satisfies TrackingResult,
  );
  const [token, details] = ctx.fakes.ups.requests;
  equal(token.path, "/security/v1/oauth/token");
  equal(token.body, "grant_type=client_credentials");
  ok(details.query.get("locale") === "en_US");
  equal(ctx.fakes.ups.tokenRequests(), 1);
});

Deno.test("UPS: a delivered package has DEL date and time; an unknown number is 200 TW0001", async () => {
  await using ctx = await carrierClient();
  const n = upsNumber(2);
  ctx.fakes.ups.parcels.set(n, upsAnswer(n, DELIVERED));
  const result = await track(ctx, n);
  equal(result.status, "delivered");
  equal(result.actualDelivery, "2025-03-09T03:00:00");
  equal(result.eventCount, 4);
  const unknown = await track(ctx, upsNumber(3));
  eq(unknown, {
    carrier: "ups",
    trackingNumber: upsNumber(3),
    found: false,
    status: "unknown",
    events: [],
    eventCount: 0,
  });
  // One token for both lookups.
  equal(ctx.fakes.ups.tokenRequests(), 1);
});

Deno.test("FedEx: form token with API key and secret; POST trackingnumbers; offsets become UTC", async () => {
  await using ctx = await carrierClient();
  const n = fedexNumber(1);
  ctx.fakes.fedex.parcels.set(n, fedexAnswer(n, DELIVERED));
  const result = await track(ctx, n);
  equal(result.status, "delivered");
  equal(result.events[0].time, "2025-03-09T08:00:00.000Z");
  equal(result.events[0].location, "Paramus, NJ, US");
  equal(result.actualDelivery, "2025-03-09T08:00:00.000Z");
  equal(result.eventCount, 4);
  const track1 = ctx.fakes.fedex.requests.find((r) => r.path === "/track/v1/trackingnumbers")!;
  eq(JSON.parse(track1.body), {
    includeDetailedScans: true,
    trackingInfo: [{ trackingNumberInfo: { trackingNumber: n } }],
  });
  equal(track1.headers.get("x-locale"), "en_US");

  const transit = fedexNumber(2);
  ctx.fakes.fedex.parcels.set(transit, fedexAnswer(transit, IN_TRANSIT));
  const moving = await track(ctx, transit);
  equal(moving.status, "out_for_delivery");
  equal(moving.estimatedDelivery, "2025-03-11T01:00:00.000Z");
  const unknown = await track(ctx, fedexNumber(3));
  equal(unknown.found, false);
});

Deno.test("FedEx: of several shipments under one number, the one with the newest scan", async () => {
  await using ctx = await carrierClient();
  const n = fedexNumber(4);
  const old = fedexAnswer(n, journey("2024-01-02T10:00:00Z", ["label", "transit", "delivered"]));
  const current = fedexAnswer(n, IN_TRANSIT);
  const results = (a: unknown) =>
    (a as { output: { completeTrackResults: { trackResults: unknown[] }[] } }).output
      .completeTrackResults[0].trackResults;
  results(old).push(...results(current));
  ctx.fakes.fedex.parcels.set(n, old);
  equal((await track(ctx, n)).status, "out_for_delivery");
});

Deno.test("USPS: JSON token; GET with expand=DETAIL; GMT timestamps; 150006 is a label not scanned", async () => {
  await using ctx = await carrierClient();
  const n = uspsNumber(1);
  ctx.fakes.usps.parcels.set(n, uspsAnswer(n, DELIVERED));
  const result = await track(ctx, n);
  equal(result.status, "delivered");
  equal(result.actualDelivery, "2025-03-09T08:00:00.000Z");
  eq(result.events[0], {
    time: "2025-03-09T08:00:00.000Z",
    location: "PARAMUS, NJ, 07652",
    description: "Delivered",
  });
  const tokenRequest = ctx.fakes.usps.requests[0];
  equal(tokenRequest.headers.get("content-type"), "application/json");

  const pending = uspsNumber(2);
  ctx.fakes.usps.pending.add(pending);
  const label = await track(ctx, pending);
  eq([label.found, label.status], [false, "pre_transit"]);
  const unknown = await track(ctx, uspsNumber(3));
  eq([unknown.found, unknown.status], [false, "unknown"]);

  const moving = uspsNumber(4);
  ctx.fakes.usps.parcels.set(moving, uspsAnswer(moving, IN_TRANSIT));
  const transit = await track(ctx, moving);
  equal(transit.status, "out_for_delivery");
  equal(transit.estimatedDelivery, "2025-03-10T21:00:00.000Z");
});

Deno.test("DHL: one API and key for dhl and dhl-express, with the service the format tells", async () => {
  await using ctx = await carrierClient();
  const express = dhlExpressNumber(1);
  ctx.fakes.dhl.parcels.set(express, dhlAnswer(express, IN_TRANSIT));
  const result = await track(ctx, express);
  equal(result.carrier, "dhl-express");
  equal(result.status, "out_for_delivery");
  equal(result.events[0].location, "Louisville - US");
  equal(result.estimatedDelivery, "2025-03-10T23:59:00.000Z");

  const ecommerce = dhlNumber(1);
  ctx.fakes.dhl.parcels.set(ecommerce, dhlAnswer(ecommerce, DELIVERED, "ecommerce"));
  const delivered = await track(ctx, ecommerce);
  eq([delivered.carrier, delivered.status, delivered.actualDelivery], [
    "dhl",
    "delivered",
    "2025-03-09T03:00:00",
  ]);
  const services = ctx.fakes.dhl.requests.map((r) => r.query.get("service"));
  eq(services, ["express", "ecommerce"]);
  equal(ctx.fakes.dhl.tokenRequests(), 0);
  const unknown = await track(ctx, dhlExpressNumber(2));
  equal(unknown.found, false);
});

Deno.test("every adapter: an answer that is not the documented shape is a 502-kind failure", async () => {
  await using ctx = await carrierClient();
  for (const n of [upsNumber(5), fedexNumber(5), uspsNumber(5), dhlExpressNumber(5)]) {
    const fake = ctx.fakes[
      n.startsWith("1Z") ? "ups" : n.length === 12 ? "fedex" : n.length === 22 ? "usps" : "dhl"
    ];
    fake.parcels.set(n, { something: "else" });
    const error = await ctx.carriers.track(queryFor(n), "lookup").then(() => null, (e) => e);
    equal(error?.name, "UpstreamError", n);
    ok(/could not be read/.test(error.message), error.message);
  }
});
