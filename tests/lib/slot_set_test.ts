/** lib/slot_set.ts against a plain Set, through its change from a list to a bitset and back. */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { common, SlotSet } from "../../src/lib/slot_set.ts";

/** A small deterministic generator (tests repeat exactly). */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

function members(set: SlotSet): number[] {
  const out: number[] = [];
  set.descending((slot) => {
    out.push(slot);
  });
  return out;
}

Deno.test("SlotSet: the members of a plain Set, greatest first, sparse and dense", () => {
  const next = random(7);
  for (const span of [50, 5_000, 200_000]) {
    const set = new SlotSet();
    const reference = new Set<number>();
    for (let i = 0; i < 20_000; i++) {
      const slot = Math.floor(next() * span);
      if (next() < 0.3) {
        set.delete(slot);
        reference.delete(slot);
      } else {
        set.add(slot);
        reference.add(slot);
      }
      if (i % 997 === 0) equal(set.has(slot), reference.has(slot));
    }
    equal(set.size, reference.size, `span ${span}`);
    eq(members(set), [...reference].sort((a, b) => b - a), `span ${span}`);
    for (let slot = 0; slot < Math.min(span, 2_000); slot++) {
      equal(set.has(slot), reference.has(slot));
    }
    equal(set.has(span * 40), false);
  }
});

Deno.test("SlotSet: slots appended in order, then most deleted; a visit stops when told", () => {
  const set = new SlotSet();
  for (let slot = 0; slot < 10_000; slot++) set.add(slot);
  set.add(31);
  equal(set.size, 10_000);
  for (let slot = 0; slot < 10_000; slot++) if (slot % 100 !== 0) set.delete(slot);
  equal(set.size, 100);
  eq(members(set).slice(0, 3), [9_900, 9_800, 9_700]);
  const seen: number[] = [];
  set.descending((slot) => seen.push(slot) < 2);
  eq(seen, [9_900, 9_800]);
  set.add(31);
  set.add(32);
  eq(members(set).slice(-4), [100, 32, 31, 0]);
  equal(set.size, 102);
});

Deno.test("common: the slots in a range every set holds, counted and visited, bitsets or not", () => {
  const next = random(3);
  // Dense sets (bitsets) and a sparse one (a list), over 3,000 slots.
  const shapes = [0.6, 0.5, 0.02];
  const sets = shapes.map(() => new SlotSet());
  const plain = shapes.map(() => new Set<number>());
  for (let slot = 0; slot < 3_000; slot++) {
    shapes.forEach((p, i) => {
      if (next() < p) {
        sets[i].add(slot);
        plain[i].add(slot);
      }
    });
  }
  equal(sets[0].bitset !== null && sets[1].bitset !== null && sets[2].bitset === null, true);
  for (const group of [[0], [0, 1], [0, 1, 2], [2, 0]]) {
    for (const [lo, hi] of [[0, 3_000], [1, 33], [31, 32], [32, 64], [37, 2_999], [500, 500]]) {
      const want = [...plain[group[0]]]
        .filter((s) => s >= lo && s < hi && group.every((i) => plain[i].has(s)))
        .sort((a, b) => b - a);
      const seen: number[] = [];
      const total = common(group.map((i) => sets[i]), lo, hi, (slot) => {
        seen.push(slot);
      });
      equal(total, want.length, `${group} [${lo}, ${hi})`);
      eq(seen, want, `${group} [${lo}, ${hi})`);
      const first: number[] = [];
      common(group.map((i) => sets[i]), lo, hi, (slot) => first.push(slot) < 3);
      eq(first, want.slice(0, 3));
    }
  }
});
