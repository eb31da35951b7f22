import assert from "node:assert/strict";
import { afterAttempt, type StoredSubscription } from "../../src/domain/webhooks/subscription.ts";
import { keys } from "../../src/store/keys.ts";
import { claimAttempts } from "../../src/store/webhooks/attempts.ts";
import type { WebhookLogEntry } from "../../src/store/webhooks/logs.ts";
import { recordOutcome } from "../../src/store/webhooks/outcomes.ts";
import { changeSubscription } from "../../src/store/webhooks/subscriptions.ts";
import { signUp } from "../helpers.ts";
import { startReceiver } from "../net/receiver.ts";
import { subscribe, webhookApp, type WebhookContext } from "./helpers.ts";

/** How many commits wrote the entries under `prefix` (one commit, one versionstamp). */
async function commitsUnder(ctx: WebhookContext, prefix: Deno.KvKey) {
  const stamps = new Set<string>();
  let entries = 0;
  for await (const e of ctx.kv.list({ prefix })) {
    stamps.add(e.versionstamp);
    entries++;
  }
  return { entries, commits: stamps.size };
}

function failureLog(subscriptionId: string, n: number): WebhookLogEntry {
  return {
    id: `log_${subscriptionId}_${String(n).padStart(3, "0")}`,
    subscriptionId,
    eventId: `evt_${n}`,
    eventType: "order.created",
    ok: false,
    status: 500,
    error: "HTTP 500",
    durationMs: 1,
    createdAt: new Date().toISOString(),
  };
}

Deno.test("outcomes of many subscriptions share commits; every failure counts and the 10th pauses", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ listen: false });
  const subs: { userId: string; id: string }[] = [];
  for (let a = 0; a < 2; a++) {
    const { user, token } = await signUp(ctx);
    for (let s = 0; s < 15; s++) {
      subs.push({ userId: user.id, id: (await subscribe(ctx, token, { url: receiver.url() })).id });
    }
  }
  const failures = 12;
  const writes: Promise<unknown>[] = [];
  for (let n = 0; n < failures; n++) {
    for (const sub of subs) {
      const log = failureLog(sub.id, n);
      writes.push(recordOutcome(
        ctx.deps.events.outcomes,
        sub.userId,
        sub.id,
        (s) => afterAttempt(s, { ok: false, error: "HTTP 500" }, log.createdAt),
        { log },
      ));
    }
    // Another writer (a PATCH, another process) changes some records meanwhile: the
    // outcome commits that checked them read again and re-apply.
    const other = subs[n % subs.length];
    writes.push(changeSubscription(ctx.kv, other.userId, other.id, (s) => ({ ...s })));
  }
  await Promise.all(writes);
  for (const sub of subs) {
    const stored = (await ctx.kv.get<StoredSubscription>(keys.webhookSub(sub.userId, sub.id)))
      .value!;
    assert.deepEqual(
      [stored.failureCount, stored.active, stored.lastError],
      [failures, false, "HTTP 500"],
    );
  }
  let commits = 0;
  for (const userId of new Set(subs.map((s) => s.userId))) {
    const logs = await commitsUnder(ctx, keys.webhookLogs(userId));
    assert.equal(logs.entries, 15 * failures);
    commits += logs.commits;
  }
  // 360 outcomes; one commit each would be 360.
  assert.ok(commits <= 360 / 5, `${commits} commits`);
});

Deno.test("claims of concurrent deliveries share commits; each pair is won exactly once", async () => {
  await using ctx = await webhookApp({ listen: false });
  const events = Array.from({ length: 40 }, (_, i) => `evt_claim_${i}`);
  // One pair already claimed elsewhere (another process, or before a crash).
  await ctx.kv.set(keys.webhookAttempt("usr_x", "evt_claim_7", "whsub_b"), {
    state: "claimed",
    at: Date.now(),
  });
  const claim = (eventId: string) =>
    claimAttempts(
      ctx.deps.events.claims,
      { id: eventId, userId: "usr_x" },
      ["whsub_a", "whsub_b"].map((subId) => ({ subId, versionstamp: null })),
      Date.now(),
    );
  // Every event claimed twice at once (the hand-over and a queue copy): one of them wins.
  const results = await Promise.all(events.flatMap((e) => [claim(e), claim(e)]));
  for (const [i, eventId] of events.entries()) {
    const won = [...results[2 * i], ...results[2 * i + 1]].sort();
    assert.deepEqual(won, eventId === "evt_claim_7" ? ["whsub_a"] : ["whsub_a", "whsub_b"]);
  }
  // And later claims (a queue redelivery) win nothing.
  assert.deepEqual(await claim("evt_claim_3"), []);

  let markers = 0;
  const stamps = new Set<string>();
  for await (const e of ctx.kv.list({ prefix: ["ws", "usr_x", "whsub_attempt"] })) {
    markers++;
    stamps.add(e.versionstamp);
  }
  assert.equal(markers, 80);
  // 79 pairs claimed ten to a commit (plus one by one where the taken pair was).
  assert.ok(stamps.size <= 20, `${stamps.size} commits`);
});
