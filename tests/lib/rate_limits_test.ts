import assert from "node:assert/strict";
import { RateLimits, SlidingWindowLimiter } from "../../src/lib/rate_limits.ts";

Deno.test("sliding window: the limit holds within 60 s and frees up as hits age out", () => {
  const limiter = new SlidingWindowLimiter(3);
  const t0 = 1_000_000;
  assert.equal(limiter.take("a", t0), true);
  assert.equal(limiter.take("a", t0 + 10_000), true);
  assert.equal(limiter.take("a", t0 + 20_000), true);
  assert.equal(limiter.take("a", t0 + 30_000), false);
  assert.equal(limiter.take("b", t0 + 30_000), true, "keys are counted apart");
  assert.equal(limiter.take("a", t0 + 59_999), false);
  assert.equal(limiter.take("a", t0 + 60_001), true, "the first hit left the window");
  assert.equal(limiter.take("a", t0 + 60_002), false);
});

Deno.test("rejected hits do not extend the window", () => {
  const limiter = new SlidingWindowLimiter(1);
  assert.equal(limiter.take("a", 0), true);
  for (let t = 1000; t < 60_000; t += 1000) assert.equal(limiter.take("a", t), false);
  assert.equal(limiter.take("a", 60_001), true);
});

Deno.test("limiters with one name share their counts", () => {
  const limits = new RateLimits();
  assert.equal(limits.get("auth", 10), limits.get("auth", 10));
  assert.notEqual(limits.get("auth", 10), limits.get("ingest", 60));
});
