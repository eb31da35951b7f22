/**
 * Group commit under load: a full commit (one that waiting cannot make larger) starts while
 * another is in flight, so the connection has it queued when the first ends; a change that
 * must see the first commit's writes, and any commit that is not full, waits for it.
 */
import assert from "node:assert/strict";
import { sharedAtomic } from "../../src/store/group_commit.ts";
import { commit } from "../../src/store/kv.ts";

/** A real KV whose commits log when they are sent and when they are answered. */
function logged(kv: Deno.Kv) {
  const log: string[] = [];
  let n = 0;
  const atomic = () => {
    const op = kv.atomic();
    const id = ++n;
    const send = op.commit.bind(op);
    op.commit = () => {
      log.push(`sent ${id}`);
      return send().finally(() => log.push(`answered ${id}`));
    };
    return op;
  };
  return { kv: new Proxy(kv, { get: (t, p) => p === "atomic" ? atomic : Reflect.get(t, p) }), log };
}

Deno.test("group commit: a full commit is sent while another is in flight", async () => {
  using base = await Deno.openKv(":memory:");
  const { kv, log } = logged(base);
  const results = await Promise.all([
    // Commit 1: in flight alone.
    commit(sharedAtomic(kv).set(["warm"], 0)),
    // Ten checks fill commit 2 (the eleventh change waits), so it is sent at once.
    ...Array.from(
      { length: 11 },
      (_, i) =>
        commit(sharedAtomic(kv).check({ key: ["n", i], versionstamp: null }).set(["n", i], i)),
    ),
  ]);
  assert.ok(results.every((r) => r.ok));
  assert.deepEqual(log.slice(0, 2), ["sent 1", "sent 2"]);
  // Either may be answered first (the store may run them in either order: they touch no key
  // in common but sums and markers). Commit 3 could still grow: it waits for both.
  assert.deepEqual(log.slice(2, 4).sort(), ["answered 1", "answered 2"]);
  assert.deepEqual(log.slice(4), ["sent 3", "answered 3"]);
  const stamps = results.map((r) => r.ok ? r.versionstamp : "");
  assert.equal(new Set(stamps.slice(1, 11)).size, 1, "ten changes share commit 2");
  assert.notEqual(stamps[11], stamps[1]);
});

Deno.test("group commit: a change that checks what the commit in flight writes waits for it", async () => {
  using base = await Deno.openKv(":memory:");
  const { kv, log } = logged(base);
  const results = await Promise.all([
    commit(sharedAtomic(kv).set(["taken"], "first")),
    // Checks ["taken"], which commit 1 writes: it waits for commit 1 and then sees it.
    commit(sharedAtomic(kv).check({ key: ["taken"], versionstamp: null }).set(["taken"], "x")),
    // Ten of these fill commit 2, sent while commit 1 is in flight.
    ...Array.from(
      { length: 11 },
      (_, i) =>
        commit(sharedAtomic(kv).check({ key: ["n", i], versionstamp: null }).set(["n", i], i)),
    ),
  ]);
  assert.deepEqual(log.slice(0, 2), ["sent 1", "sent 2"]);
  assert.deepEqual(results.map((r) => r.ok), [true, false, ...Array(11).fill(true)]);
  const stamps = results.map((r) => r.ok ? r.versionstamp : "");
  assert.equal(new Set(stamps.slice(2, 12)).size, 1, "the ten checks of commit 2");
  assert.equal((await base.get(["taken"])).value, "first");
});

Deno.test("group commit: a commit that could still grow waits for the one in flight", async () => {
  using base = await Deno.openKv(":memory:");
  const { kv, log } = logged(base);
  await Promise.all([
    commit(sharedAtomic(kv).set(["warm"], 0)),
    ...Array.from({ length: 5 }, (_, i) => commit(sharedAtomic(kv).set(["n", i], i))),
  ]);
  assert.deepEqual(log, ["sent 1", "answered 1", "sent 2", "answered 2"]);
});
