import assert from "node:assert/strict";
import { clampLimit, clampOffset, envelope, pageOf, parsePaging } from "../../src/http/paging.ts";

Deno.test("limit: default 50 when missing, empty, non-numeric or 0", () => {
  for (const raw of [undefined, "", " ", "abc", "0", "1e999x", "NaN"]) {
    assert.equal(clampLimit(raw), 50, `limit=${raw}`);
  }
});

Deno.test("limit: within bounds is kept, above 200 becomes 200, negative becomes 1", () => {
  assert.equal(clampLimit("1"), 1);
  assert.equal(clampLimit("37"), 37);
  assert.equal(clampLimit("200"), 200);
  assert.equal(clampLimit("201"), 200);
  assert.equal(clampLimit("100000"), 200);
  assert.equal(clampLimit("-1"), 1);
  assert.equal(clampLimit("-500"), 1);
  assert.equal(clampLimit("12.9"), 12);
});

Deno.test("limit: other bounds for log lists", () => {
  const logs = { defaultLimit: 100, maxLimit: 500 };
  assert.equal(clampLimit(undefined, logs), 100);
  assert.equal(clampLimit("0", logs), 100);
  assert.equal(clampLimit("501", logs), 500);
  assert.equal(clampLimit("-3", logs), 1);
});

Deno.test("offset: default 0, non-numeric and negative become 0", () => {
  assert.equal(clampOffset(undefined), 0);
  assert.equal(clampOffset("abc"), 0);
  assert.equal(clampOffset("-4"), 0);
  assert.equal(clampOffset("7"), 7);
  assert.deepEqual(parsePaging({ limit: "x", offset: "3" }), { limit: 50, offset: 3 });
});

Deno.test("a repeated limit or offset is non-numeric: the default", () => {
  assert.equal(clampLimit(["1", "2"]), 50);
  assert.equal(clampOffset(["3", "4"]), 0);
});

Deno.test("envelope: hasMore is offset + items < total", () => {
  assert.deepEqual(envelope([1, 2], 5, { limit: 2, offset: 0 }), {
    items: [1, 2],
    total: 5,
    limit: 2,
    offset: 0,
    hasMore: true,
  });
  assert.equal(envelope([5], 5, { limit: 2, offset: 4 }).hasMore, false);
  assert.deepEqual(pageOf([1, 2, 3, 4, 5], { limit: 2, offset: 4 }), {
    items: [5],
    total: 5,
    limit: 2,
    offset: 4,
    hasMore: false,
  });
  assert.equal(pageOf([1, 2, 3], { limit: 50, offset: 10 }).items.length, 0);
});
