import assert from "node:assert/strict";
import { MAX_ID_LENGTH, newId, randomHex, randomToken } from "../../src/lib/ids.ts";

Deno.test("ids carry the type prefix and sort in creation order", () => {
  const ids = Array.from({ length: 2000 }, () => newId("ord"));
  for (const id of ids) assert.match(id, /^ord_[0-9a-z]{26}$/);
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  assert.match(newId("evt_test"), /^evt_test_/);
  // The longest prefix still leaves room under the bound past which a path id names nothing.
  assert.ok(newId("evt_test", Number.MAX_SAFE_INTEGER).length <= MAX_ID_LENGTH);
  assert.ok(newId("usr", 1000) < newId("usr", 2000));
});

Deno.test("random tokens have the requested entropy", () => {
  assert.match(randomHex(32), /^[0-9a-f]{64}$/);
  assert.match(randomToken(32), /^[A-Za-z0-9_-]{43}$/);
});
