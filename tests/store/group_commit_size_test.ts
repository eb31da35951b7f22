/**
 * Group commit's size estimate: values are weighed by their parts, so changes of many small
 * structured values (an order's index entries) share a commit up to KV's ten checks, and large
 * ones still split across commits before KV's limits.
 */
import assert from "node:assert/strict";
import { sharedAtomic } from "../../src/store/group_commit.ts";
import { commit } from "../../src/store/kv.ts";

type Result = Deno.KvCommitResult | Deno.KvCommitError;
const stamp = (r: Result) => r.ok ? r.versionstamp : "failed";

/** A warm-up change commits alone; the others wait for it and are grouped. */
async function grouped(kv: Deno.Kv, values: (i: number) => unknown[], changes: number) {
  const results = await Promise.all([
    commit(sharedAtomic(kv).set(["warm"], 0)),
    ...Array.from({ length: changes }, (_, i) => {
      const op = sharedAtomic(kv).check({ key: ["number", i], versionstamp: null });
      values(i).forEach((value, j) => op.set(["value", i, j], value));
      return commit(op);
    }),
  ]);
  assert.ok(results.every((r) => r.ok));
  const stamps = results.slice(1).map(stamp);
  return [...new Set(stamps)].map((s) => stamps.filter((t) => t === s).length);
}

Deno.test("group commit: changes of many small objects share a commit up to ten checks", async () => {
  using kv = await Deno.openKv(":memory:");
  // Fourteen small structured values each, as a create's order copies and search postings.
  const small = (i: number) =>
    Array.from({ length: 14 }, (_, j) =>
      j % 2 ? [1, `bench item ${i} bench store`] : {
        id: `ord_${i}`,
        itemSummary: `Bench item ${i}`,
        lines: [{ name: "Bench item", quantity: 1 }],
      });
  assert.deepEqual(await grouped(kv, small, 12), [10, 2]);
  let stored = 0;
  for await (const _ of kv.list({ prefix: ["value"] })) stored++;
  assert.equal(stored, 12 * 14);
});

Deno.test("group commit: large values still split a batch before KV's size limit", async () => {
  using kv = await Deno.openKv(":memory:");
  // Two objects of 30,000 characters in each change, weighed at 64 KiB each (a character may
  // take 3 bytes, and no value exceeds 64 KiB): four changes fill the 600 KB a commit may hold.
  const large = (i: number) => [0, 1].map((j) => ({ i, j, text: "x".repeat(30_000) }));
  const sizes = await grouped(kv, large, 9);
  assert.deepEqual(sizes, [4, 4, 1]);
});
