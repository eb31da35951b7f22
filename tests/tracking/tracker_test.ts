/**
 * The background tracker, run by calling its handler with a test clock against the carriers'
 * fakes: what it refreshes, in which order, within which allowance, how it backs off, when it
 * gives up, and that it runs under its lease.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import type { Order } from "../../src/domain/orders/order.ts";
import { budgetDay, STOP_AFTER_MS } from "../../src/domain/tracking/tracker.ts";
import type { EventEnvelope } from "../../src/domain/events/envelope.ts";
import { runTracker } from "../../src/tracking/tracker.ts";
import { everyMinutes } from "../../src/lib/periods.ts";
import { CRON_JOBS, jobContext } from "../../src/jobs/registry.ts";
import { callsSpent } from "../../src/store/tracking/carrier_budget.ts";
import { keys } from "../../src/store/keys.ts";
import { withLease } from "../../src/store/lease.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
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
import { type Fakes, NO_PACING, startFakes } from "./fakes.ts";
import { Clock } from "./helpers.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Ctx extends TestContext {
  fakes: Fakes;
  clock: Clock;
}

async function trackerApp(env: Record<string, string> = {}, start = "2025-03-10T12:00:00Z") {
  const fakes = startFakes();
  const clock = new Clock(Date.parse(start));
  const ctx = await testApp({ ...fakes.env, ...env }, {
    now: clock.now,
    deps: { carriers: NO_PACING },
  });
  const close = async () => {
    await ctx.close();
    await fakes.close();
  };
  return { ...ctx, fakes, clock, close, [Symbol.asyncDispose]: close } as Ctx;
}

async function order(ctx: TestContext, token: string, body: Record<string, unknown>) {
  const res = await call<{ order: Order }>(ctx, "POST", "/api/orders", { token, body });
  equal(res.status, 201);
  return res.body.order;
}

const get = async (ctx: TestContext, token: string, id: string) =>
  (await call<{ order: Order }>(ctx, "GET", `/api/orders/${id}`, { token })).body.order;

async function eventTypes(ctx: TestContext, userId: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of ctx.kv.list<EventEnvelope>({ prefix: keys.events(userId) })) {
    out.push(e.value.type);
  }
  return out;
}

const trackedNumbers = (ctx: Ctx) =>
  ctx.fakes.dhl.requests.map((r) => r.query.get("trackingNumber"));

Deno.test("the job ticks every minute and passes on the minutes TRACKING_POLL_MINUTES falls on", async () => {
  const at = (hh: number, mm: number) => Date.UTC(2026, 0, 5, hh, mm, 20);
  eq([0, 15, 30, 45].map((m) => everyMinutes(at(9, m), 15)), [true, true, true, true]);
  eq([1, 14, 29].map((m) => everyMinutes(at(9, m), 15)), [false, false, false]);
  eq([everyMinutes(at(0, 0), 180), everyMinutes(at(3, 0), 180), everyMinutes(at(4, 0), 180)], [
    true,
    true,
    false,
  ]);
  equal(everyMinutes(at(0, 0), 0), false);
  const job = CRON_JOBS.find((j) => j.name === "carrier tracker")!;
  equal(job.schedule, "* * * * *");
  await using ctx = await testApp({ TRACKING_POLL_MINUTES: "15" });
  // No carrier has credentials here: nothing to do, no lease taken.
  await job.run(jobContext(ctx.deps), new AbortController().signal);
  equal((await ctx.kv.get(keys.lease("carrier-tracker"))).versionstamp, null);
});

Deno.test("off with TRACKING_POLL_MINUTES=0; null while another process holds the lease", async () => {
  await using off = await trackerApp({ TRACKING_POLL_MINUTES: "0" });
  equal(await runTracker(off.deps), null);
  await using ctx = await trackerApp();
  let inner: unknown = "not run";
  await withLease(ctx.kv, "carrier-tracker", HOUR, ctx.clock.now, async () => {
    inner = await runTracker(ctx.deps);
  });
  equal(inner, null);
  ok(await runTracker(ctx.deps));
});

Deno.test("a pass refreshes shipped and issue orders of every workspace, on every carrier", async () => {
  await using ctx = await trackerApp();
  const sam = await signUp(ctx, { timezone: "Europe/Berlin" });
  const kim = await signUp(ctx);
  const delivered = journey("2025-03-08T14:00:00Z", ["label", "transit", "out", "delivered"]);
  const moving = journey("2025-03-09T14:00:00Z", ["label", "transit"], 6, "2025-03-12");
  const numbers = {
    ups: upsNumber(1),
    fedex: fedexNumber(1),
    usps: uspsNumber(1),
    dhl: dhlExpressNumber(1),
  };
  ctx.fakes.ups.parcels.set(numbers.ups, upsAnswer(numbers.ups, delivered));
  ctx.fakes.fedex.parcels.set(numbers.fedex, fedexAnswer(numbers.fedex, moving));
  ctx.fakes.usps.parcels.set(numbers.usps, uspsAnswer(numbers.usps, delivered));
  ctx.fakes.dhl.parcels.set(numbers.dhl, dhlAnswer(numbers.dhl, delivered));
  const a = await order(ctx, sam.token, { itemSummary: "A", trackingNumber: numbers.ups });
  const b = await order(ctx, sam.token, { itemSummary: "B", trackingNumber: numbers.fedex });
  const c = await order(ctx, kim.token, {
    itemSummary: "C",
    trackingNumber: numbers.usps,
    status: "issue",
  });
  const d = await order(ctx, kim.token, {
    itemSummary: "D",
    trackingNumber: numbers.dhl,
    carrier: "dhl-express",
  });
  // Not tracked: ordered, delivered, canceled, or without a tracking number or carrier.
  await order(ctx, kim.token, {
    itemSummary: "E",
    trackingNumber: upsNumber(2),
    status: "ordered",
  });
  await order(ctx, kim.token, {
    itemSummary: "F",
    trackingNumber: upsNumber(3),
    status: "delivered",
  });
  await order(ctx, kim.token, { itemSummary: "G", status: "shipped" });
  await order(ctx, kim.token, { itemSummary: "H", trackingNumber: "XYZ-1234", status: "shipped" });
  ctx.clock.advance(MINUTE);

  const report = await runTracker(ctx.deps);
  eq(report, {
    tracked: 4,
    givenUp: 0,
    ordersUpdated: 4,
    apis: {
      ups: { due: 1, looked: 1, failed: 0, calls: 2, allowance: 34 },
      fedex: { due: 1, looked: 1, failed: 0, calls: 2, allowance: 34 },
      usps: { due: 1, looked: 1, failed: 0, calls: 2, allowance: 34 },
      dhl: { due: 1, looked: 1, failed: 0, calls: 1, allowance: 34 },
    },
  });
  eq((await get(ctx, sam.token, a.id)).actualDelivery, "2025-03-09");
  eq((await get(ctx, sam.token, a.id)).status, "delivered");
  eq([
    (await get(ctx, sam.token, b.id)).status,
    (await get(ctx, sam.token, b.id)).estimatedDelivery,
  ], [
    "shipped",
    "2025-03-13",
  ]);
  eq((await get(ctx, kim.token, c.id)).status, "delivered");
  eq((await get(ctx, kim.token, d.id)).status, "delivered");
  eq((await eventTypes(ctx, sam.user.id)).sort(), [
    "order.created",
    "order.created",
    "order.delivered",
    "order.tracking_updated",
    "order.tracking_updated",
  ]);
  equal(await callsSpent(ctx.kv, "ups", budgetDay(ctx.clock.ms), "tracker"), 2);
  equal(await callsSpent(ctx.kv, "ups", budgetDay(ctx.clock.ms), "lookup"), 0);

  // Next pass: the delivered ones are done; the moving one is not due for three hours.
  ctx.clock.advance(30 * MINUTE);
  const next = await runTracker(ctx.deps);
  eq(next, { tracked: 1, givenUp: 0, ordersUpdated: 0, apis: {} });
});

Deno.test("most overdue first, within the pass allowance; the rest wait for the next pass", async () => {
  // 25 a day: the tracker's 20, at 23:00 UTC spread over the 2 passes left: 10 this pass.
  await using ctx = await trackerApp({ TRACKING_DAILY_BUDGET: "25" }, "2025-03-10T20:00:00Z");
  const { token } = await signUp(ctx);
  const numbers: string[] = [];
  for (let i = 0; i < 15; i++) {
    const n = dhlExpressNumber(100 + i);
    numbers.push(n);
    ctx.fakes.dhl.parcels.set(n, dhlAnswer(n, journey("2025-03-10T08:00:00Z", ["transit"])));
  }
  // Created newest number first, a minute apart: the last created has waited least.
  for (const n of [...numbers].reverse()) {
    await order(ctx, token, { itemSummary: n, trackingNumber: n });
    ctx.clock.advance(MINUTE);
  }
  ctx.clock.ms = Date.parse("2025-03-10T23:00:00Z");
  const report = await runTracker(ctx.deps);
  eq(report?.apis.dhl, {
    due: 15,
    looked: 10,
    failed: 0,
    calls: 10,
    allowance: 10,
    stopped: "allowance",
  });
  // Four lookups at a time: the ten most overdue, in whatever order their answers came.
  eq(trackedNumbers(ctx).sort(), [...numbers].reverse().slice(0, 10).sort());
  ctx.clock.advance(30 * MINUTE);
  const last = await runTracker(ctx.deps);
  eq(last?.apis.dhl, { due: 5, looked: 5, failed: 0, calls: 5, allowance: 10 });
  // The day's share (20) was never exceeded.
  equal(await callsSpent(ctx.kv, "dhl", "2025-03-10", "tracker"), 15);
});

Deno.test("a whole day of passes spends at most the tracker's share", async () => {
  await using ctx = await trackerApp({ TRACKING_DAILY_BUDGET: "50" }, "2025-03-10T00:00:00Z");
  const { token } = await signUp(ctx);
  // Sixty parcels whose scans change on every look: always due again after 3 hours.
  let scans = 0;
  ctx.fakes.dhl.answer = (n) =>
    dhlAnswer(n, journey("2025-03-09T00:00:00Z", Array(1 + (++scans % 7)).fill("transit")));
  for (let i = 0; i < 60; i++) {
    await order(ctx, token, { itemSummary: "x", trackingNumber: dhlExpressNumber(500 + i) });
  }
  let looked = 0;
  for (let pass = 0; pass < 48; pass++) {
    ctx.clock.ms = Date.parse("2025-03-10T00:00:00Z") + pass * 30 * MINUTE + 1000;
    looked += (await runTracker(ctx.deps))?.apis.dhl?.looked ?? 0;
  }
  equal(looked, 40);
  equal(ctx.fakes.dhl.requests.length, 40);
  equal(await callsSpent(ctx.kv, "dhl", "2025-03-10", "tracker"), 40);
});

Deno.test("unchanged scans wait longer each time; a change starts the wait again", async () => {
  await using ctx = await trackerApp();
  const { token } = await signUp(ctx);
  const n = fedexNumber(3);
  let stages: ("label" | "transit")[] = ["label"];
  ctx.fakes.fedex.answer = () => fedexAnswer(n, journey("2025-03-10T08:00:00Z", stages));
  await order(ctx, token, { itemSummary: "x", trackingNumber: n });
  const looks: string[] = [];
  // Passes every 30 minutes for two days; record when the fake was asked.
  for (let t = 0; t < 48 * HOUR; t += 30 * MINUTE) {
    ctx.clock.ms = Date.parse("2025-03-10T12:00:00Z") + t;
    if (t === 20 * HOUR) stages = ["label", "transit"];
    const before = ctx.fakes.fedex.trackRequests();
    await runTracker(ctx.deps);
    if (ctx.fakes.fedex.trackRequests() > before) looks.push(`${t / HOUR}h`);
  }
  // 3h, then 6h, 12h; the change seen at 21h starts again at 3h.
  eq(looks, ["0h", "3h", "9h", "21h", "24h", "30h", "42h"]);
});

Deno.test("a number without a change for 60 days is given up", async () => {
  await using ctx = await trackerApp();
  const { token } = await signUp(ctx);
  const n = dhlExpressNumber(7);
  // DHL writes local times without zone: 08:00 UTC is "03:00", read as 03:00 UTC.
  ctx.fakes.dhl.parcels.set(n, dhlAnswer(n, journey("2025-03-10T08:00:00Z", ["transit"])));
  const lastScan = Date.parse("2025-03-10T03:00:00Z");
  await order(ctx, token, { itemSummary: "x", trackingNumber: n });
  equal((await runTracker(ctx.deps))?.apis.dhl?.looked, 1);
  ctx.clock.ms = lastScan + STOP_AFTER_MS - MINUTE;
  equal((await runTracker(ctx.deps))?.apis.dhl?.looked, 1);
  ctx.clock.ms = lastScan + STOP_AFTER_MS;
  const report = await runTracker(ctx.deps);
  eq([report?.tracked, report?.givenUp, report?.apis], [1, 1, {}]);
  equal(ctx.fakes.dhl.requests.length, 2);
  // A lookup through the API still works (once the tracker's answer is out of the cache), and
  // a change there brings the number back.
  ctx.clock.advance(15 * MINUTE);
  ctx.fakes.dhl.parcels.set(n, dhlAnswer(n, journey("2025-05-09T08:00:00Z", ["transit", "out"])));
  const res = await call(ctx, "GET", `/api/carrier-status?trackingNumber=${n}`, { token });
  equal(res.body.status, "out_for_delivery");
  ctx.clock.advance(4 * HOUR);
  equal((await runTracker(ctx.deps))?.apis.dhl?.looked, 1);
});

Deno.test("failures push a number back; three in a row leave the API; a 429 pauses it", async () => {
  await using ctx = await trackerApp();
  const { token } = await signUp(ctx);
  for (let i = 0; i < 5; i++) {
    await order(ctx, token, { itemSummary: "x", trackingNumber: dhlExpressNumber(300 + i) });
    ctx.clock.advance(MINUTE);
  }
  for (let i = 0; i < 3; i++) ctx.fakes.dhl.forced.push({ status: 500, body: {} });
  // One lookup at a time, so "three in a row" is exact.
  const failing = await runTracker(ctx.deps, { concurrency: 1 });
  eq(failing?.apis.dhl, {
    due: 5,
    looked: 0,
    failed: 3,
    calls: 3,
    allowance: 34,
    stopped: "failures",
  });
  // The API is paused a minute after three failures; the two not tried are first next time.
  ctx.clock.advance(2 * MINUTE);
  ctx.fakes.dhl.answer = (n) => dhlAnswer(n, journey("2025-03-10T08:00:00Z", ["transit"]));
  const next = await runTracker(ctx.deps, { concurrency: 1 });
  eq(next?.apis.dhl, { due: 2, looked: 2, failed: 0, calls: 2, allowance: 34 });

  ctx.clock.advance(3 * HOUR);
  ctx.fakes.dhl.forced.push({ status: 429, headers: { "retry-after": "600" }, body: {} });
  const limited = await runTracker(ctx.deps, { concurrency: 1 });
  eq(limited?.apis.dhl?.stopped, "paused");
  eq([limited?.apis.dhl?.looked, limited?.apis.dhl?.failed], [0, 1]);
  ctx.clock.advance(11 * MINUTE);
  const resumed = await runTracker(ctx.deps);
  equal(resumed?.apis.dhl?.failed, 0);
  ok((resumed?.apis.dhl?.looked ?? 0) >= 2);
});
