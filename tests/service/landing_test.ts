import assert from "node:assert/strict";
import { roughly, snapshotServes } from "../../src/domain/service/landing.ts";
import { keys } from "../../src/store/keys.ts";
import { addToCounter } from "../../src/store/kv.ts";
import { call, signUp, testApp } from "../helpers.ts";

const HOUR = 3_600_000;

Deno.test("landing stats: an hourly snapshot of the platform counters, rounded, public and cacheable", async () => {
  const clock = { now: Date.parse("2026-06-01T10:05:00.000Z") };
  await using ctx = await testApp({}, { now: () => clock.now });
  const empty = await call(ctx, "GET", "/api/landing-stats");
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, {
    generatedAt: "2026-06-01T10:05:00.000Z",
    totalValueCents: 0,
    ordersTracked: 0,
    platformsSupported: 5,
  });
  const op = ctx.kv.atomic();
  addToCounter(op, keys.stat("orders"), 1234);
  addToCounter(op, keys.stat("value_cents"), 9_876_543);
  await op.commit();
  // Within the hour: the snapshot taken at 10:05 still serves.
  clock.now += 50 * 60_000;
  assert.deepEqual((await call(ctx, "GET", "/api/landing-stats")).body, empty.body);
  // The next UTC hour takes a new one, rounded down to two significant digits.
  clock.now = Date.parse("2026-06-01T11:00:00.000Z");
  const res = await call(ctx, "GET", "/api/landing-stats");
  assert.deepEqual(res.body, {
    generatedAt: "2026-06-01T11:00:00.000Z",
    totalValueCents: 9_800_000,
    ordersTracked: 1200,
    platformsSupported: 5,
  });
  assert.equal(res.headers.get("cache-control"), "public, max-age=60");
});

Deno.test("landing stats: an account's new order does not show what it cost", async () => {
  const clock = { now: Date.parse("2026-06-01T10:00:00.000Z") };
  await using ctx = await testApp({}, { now: () => clock.now });
  const { token } = await signUp(ctx);
  const seed = ctx.kv.atomic();
  addToCounter(seed, keys.stat("orders"), 3_400);
  addToCounter(seed, keys.stat("value_cents"), 51_234_500);
  await seed.commit();
  // The attack: read the figures, wait for a known purchase, read them again.
  const before = (await call(ctx, "GET", "/api/landing-stats")).body;
  const created = await call(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Espresso machine", costCents: 43_999 },
  });
  assert.equal(created.status, 201);
  clock.now += 10 * 60_000;
  assert.deepEqual((await call(ctx, "GET", "/api/landing-stats")).body, before);
  // Even across the hour, rounding hides it: the counters moved by 1 and 43,999.
  clock.now += HOUR;
  const after = (await call(ctx, "GET", "/api/landing-stats")).body;
  assert.deepEqual([after.ordersTracked, after.totalValueCents], [3_400, 51_000_000]);
  assert.notEqual(after.generatedAt, before.generatedAt);
});

Deno.test("landing rules: two significant digits, down; one snapshot per UTC hour", () => {
  const cases: [number, number][] = [
    [0, 0],
    [7, 7],
    [99, 99],
    [100, 100],
    [1234, 1200],
    [
      9_999,
      9_900,
    ],
    [10_000, 10_000],
    [51_234_500, 51_000_000],
    [-3, 0],
    [12.9, 12],
  ];
  for (const [n, shown] of cases) assert.equal(roughly(n), shown, String(n));
  const t = Date.parse("2026-06-01T10:00:00.000Z");
  assert.ok(snapshotServes(t, t + HOUR - 1));
  assert.ok(!snapshotServes(t, t + HOUR));
  assert.ok(!snapshotServes(t - 1, t));
});
