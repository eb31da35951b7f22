/**
 * Two connections on one SQLite file (two processes in a rolling restart, or two handles in one
 * process): a commit with checks that loses the race for the write lock to the other connection
 * is answered `database is locked` by SQLite. `commit()` retries it, so no write is lost.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { commit, readCounter } from "../../src/store/kv.ts";

Deno.test("commits with checks from two connections on one file all land", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "kv.sqlite3");
  const kvs = [await Deno.openKv(path), await Deno.openKv(path)];
  try {
    const until = Date.now() + 1500;
    const stored: string[] = [];
    const errors: string[] = [];
    await Promise.all(kvs.flatMap((kv, k) =>
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; Date.now() < until; i++) {
          const id = `${k}-${w}-${i}`;
          try {
            await kv.get(["count"]);
            const op = kv.atomic()
              .check({ key: ["item", id], versionstamp: null })
              .set(["item", id], i)
              .sum(["count"], 1n);
            if ((await commit(op)).ok) stored.push(id);
          } catch (err) {
            errors.push(String(err));
          }
        }
      })
    ));
    assert.deepEqual(errors, []);
    assert.ok(stored.length > 50, `only ${stored.length} commits`);
    // Every commit that answered ok is there, once.
    assert.equal(await readCounter(kvs[0], ["count"]), stored.length);
    let items = 0;
    for await (const _ of kvs[1].list({ prefix: ["item"] })) items++;
    assert.equal(items, stored.length);
  } finally {
    for (const kv of kvs) kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("commit() hands back a failed check and rethrows other errors at once", async () => {
  using kv = await Deno.openKv(":memory:");
  await kv.set(["a"], 1);
  assert.deepEqual(await commit(kv.atomic().check({ key: ["a"], versionstamp: null })), {
    ok: false,
  });
  const started = Date.now();
  await assert.rejects(
    () => commit(kv.atomic().set(["big"], "x".repeat(70_000))),
    /Value too large/,
  );
  assert.ok(Date.now() - started < 100);
});
