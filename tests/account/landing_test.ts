import assert from "node:assert/strict";
import { keys } from "../../src/store/keys.ts";
import { addToCounter } from "../../src/store/kv.ts";
import { call, testApp } from "../helpers.ts";

Deno.test("landing stats: platform counters, public and cacheable", async () => {
  const now = Date.parse("2026-06-01T00:00:00.000Z");
  await using ctx = await testApp({}, { now: () => now });
  const empty = await call(ctx, "GET", "/api/landing-stats");
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, {
    generatedAt: "2026-06-01T00:00:00.000Z",
    totalValueCents: 0,
    ordersTracked: 0,
    platformsSupported: 5,
  });
  const op = ctx.kv.atomic();
  addToCounter(op, keys.stat("orders"), 12);
  addToCounter(op, keys.stat("value_cents"), 123_456);
  await op.commit();
  const res = await call(ctx, "GET", "/api/landing-stats");
  assert.equal(res.body.ordersTracked, 12);
  assert.equal(res.body.totalValueCents, 123_456);
  assert.equal(res.headers.get("cache-control"), "public, max-age=60");
});
