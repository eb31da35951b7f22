/**
 * Group commit: changes handed over while a commit is in flight share the next one when they
 * are compatible, and each is answered with its own outcome. Changes that share a commit share
 * its versionstamp, which is how these tests see what was shared.
 */
import assert from "node:assert/strict";
import { sharedAtomic } from "../../src/store/group_commit.ts";
import { commit, readCounter } from "../../src/store/kv.ts";
import { ingestOrder } from "../../src/store/orders/orders.ts";
import { verifyStore } from "../../src/store/verify.ts";
import { keys } from "../../src/store/keys.ts";
import { signUp, testApp } from "../helpers.ts";
import { withKvConnectLimits } from "./kv_connect_limits.ts";

type Result = Deno.KvCommitResult | Deno.KvCommitError;
const stamp = (r: Result) => r.ok ? r.versionstamp : "failed";

/** The first change commits alone at once; the others are handed over while it is in flight. */
function together(kv: Deno.Kv, build: ((op: Deno.AtomicOperation) => void)[]): Promise<Result[]> {
  return Promise.all(build.map((b) => {
    const op = sharedAtomic(kv);
    b(op);
    return commit(op);
  }));
}

Deno.test("group commit: changes waiting for a commit share the next one, sums folded", async () => {
  using kv = await Deno.openKv(":memory:");
  const results = await together(
    kv,
    [0, 1, 2, 3].map((i) => (op) => op.set(["item", i], i).sum(["count"], 1n)),
  );
  assert.ok(results.every((r) => r.ok));
  const [first, ...rest] = results.map(stamp);
  assert.equal(new Set(rest).size, 1, "the three waiting changes share one commit");
  assert.notEqual(rest[0], first);
  assert.equal(await readCounter(kv, ["count"]), 4);
  for (const i of [0, 1, 2, 3]) assert.equal((await kv.get(["item", i])).value, i);
});

Deno.test("group commit: a failed check refuses its own change only", async () => {
  using kv = await Deno.openKv(":memory:");
  await kv.set(["taken"], "yes");
  const results = await together(kv, [
    (op) => op.set(["a"], 0),
    (op) => op.check({ key: ["taken"], versionstamp: null }).set(["b"], 1).sum(["n"], 1n),
    (op) => op.set(["c"], 2).sum(["n"], 1n),
    (op) => op.set(["d"], 3).sum(["n"], 1n),
  ]);
  assert.deepEqual(results.map((r) => r.ok), [true, false, true, true]);
  assert.equal((await kv.get(["b"])).value, null);
  assert.deepEqual((await kv.getMany([["c"], ["d"]])).map((e) => e.value), [2, 3]);
  assert.equal(await readCounter(kv, ["n"]), 2);
});

Deno.test("group commit: changes writing one key, or checking a key another writes, do not share", async () => {
  using kv = await Deno.openKv(":memory:");
  const results = await together(kv, [
    (op) => op.set(["warm"], 0),
    (op) => op.set(["same"], "first"),
    (op) => op.set(["same"], "second"),
    (op) => op.check({ key: ["watched"], versionstamp: null }).set(["x"], 1),
    (op) => op.set(["watched"], "now set"),
  ]);
  assert.ok(results.every((r) => r.ok));
  const [, first, second, checker, writer] = results.map(stamp);
  assert.notEqual(first, second);
  assert.equal(first, checker, "unrelated changes still share");
  assert.notEqual(checker, writer);
  assert.equal((await kv.get(["same"])).value, "second", "later arrivals stay in their order");
  assert.equal((await kv.get(["x"])).value, 1);
});

Deno.test("group commit: markers are written once with the latest value, checks of one key merged", async () => {
  using kv = await Deno.openKv(":memory:");
  const account = await kv.get(["account"]);
  const results = await together(kv, [
    (op) => op.set(["warm"], 0),
    ...[1, 2, 3].map((i) => (op: Deno.AtomicOperation) => {
      op.check(account).set(["order", i], i);
      (op as ReturnType<typeof sharedAtomic>).mark(["revision"], i);
    }),
  ]);
  assert.equal(new Set(results.slice(1).map(stamp)).size, 1);
  assert.equal((await kv.get(["revision"])).value, 3);
});

