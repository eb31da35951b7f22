/**
 * The flow every adapter runs through, against the fakes: the token cache (one fetch under
 * concurrency, kept until shortly before expiry, replaced once when refused), 429 with
 * `Retry-After`, 5xx and timeouts, the pause after repeated failures, the daily budget shares,
 * pacing, and credentials kept out of errors and logs.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { DEFAULT_GAPS_MS } from "../../src/tracking/client.ts";
import { budgetDay } from "../../src/domain/tracking/tracker.ts";
import type { UpstreamError } from "../../src/errors.ts";
import { callsSpent } from "../../src/store/tracking/carrier_budget.ts";
import {
  dhlAnswer,
  dhlExpressNumber,
  fedexAnswer,
  fedexNumber,
  journey,
  upsAnswer,
  upsNumber,
  uspsAnswer,
  uspsNumber,
} from "./answers.ts";
import type { FakeCarrier } from "./fakes.ts";
import { carrierClient, type ClientContext, queryFor } from "./helpers.ts";

const TRANSIT = journey("2025-03-09T08:00:00Z", ["label", "transit"]);

/** One parcel per OAuth API, with its fake. */
function oauthCases(ctx: ClientContext): { fake: FakeCarrier; n: string }[] {
  const cases = [
    { fake: ctx.fakes.ups, n: upsNumber(1), answer: upsAnswer },
    { fake: ctx.fakes.fedex, n: fedexNumber(1), answer: fedexAnswer },
    { fake: ctx.fakes.usps, n: uspsNumber(1), answer: uspsAnswer },
  ];
  for (const c of cases) c.fake.parcels.set(c.n, c.answer(c.n, TRANSIT));
  return cases;
}

const failure = (p: Promise<unknown>) =>
  p.then(() => {
    throw new Error("expected a failure");
  }, (e) => e as UpstreamError);

Deno.test("tokens: ten lookups at once fetch one token; it is reused until shortly before expiry", async () => {
  await using ctx = await carrierClient();
  for (const { fake, n } of oauthCases(ctx)) {
    fake.tokenLifetimeS = 3600;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => ctx.carriers.track(queryFor(n), "lookup")),
    );
    ok(outcomes.every((o) => o.ok), fake.api);
    equal(fake.tokenRequests(), 1, fake.api);
    equal(fake.trackRequests(), 10, fake.api);
    // 58 minutes on: still within the token's life minus the minute's margin.
    ctx.clock.advance(58 * 60_000);
    await ctx.carriers.track(queryFor(n), "lookup");
    equal(fake.tokenRequests(), 1, fake.api);
    // Past 59 minutes: a new one before the old one runs out.
    ctx.clock.advance(90_000);
    await ctx.carriers.track(queryFor(n), "lookup");
    equal(fake.tokenRequests(), 2, fake.api);
    ctx.clock.ms = Date.parse("2025-03-10T12:00:00Z");
  }
});

Deno.test("tokens: a token the carrier revoked is replaced once, and the lookup succeeds", async () => {
  await using ctx = await carrierClient();
  for (const { fake, n } of oauthCases(ctx)) {
    ok((await ctx.carriers.track(queryFor(n), "lookup")).ok);
    fake.revokeTokens();
    const again = await ctx.carriers.track(queryFor(n), "lookup");
    ok(again.ok, fake.api);
    equal(fake.tokenRequests(), 2, fake.api);
    const statuses = fake.requests.length;
    equal(statuses, 5, fake.api); // token, track, track (401), token, track
  }
});

Deno.test("credentials the carrier refuses: 502-kind failure naming the carrier, never the secret", async () => {
  await using ctx = await carrierClient({
    env: {
      UPS_CLIENT_SECRET: "wrong-ups-secret-value",
      FEDEX_SECRET_KEY: "wrong-fedex-secret-value",
      USPS_CLIENT_SECRET: "wrong-usps-secret-value",
      DHL_API_KEY: "wrong-dhl-key-value",
    },
  });
  const cases = [
    [upsNumber(1), "UPS"],
    [fedexNumber(1), "FedEx"],
    [uspsNumber(1), "USPS"],
    [dhlExpressNumber(1), "DHL"],
  ];
  for (const [n, name] of cases) {
    const error = await failure(ctx.carriers.track(queryFor(n), "lookup"));
    equal(error.name, "UpstreamError");
    equal(error.message, `${name} did not accept this deployment's credentials`);
    eq(error.details, { carrier: queryFor(n).carrier });
  }
  const logged = ctx.logs.join("\n");
  for (const secret of ["wrong-ups", "wrong-fedex", "wrong-usps", "wrong-dhl", "client-id"]) {
    ok(!logged.includes(secret), secret);
  }
  ok(logged.includes("did not accept"));
});

Deno.test("429: the API pauses for Retry-After, lookups fail without calling, then resume", async () => {
  await using ctx = await carrierClient();
  const n = dhlExpressNumber(3);
  ctx.fakes.dhl.parcels.set(n, dhlAnswer(n, TRANSIT));
  ctx.fakes.dhl.forced.push({
    status: 429,
    headers: { "retry-after": "120" },
    body: { title: "Too many requests", status: 429 },
  });
  const first = await failure(ctx.carriers.track(queryFor(n), "lookup"));
  equal(first.message, "DHL asked for fewer requests; retry in 120 s");
  eq(first.details, { carrier: "dhl-express", retryAfterSeconds: 120 });
  ctx.clock.advance(60_000);
  const paused = await failure(ctx.carriers.track(queryFor(dhlExpressNumber(4)), "tracker"));
  eq(paused.details, { carrier: "dhl-express", retryAfterSeconds: 60 });
  equal(ctx.fakes.dhl.requests.length, 1);
  ctx.clock.advance(60_000);
  ok((await ctx.carriers.track(queryFor(n), "lookup")).ok);
  // The refused call counted against the budget too.
  equal(await callsSpent(ctx.kv, "dhl", budgetDay(ctx.clock.ms), "lookup"), 2);
});

