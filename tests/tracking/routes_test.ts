/**
 * `GET /api/carriers`, `GET /api/carriers/detect` and `GET /api/carrier-status` through the
 * app, with the carriers' fakes on loopback: the answer's shape, the cache, the orders a live
 * answer updates and the events it fires, and every error status.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import type { Order } from "../../src/domain/orders/order.ts";
import type { EventEnvelope } from "../../src/domain/events/envelope.ts";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import {
  dhlAnswer,
  dhlExpressNumber,
  fedexAnswer,
  fedexNumber,
  journey,
  upsAnswer,
  upsNumber,
  uspsNumber,
} from "./answers.ts";
import { type Fakes, NO_PACING, startFakes } from "./fakes.ts";
import { Clock } from "./helpers.ts";

interface Ctx extends TestContext {
  fakes: Fakes;
  clock: Clock;
}

async function carrierApp(env: Record<string, string> = {}, withFakes = true): Promise<Ctx> {
  const fakes = startFakes();
  const clock = new Clock(Date.parse("2025-03-10T12:00:00Z"));
  const ctx = await testApp({ ...(withFakes ? fakes.env : {}), ...env }, {
    now: clock.now,
    deps: { carriers: NO_PACING },
  });
  const close = async () => {
    await ctx.close();
    await fakes.close();
  };
  return { ...ctx, fakes, clock, close, [Symbol.asyncDispose]: close };
}

async function eventsOf(ctx: TestContext, userId: string): Promise<EventEnvelope[]> {
  const out: EventEnvelope[] = [];
  for await (const e of ctx.kv.list<EventEnvelope>({ prefix: keys.events(userId) })) {
    out.push(e.value);
  }
  return out;
}

async function createOrder(ctx: TestContext, token: string, body: Record<string, unknown>) {
  const res = await call<{ order: Order }>(ctx, "POST", "/api/orders", { token, body });
  equal(res.status, 201);
  return res.body.order;
}

const status = (ctx: TestContext, token: string, query: string) =>
  call(ctx, "GET", `/api/carrier-status?${query}`, { token });

const TRANSIT = journey("2025-03-08T14:00:00Z", ["label", "transit"], 6, "2025-03-12");
const DELIVERED = journey("2025-03-08T14:00:00Z", ["label", "transit", "out", "delivered"], 6);

Deno.test("GET /api/carriers lists the five keys and which have credentials", async () => {
  await using bare = await carrierApp({ DHL_API_KEY: "k" }, false);
  const res = await call(bare, "GET", "/api/carriers");
  equal(res.status, 200);
  eq(res.body, {
    carriers: [
      { key: "ups", name: "UPS", configured: false },
      { key: "fedex", name: "FedEx", configured: false },
      { key: "usps", name: "USPS", configured: false },
      { key: "dhl", name: "DHL eCommerce / Paket", configured: true },
      { key: "dhl-express", name: "DHL Express", configured: true },
    ],
  });
  // Credentials never appear in any answer.
  ok(!JSON.stringify(res.body).includes('"k"'));
});

Deno.test("GET /api/carriers/detect: a token; {valid, carrier}, separators ignored; 400 without a number", async () => {
  await using ctx = await carrierApp();
  const { token } = await signUp(ctx);
  const detect = (query: string, auth: string | null = token) =>
    call(ctx, "GET", `/api/carriers/detect${query}`, auth ? { token: auth } : {});
  // Not a public endpoint: no token, or a wrong one, is 401 whatever the number.
  for (const auth of [null, "not-a-token"]) {
    const denied = await detect("?trackingNumber=1Z5R89390357567127", auth);
    eq([denied.status, denied.body], [401, { error: "Unauthorized" }]);
  }
  const ups = await detect("?trackingNumber=1z5r8-9390 3575 67127");
  eq([ups.status, ups.body], [200, {
    valid: true,
    carrier: "ups",
    trackingNumber: "1Z5R89390357567127",
  }]);
  const bad = await detect("?trackingNumber=1Z5R89390357567128");
  eq([bad.status, bad.body], [200, { valid: false }]);
  const missing = await detect("");
  eq([missing.status, missing.body], [400, { error: "trackingNumber is required" }]);
  const long = await detect(`?trackingNumber=${"1".repeat(257)}`);
  equal(long.status, 400);
});

Deno.test("carrier-status: 401, 400 when no carrier is known or the number is not one, 503 unconfigured", async () => {
  await using ctx = await carrierApp({}, false);
  const { token } = await signUp(ctx);
  equal((await call(ctx, "GET", `/api/carrier-status?trackingNumber=${upsNumber(1)}`)).status, 401);
  const cases: [string, number, string][] = [
    [
      "trackingNumber=12345",
      400,
      "carrier could not be detected from trackingNumber; send carrier",
    ],
    ["", 400, "trackingNumber is required"],
    [`trackingNumber=${upsNumber(1)}&carrier=royal-mail`, 400, "carrier: "],
    ["trackingNumber=AB%2F12&carrier=ups", 400, "trackingNumber: must be letters and digits"],
    [`trackingNumber=${upsNumber(1)}`, 503, "UPS tracking is not configured on this deployment"],
    ["trackingNumber=12345&carrier=dhl", 503, "DHL eCommerce / Paket tracking is not configured"],
  ];
  for (const [query, code, message] of cases) {
    const res = await status(ctx, token, query);
    equal(res.status, code, query);
    ok(String(res.body.error).startsWith(message), `${query}: ${res.body.error}`);
  }
});

Deno.test("carrier-status: a live answer, then the cache (cached: true, no call, no event) until it ages", async () => {
  await using ctx = await carrierApp();
  const { user, token } = await signUp(ctx);
  const n = upsNumber(7);
  ctx.fakes.ups.parcels.set(n, upsAnswer(n, TRANSIT));
  const live = await status(ctx, token, `trackingNumber=${n.slice(0, 6)} ${n.slice(6)}`);
  equal(live.status, 200);
  eq(live.body, {
    trackingNumber: n,
    carrier: "ups",
    status: "in_transit",
    delivered: false,
    estimatedDelivery: "2025-03-12",
    eventCount: 2,
    events: [
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
    checkedAt: "2025-03-10T12:00:00.000Z",
    cached: false,
  });
  ctx.clock.advance(14 * 60_000);
  const cached = await status(ctx, token, `trackingNumber=${n}`);
  eq(cached.body, { ...live.body, cached: true });
  equal(ctx.fakes.ups.trackRequests(), 1);
  // Another carrier asked for the same number is not this cache's answer.
  const other = await status(ctx, token, `trackingNumber=${n}&carrier=fedex`);
  eq([other.status, other.body.status, other.body.cached], [200, "unknown", false]);
  ctx.clock.advance(60_000);
  const again = await status(ctx, token, `trackingNumber=${n}`);
  eq([again.body.cached, again.body.checkedAt], [false, "2025-03-10T12:15:00.000Z"]);
  equal(ctx.fakes.ups.trackRequests(), 2);
  // No order has this number: nothing fired.
  eq(await eventsOf(ctx, user.id), []);
});

Deno.test("carrier-status: a live answer updates every order with the number and fires events once", async () => {
  await using ctx = await carrierApp();
  const { user, token } = await signUp(ctx, { timezone: "America/Los_Angeles" });
  const other = await signUp(ctx);
  const n = fedexNumber(11);
  ctx.fakes.fedex.parcels.set(n, fedexAnswer(n, TRANSIT));
  const a = await createOrder(ctx, token, { itemSummary: "Boots", trackingNumber: n });
  const b = await createOrder(ctx, token, {
    itemSummary: "Laces",
    trackingNumber: `${n.slice(0, 4)}-${n.slice(4, 8)}-${n.slice(8)}`,
    status: "ordered",
  });
  const edited = await createOrder(ctx, token, { itemSummary: "Socks", trackingNumber: n });
  await call(ctx, "PATCH", `/api/orders/${edited.id}`, {
    token,
    body: { estimatedDelivery: "2025-04-01", carrier: "FedEx Ground" },
  });
  const theirs = await createOrder(ctx, other.token, { itemSummary: "Hat", trackingNumber: n });
  const before = (await eventsOf(ctx, user.id)).length;

  equal((await status(ctx, token, `trackingNumber=${n}`)).status, 200);
  const get = async (id: string, t = token) =>
    (await call<{ order: Order }>(ctx, "GET", `/api/orders/${id}`, { token: t })).body.order;
  const [afterA, afterB, afterEdited] = [await get(a.id), await get(b.id), await get(edited.id)];
  eq([afterA.status, afterA.carrier, afterA.estimatedDelivery], ["shipped", "fedex", "2025-03-12"]);
  eq([afterB.status, afterB.carrier], ["shipped", "fedex"]);
  // PATCHed fields are the user's: untouched.
  eq([afterEdited.estimatedDelivery, afterEdited.carrier], ["2025-04-01", "FedEx Ground"]);
  eq(await get(theirs.id, other.token), theirs);

  const fired = (await eventsOf(ctx, user.id)).slice(before);
  eq(
    fired.map((e) => [e.type, (e.data as { order: Order }).order.id]).sort(),
    [
      ["order.shipped", b.id],
      ["order.tracking_updated", a.id],
      ["order.tracking_updated", b.id],
      ["order.tracking_updated", edited.id],
    ].sort(),
  );
  const updated = fired.find((e) => e.type === "order.tracking_updated")!;
  eq(Object.keys(updated.data).sort(), ["carrier", "delivered", "eventCount", "order"]);
  eq([updated.data.carrier, updated.data.delivered, updated.data.eventCount], ["fedex", false, 2]);
  const shipped = fired.find((e) => e.type === "order.shipped")!;
  eq(shipped.data, { order: afterB, source: "manual" });
  eq(await eventsOf(ctx, other.user.id), [
    ...(await eventsOf(ctx, other.user.id)).filter((e) => e.type === "order.created"),
  ]);

  // Delivered: actualDelivery in the account's timezone, order.delivered once.
  ctx.fakes.fedex.parcels.set(n, fedexAnswer(n, DELIVERED));
  ctx.clock.advance(20 * 60_000);
  const delivered = await status(ctx, token, `trackingNumber=${n}`);
  eq([delivered.body.status, delivered.body.delivered, delivered.body.actualDelivery], [
    "delivered",
    true,
    "2025-03-09", // 08:00 UTC on the 9th is 00:00 in Los Angeles
  ]);
  const done = await get(a.id);
  eq([done.status, done.actualDelivery], ["delivered", "2025-03-09"]);
  ctx.clock.advance(20 * 60_000);
  await status(ctx, token, `trackingNumber=${n}`);
  const all = (await eventsOf(ctx, user.id)).slice(before);
  equal(all.filter((e) => e.type === "order.delivered").length, 3);
  equal(all.filter((e) => e.type === "order.tracking_updated").length, 9);
  equal(all.filter((e) => e.type === "order.shipped").length, 1);
});

Deno.test("carrier-status: an exception moves shipped orders to issue; delivery moves them on", async () => {
  await using ctx = await carrierApp();
  const { user, token } = await signUp(ctx);
  const n = dhlExpressNumber(21);
  const order = await createOrder(ctx, token, { itemSummary: "Lamp", trackingNumber: n });
  ctx.fakes.dhl.parcels.set(
    n,
    dhlAnswer(n, journey("2025-03-09T08:00:00Z", ["transit", "exception"])),
  );
  const res = await status(ctx, token, `trackingNumber=${n}`);
  eq([res.body.status, res.body.carrier], ["exception", "dhl-express"]);
  const get = async () =>
    (await call<{ order: Order }>(ctx, "GET", `/api/orders/${order.id}`, { token })).body.order;
  equal((await get()).status, "issue");
  ctx.fakes.dhl.parcels.set(
    n,
    dhlAnswer(n, journey("2025-03-09T08:00:00Z", ["transit", "exception", "delivered"])),
  );
  ctx.clock.advance(16 * 60_000);
  await status(ctx, token, `trackingNumber=${n}`);
  eq([(await get()).status, (await get()).actualDelivery], ["delivered", "2025-03-09"]);
  const types = (await eventsOf(ctx, user.id)).map((e) => e.type);
  eq(types, [
    "order.created",
    "order.tracking_updated",
    "order.tracking_updated",
    "order.delivered",
  ]);
});

Deno.test("carrier-status: 502 when the carrier fails, with Retry-After when it asks to slow down", async () => {
  await using ctx = await carrierApp();
  const { token } = await signUp(ctx);
  const n = uspsNumber(5);
  ctx.fakes.usps.forced.push({ status: 500, body: {} });
  const failed = await status(ctx, token, `trackingNumber=${n}`);
  eq([failed.status, failed.body], [502, { error: "USPS failed (HTTP 500)", carrier: "usps" }]);
  ctx.fakes.usps.forced.push({ status: 429, headers: { "retry-after": "30" }, body: {} });
  const limited = await status(ctx, token, `trackingNumber=${n}`);
  eq([limited.status, limited.body], [502, {
    error: "USPS asked for fewer requests; retry in 30 s",
    carrier: "usps",
    retryAfterSeconds: 30,
  }]);
  equal(limited.headers.get("retry-after"), "30");
});

Deno.test("carrier-status: 503 with Retry-After when the day's lookup share is spent", async () => {
  await using ctx = await carrierApp({ TRACKING_DAILY_BUDGET: "10" });
  const { token } = await signUp(ctx);
  const n = dhlExpressNumber(31);
  ctx.fakes.dhl.parcels.set(n, dhlAnswer(n, TRANSIT));
  for (let i = 0; i < 2; i++) {
    equal((await status(ctx, token, `trackingNumber=${dhlExpressNumber(40 + i)}`)).status, 200);
  }
  const spent = await status(ctx, token, `trackingNumber=${n}`);
  eq([spent.status, spent.body], [503, {
    error: "Today's 2 DHL Express lookups are used up; try again after 00:00 UTC",
  }]);
  equal(spent.headers.get("retry-after"), String(12 * 3600));
});
