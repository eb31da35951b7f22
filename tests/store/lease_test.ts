/**
 * The held lease of long work (the layout migrations): every commit through it checks and
 * extends it; once it ran out and another process took it, the old holder's commits throw and
 * its release leaves the new holder's lease alone.
 */
import { deepStrictEqual as eq, equal, ok, rejects } from "node:assert/strict";
import { keys } from "../../src/store/keys.ts";
import { LeaseLostError, takeLease } from "../../src/store/lease.ts";

Deno.test("a held lease is extended by its commits, lost once taken over, released only by its holder", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let now = 1_000_000;
    const clock = () => now;
    const a = await takeLease(kv, "job", 1000, clock);
    ok(a);
    equal(await takeLease(kv, "job", 1000, clock), null);
    // A commit through the lease writes its own change and extends the lease.
    now += 900;
    ok((await a.commit(kv.atomic().set(["work"], 1))).ok);
    equal((await kv.get<{ until: number }>(keys.lease("job"))).value?.until, now + 1000);
    now += 900;
    equal(await takeLease(kv, "job", 1000, clock), null, "still valid after the extension");
    // A commit whose own check fails is reported, not thrown, while the lease is ours.
    const failed = await a.commit(kv.atomic().check({ key: ["work"], versionstamp: null }));
    equal(failed.ok, false);

    now += 1001;
    const b = await takeLease(kv, "job", 1000, clock);
    ok(b, "taken over once it ran out");
    await rejects(a.commit(kv.atomic().set(["work"], 2)), LeaseLostError);
    equal((await kv.get(["work"])).value, 1);
    await a.release();
    ok((await kv.get(keys.lease("job"))).versionstamp, "B's lease stays");
    await b.release();
    eq((await kv.get(keys.lease("job"))).value, null);
  } finally {
    kv.close();
  }
});