Deno.test("429 on the token endpoint pauses too; an HTTP-date Retry-After is read", async () => {
  await using ctx = await carrierClient();
  const [{ fake, n }] = oauthCases(ctx);
  fake.forced.push({
    status: 429,
    headers: { "retry-after": new Date(ctx.clock.ms + 30_000).toUTCString() },
    body: { response: { errors: [{ code: "10429", message: "Too Many Requests" }] } },
  });
  const error = await failure(ctx.carriers.track(queryFor(n), "lookup"));
  eq(error.details, { carrier: "ups", retryAfterSeconds: 30 });
});

Deno.test("5xx, timeouts and unreachable APIs fail; three in a row pause the API a minute", async () => {
  await using ctx = await carrierClient({ carrier: { gapsMs: { ups: 0 }, timeoutMs: 200 } });
  const [{ fake, n }] = oauthCases(ctx);
  fake.forced.push({
    status: 503,
    body: { response: { errors: [{ code: "503", message: "down" }] } },
  });
  equal(
    (await failure(ctx.carriers.track(queryFor(n), "lookup"))).message,
    "UPS failed (HTTP 503)",
  );
  fake.forced.push({ status: 200, delayMs: 1000, body: {} });
  equal(
    (await failure(ctx.carriers.track(queryFor(n), "lookup"))).message,
    "UPS did not answer within 0.2 s",
  );
  fake.forced.push({ status: 500, body: {} });
  await failure(ctx.carriers.track(queryFor(n), "lookup"));
  const requests = fake.requests.length;
  const paused = await failure(ctx.carriers.track(queryFor(n), "lookup"));
  equal(paused.message, "UPS is failing; retry in 60 s");
  equal(fake.requests.length, requests);
  ctx.clock.advance(60_000);
  ok((await ctx.carriers.track(queryFor(n), "lookup")).ok);
  await new Promise((r) => setTimeout(r, 900)); // the delayed answer's timer ends
});

Deno.test("an API base nobody listens on is unreachable", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await using ctx = await carrierClient({ env: { DHL_API_BASE: `http://127.0.0.1:${port}` } });
  const error = await failure(ctx.carriers.track(queryFor(dhlExpressNumber(1)), "lookup"));
  equal(error.message, "DHL is unreachable");
});

Deno.test("budget: each share of the day is counted before every call, token calls included", async () => {
  // 10 a day: 8 for the tracker, 2 for lookups.
  await using ctx = await carrierClient({ env: { TRACKING_DAILY_BUDGET: "10" } });
  const [{ fake, n }] = oauthCases(ctx);
  ok((await ctx.carriers.track(queryFor(n), "lookup")).ok); // token + track
  const spent = await ctx.carriers.track(queryFor(n), "lookup");
  eq(spent, { ok: false, reason: "budget_spent", retryAfterMs: 12 * 3_600_000 });
  equal(fake.requests.length, 2);
  for (let i = 0; i < 8; i++) ok((await ctx.carriers.track(queryFor(n), "tracker")).ok);
  equal((await ctx.carriers.track(queryFor(n), "tracker")).ok, false);
  equal(fake.requests.length, 10);
  equal(ctx.carriers.callsMade("ups", "tracker"), 8);
  // A new UTC day, a new budget.
  ctx.clock.advance(12 * 3_600_000);
  ok((await ctx.carriers.track(queryFor(n), "lookup")).ok);
});

Deno.test("budget: racing lookups never spend more than the share", async () => {
  await using ctx = await carrierClient({ env: { TRACKING_DAILY_BUDGET: "50" } });
  const n = dhlExpressNumber(9);
  ctx.fakes.dhl.parcels.set(n, dhlAnswer(n, TRANSIT));
  const outcomes = await Promise.all(
    Array.from({ length: 30 }, () => ctx.carriers.track(queryFor(n), "lookup")),
  );
  equal(outcomes.filter((o) => o.ok).length, 10);
  equal(ctx.fakes.dhl.requests.length, 10);
});

Deno.test("pacing: calls to one API are spaced by its gap; other APIs do not wait", async () => {
  await using ctx = await carrierClient({ carrier: { gapsMs: { dhl: 150, fedex: 0 } } });
  const n = dhlExpressNumber(5);
  ctx.fakes.dhl.parcels.set(n, dhlAnswer(n, TRANSIT));
  const started = performance.now();
  await Promise.all(Array.from({ length: 4 }, () => ctx.carriers.track(queryFor(n), "lookup")));
  ok(performance.now() - started >= 3 * 150 - 5, "four calls take three gaps");
  equal(DEFAULT_GAPS_MS.dhl, 1000);
  equal(DEFAULT_GAPS_MS.usps, 1000);
});

Deno.test("a carrier without credentials is reported, and not called", async () => {
  await using ctx = await carrierClient({
    without: ["UPS_CLIENT_ID", "UPS_CLIENT_SECRET", "DHL_API_KEY"],
  });
  eq(ctx.carriers.list(), [
    { key: "ups", name: "UPS", configured: false },
    { key: "fedex", name: "FedEx", configured: true },
    { key: "usps", name: "USPS", configured: true },
    { key: "dhl", name: "DHL eCommerce / Paket", configured: false },
    { key: "dhl-express", name: "DHL Express", configured: false },
  ]);
  eq(await ctx.carriers.track(queryFor(upsNumber(1)), "lookup"), {
    ok: false,
    reason: "not_configured",
  });
  equal(ctx.fakes.ups.requests.length + ctx.fakes.dhl.requests.length, 0);
});
