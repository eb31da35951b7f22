import assert from "node:assert/strict";
import { deleteBlob, getBlob, putBlob } from "../../src/store/blob.ts";
import { ConflictError } from "../../src/errors.ts";
import { revokeApiKey } from "../../src/store/account/api_keys.ts";
import { deleteOrder, getOrder, updateOrder } from "../../src/store/orders/orders.ts";
import {
  changeSubscription,
  deleteSubscription,
  getSubscription,
} from "../../src/store/webhooks/subscriptions.ts";
import { findUserIdByIdentity, getUser } from "../../src/store/account/users.ts";
import {
  addToCounter,
  deletePrefix,
  getManyChunked,
  keyFits,
  lookup,
  lookupMany,
  MAX_KEY_BYTES,
  readCounter,
  withRetry,
} from "../../src/store/kv.ts";
import { persistenceOf } from "../../src/config.ts";
import { EventBus } from "../../src/events/bus.ts";
import { QUEUE } from "../../src/events/transport.ts";

/** Commits with events go through a bus, as in the app. */
const events = new EventBus(QUEUE);

function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed) & 255;
  return out;
}

Deno.test("blobs of any size round-trip; a rewrite leaves no old chunks", async () => {
  using kv = await Deno.openKv(":memory:");
  for (const size of [0, 10, 60_000, 200_000, 2 * 1024 * 1024]) {
    const data = bytes(size, size);
    await putBlob(kv, ["raw", "m1"], data);
    assert.deepEqual(await getBlob(kv, ["raw", "m1"]), data, `size ${size}`);
  }
  const chunkVersions = new Set<unknown>();
  for await (const e of kv.list({ prefix: ["raw", "m1", "chunk"] })) chunkVersions.add(e.key[3]);
  assert.equal(chunkVersions.size, 1, "only the current version's chunks remain");
  await deleteBlob(kv, ["raw", "m1"]);
  assert.equal(await getBlob(kv, ["raw", "m1"]), null);
  assert.equal((await Array.fromAsync(kv.list({ prefix: ["raw"] }))).length, 0);
});

Deno.test("counters add and subtract in commits and never read below zero", async () => {
  using kv = await Deno.openKv(":memory:");
  const key = ["count", "x"];
  await addToCounter(kv.atomic(), key, 5).commit();
  await addToCounter(kv.atomic(), key, -2).commit();
  assert.equal(await readCounter(kv, key), 3);
  await addToCounter(kv.atomic(), key, -10).commit();
  assert.equal(await readCounter(kv, key), 0);
  assert.equal(await readCounter(kv, ["count", "missing"]), 0);
});

Deno.test("withRetry re-runs an attempt until its commit wins; gives up as a conflict", async () => {
  using kv = await Deno.openKv(":memory:");
  const key = ["n"];
  await kv.set(key, 0);
  await Promise.all(Array.from({ length: 20 }, () =>
    withRetry(async () => {
      const entry = await kv.get<number>(key);
      const commit = await kv.atomic().check(entry).set(key, entry.value! + 1).commit();
      return { commit, value: null };
    })));
  assert.equal((await kv.get(key)).value, 20);
  await assert.rejects(
    withRetry(() => Promise.resolve({ commit: { ok: false } as Deno.KvCommitError, value: 1 }), 3),
    ConflictError,
  );
});

Deno.test("getManyChunked reads more than ten keys; deletePrefix removes a subtree", async () => {
  using kv = await Deno.openKv(":memory:");
  const op = kv.atomic();
  for (let i = 0; i < 25; i++) op.set(["ws", "u1", "x", i], i);
  op.set(["ws", "u2", "x", 0], "other");
  await op.commit();
  const entries = await getManyChunked<number>(
    kv,
    Array.from({ length: 25 }, (_, i) => ["ws", "u1", "x", i]),
  );
  assert.deepEqual(entries.map((e) => e.value), Array.from({ length: 25 }, (_, i) => i));
  assert.equal(await deletePrefix(kv, ["ws", "u1"]), 25);
  assert.equal((await kv.get(["ws", "u2", "x", 0])).value, "other");
});

Deno.test("KV_PATH kinds", () => {
  assert.equal(persistenceOf(":memory:"), "memory");
  assert.equal(persistenceOf("https://kv.example.com/db"), "remote");
  assert.equal(persistenceOf("./data/kv.sqlite3"), "sqlite");
  assert.equal(persistenceOf(undefined), "deploy");
});

/** Whether KV itself takes `key` (writes have the tighter limit). */
async function kvTakes(kv: Deno.Kv, key: Deno.KvKey): Promise<boolean> {
  try {
    await kv.set(key, 1);
    return true;
  } catch (e) {
    assert.match((e as Error).message, /Key too large for write/);
    return false;
  }
}

Deno.test("keyFits agrees with KV at the size limit for every kind of key part", async () => {
  using kv = await Deno.openKv(":memory:");
  const shapes: [string, (n: number) => Deno.KvKey][] = [
    ["ascii", (n) => ["ws", "a".repeat(n)]],
    ["3-byte characters", (n) => ["€".repeat(n)]],
    ["4-byte characters", (n) => ["😀".repeat(n)]],
    ["NUL characters (escaped)", (n) => ["\0".repeat(n)]],
    ["bytes with zeros", (n) => [new Uint8Array(n)]],
    ["number, boolean, bigints", (n) => [1, true, 0n, 255n, -(1n << 70n), "a".repeat(n)]],
  ];
  for (const [label, make] of shapes) {
    // The largest size keyFits accepts is the largest KV takes.
    let n = 0;
    while (keyFits(make(n + 1))) n++;
    assert.ok(n > 100, label);
    assert.equal(await kvTakes(kv, make(n)), true, `${label}: ${n} fits`);
    assert.equal(await kvTakes(kv, make(n + 1)), false, `${label}: ${n + 1} does not`);
  }
  assert.equal(MAX_KEY_BYTES, 2048);
});

Deno.test("lookup and lookupMany read a key too long for KV as absent", async () => {
  using kv = await Deno.openKv(":memory:");
  await kv.set(["x", "short"], "stored");
  const long: Deno.KvKey = ["x", "€".repeat(700)];
  await assert.rejects(() => kv.get(long), /Key too large/);
  assert.deepEqual(await lookup(kv, long), { key: long, value: null, versionstamp: null });
  assert.equal((await lookup(kv, ["x", "short"])).value, "stored");
  const [a, b, c] = await lookupMany<[string, string, string]>(kv, [
    ["x", "short"],
    long,
    ["x", "missing"],
  ]);
  assert.deepEqual([a.value, b.value, c.value], ["stored", null, null]);
  assert.deepEqual(b.key, long);
});

Deno.test("store lookups by an over-long id find nothing instead of throwing", async () => {
  using kv = await Deno.openKv(":memory:");
  const id = "a".repeat(3000);
  assert.equal(await getUser(kv, id), null);
  assert.equal(await findUserIdByIdentity(kv, "atlas", id), null);
  assert.equal(await getOrder(kv, "usr_1", id), null);
  assert.deepEqual(
    await updateOrder(kv, "usr_1", id, { store: "x" }, { now: Date.now(), events }),
    {
      ok: false,
      reason: "not_found",
    },
  );
  assert.equal(await deleteOrder(kv, "usr_1", id), false);
  assert.equal(await getSubscription(kv, "usr_1", id), null);
  assert.equal(await changeSubscription(kv, "usr_1", id, (s) => s), null);
  assert.equal(await deleteSubscription(kv, "usr_1", id), false);
  assert.equal(await revokeApiKey(kv, "usr_1", id), false);
});
