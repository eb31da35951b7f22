/**
 * A crash re-sends only what was on the wire: the real service (main.ts on a KV file) is killed
 * with SIGKILL twice while orders are created at 16 connections for three subscriptions whose
 * receivers take 400 ms to answer, and restarted on the same file. A pair that reached its
 * receiver more than once was on the wire at a kill (received before the restart, unanswered
 * at the kill); an answered pair is not sent again, even when the kill came before its
 * outcome's commit (tests/webhooks/crash_run.ts has the bookkeeping; the full setup is
 * the benchmark's `crash` scenario).
 */
import assert from "node:assert/strict";
import { crashRun } from "./crash_run.ts";

Deno.test("process: after SIGKILLs, only the deliveries on the wire at a kill reach a receiver again", async () => {
  // An answer sent in the last 50 ms before a kill may still be unread by the service (its event
  // loop busy with 16 connections of creates): on the wire, as the service saw it. Without this
  // margin the same code gave 0 to 62 such repeats in a run (answers sent 0 to 5 ms before the
  // kill where measured), so the 1% bound below failed about one run in three. That a noted answer
  // is recorded, not sent again, is tested exactly in reclaim_test.ts.
  const run = await crashRun({ orders: 600, kills: 2, replyMs: 400, answerMarginMs: 50 });
  console.log(JSON.stringify(run));
  assert.equal(run.missing, 0, "an order answered 201 did not reach every subscription");
  assert.equal(run.unfinished, 0, "attempts left claimed without an outcome");
  assert.ok(run.onWire.every((n) => n > 0), "a kill fell outside every delivery: proved nothing");
  // Repeats of pairs answered before a kill: an answer the service had not read when it died
  // (its event loop busy on a loaded machine) can be one; before the answers were noted they
  // were the answers of the last few hundred ms, 2 to 6% of the pairs.
  const limit = run.pairs / 100;
  assert.ok(run.unexplained < limit, `${run.unexplained} repeats of answered pairs (< ${limit})`);
  const onWire = run.onWire.reduce((a, b) => a + b, 0);
  assert.ok(run.duplicates < onWire + limit, `${run.duplicates} repeats, ${onWire} on the wire`);
});