Deno.test("group commit: a key every change checks is checked once (KV Connect's ten checks)", async () => {
  using base = await Deno.openKv(":memory:");
  const { kv, refused } = withKvConnectLimits(base);
  await kv.set(["account"], "a");
  const account = await kv.get(["account"]);
  const results = await together(kv, [
    (op) => op.set(["warm"], 0),
    ...Array.from({ length: 12 }, (_, i) => (op: Deno.AtomicOperation) => {
      op.check(account, { key: ["number", i], versionstamp: null }).set(["number", i], i);
    }),
  ]);
  assert.ok(results.every((r) => r.ok));
  assert.deepEqual(refused, []);
  // The account and nine numbers fill a commit's ten checks: nine changes, then three.
  const stamps = results.slice(1).map(stamp);
  assert.equal(new Set(stamps.slice(0, 9)).size, 1);
  assert.equal(new Set(stamps.slice(9)).size, 1);
  assert.notEqual(stamps[0], stamps[9]);
});

Deno.test("group commit: a shared commit KV refuses is split, and only the bad change fails", async () => {
  using kv = await Deno.openKv(":memory:");
  // Objects are estimated, not measured: fourteen of 60 KB pass the estimate but not KV's limit
  // on a commit's total size, so the shared commit is refused and each change goes alone.
  const big = (i: number) => ({ i, text: "x".repeat(60_000) });
  const results = await Promise.allSettled([
    commit(sharedAtomic(kv).set(["warm"], 0)),
    ...Array.from({ length: 14 }, (_, i) => commit(sharedAtomic(kv).set(["big", i], big(i)))),
    commit(sharedAtomic(kv).set(["too-big"], { text: "x".repeat(70_000) })),
  ]);
  const refused = results.filter((r) => r.status === "rejected");
  assert.equal(refused.length, 1);
  assert.match(String((refused[0] as PromiseRejectedResult).reason), /too large/i);
  assert.equal(results.at(-1)!.status, "rejected");
  let stored = 0;
  for await (const _ of kv.list({ prefix: ["big"] })) stored++;
  assert.equal(stored, 14);
});

Deno.test("group commit: concurrent creates and same-number messages stay exact", async () => {
  await using ctx = await testApp();
  const { user } = await signUp(ctx);
  const { kv, deps } = ctx;
  const options = { now: Date.now(), billing: deps.config, events: deps.events.bus };
  const ingest = (orderNumber: string, i: number) =>
    ingestOrder(kv, {
      userId: user.id,
      source: "email",
      fields: { itemSummary: `Item ${i}`, orderNumber, costCents: 100 },
    }, options);
  const results = await Promise.all([
    ...Array.from({ length: 20 }, (_, i) => ingest(`N-${i}`, i)),
    ...Array.from({ length: 10 }, (_, i) => ingest("SAME-1", 100 + i)),
  ]);
  assert.ok(results.every((r) => r.ok));
  const same = results.slice(20).filter((r) => r.ok && !r.merged);
  assert.equal(same.length, 1, "one message of the number creates, nine merge");
  assert.equal(await readCounter(kv, keys.orderCount(user.id)), 21);
  assert.equal(await readCounter(kv, keys.valueCents(user.id)), 2100);
  const stamps = new Set<string>();
  for await (const e of kv.list({ prefix: keys.orders(user.id) })) stamps.add(e.versionstamp);
  assert.ok(stamps.size < 21, `creates shared commits (${stamps.size} commits for 21 orders)`);
  const report = await verifyStore(kv, { repair: false });
  assert.deepEqual(report.accounts.map((a) => [a.orders, a.differences]), [[21, []]]);
});
