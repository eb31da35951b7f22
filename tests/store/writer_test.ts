/**
 * A store on a file commits its shared order changes through a second connection, so reads on
 * the store's connection do not wait for them; every read still sees every commit answered.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sharedAtomic } from "../../src/store/group_commit.ts";
import { commit, openStore, readCounter, writerOf } from "../../src/store/kv.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import { ingestOrder } from "../../src/store/orders/orders.ts";
import { createUser } from "../../src/store/account/users.ts";
import { verifyStore } from "../../src/store/verify.ts";
import { keys } from "../../src/store/keys.ts";
import { testConfig } from "../../src/config.ts";

async function fileStore() {
  const dir = await Deno.makeTempDir();
  const store = await openStore(join(dir, "kv.sqlite3"));
  return {
    ...store,
    [Symbol.asyncDispose]: async () => {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("a file store has a writing connection of its own; memory has one connection", async () => {
  await using store = await fileStore();
  assert.notEqual(writerOf(store.kv), store.kv);
  const memory = await openStore(":memory:");
  assert.equal(writerOf(memory.kv), memory.kv);
  memory.close();
});

Deno.test("a read on the store's connection answers while a shared commit is written", async () => {
  await using store = await fileStore();
  const { kv } = store;
  await kv.set(["read"], "here");
  // A large commit (900 values of 800 bytes): tens of milliseconds of SQLite work.
  const op = sharedAtomic(kv);
  const value = new Uint8Array(800);
  for (let i = 0; i < 900; i++) op.set(["big", i], value);
  let answered = false;
  const committing = commit(op).finally(() => answered = true);
  // Reads one after another until the commit is answered: on the commit's own connection each
  // read would wait for the commit, so at most the one sent before it could answer meanwhile.
  // (How many more answer depends on the disk: 8 to 40 here; three already prove it.)
  let reads = 0;
  while (!answered) {
    assert.equal((await kv.get<string>(["read"])).value, "here");
    reads++;
  }
  assert.equal((await committing).ok, true);
  assert.ok(reads >= 3, `${reads} reads answered during the commit`);
  // Once answered, the commit is what the store's connection reads.
  let stored = 0;
  for await (const _ of kv.list({ prefix: ["big"] })) stored++;
  assert.equal(stored, 900);
});

Deno.test("concurrent creates through the writing connection: each readable once answered, totals exact", async () => {
  await using store = await fileStore();
  const { kv, persistence } = store;
  const config = testConfig({ LOG_LEVEL: "error" });
  const deps = createDeps({ kv, config, persistence });
  const made = await createUser(kv, { email: "writer@example.com" });
  assert.ok(made.ok);
  const userId = made.user.id;
  const options = { now: Date.now(), billing: config, events: deps.events.bus };
  const results = await Promise.all(Array.from({ length: 40 }, async (_, i) => {
    const result = await ingestOrder(kv, {
      userId,
      source: "email",
      fields: { itemSummary: `Item ${i}`, orderNumber: i < 30 ? `N-${i}` : "SAME", costCents: 100 },
    }, options);
    // Answered means stored: the store's own connection reads it at once.
    assert.ok(result.ok);
    const read = await kv.get(keys.order(userId, result.order.id));
    assert.equal(read.value !== null, true, `order ${i} read back`);
    return result;
  }));
  assert.equal(results.filter((r) => r.ok && !r.merged).length, 31);
  assert.equal(await readCounter(kv, keys.orderCount(userId)), 31);
  const report = await verifyStore(kv, { repair: false });
  assert.deepEqual(report.accounts.map((a) => [a.orders, a.differences]), [[31, []]]);
  await drainDeps(deps);
});
