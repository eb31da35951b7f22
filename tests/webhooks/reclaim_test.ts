import assert from "node:assert/strict";
import { join } from "node:path";
import type { StoredSubscription } from "../../src/domain/webhooks/subscription.ts";
import {
  type AttemptMarker,
  attemptStep,
  CLAIM_MARGIN_MS,
} from "../../src/domain/webhooks/attempt.ts";
import { webhookHandlers } from "../../src/webhooks/delivery.ts";
import { buildEvent, type EventEnvelope } from "../../src/domain/events/envelope.ts";
import { OUTBOUND_TIMEOUT_MS } from "../../src/net/outbound.ts";
import { keys } from "../../src/store/keys.ts";
import { claimAttempts, endAttempt } from "../../src/store/webhooks/attempts.ts";
import { AnswerJournal } from "../../src/store/webhooks/answers.ts";
import type { WebhookLogEntry } from "../../src/store/webhooks/logs.ts";
import { signUp } from "../helpers.ts";
import { sleep, startReceiver } from "../net/receiver.ts";
import {
  commitEvent,
  eventually,
  orderEventData,
  subscribe,
  webhookApp,
  type WebhookContext,
} from "./helpers.ts";

/** Age past which a claim without an outcome is taken to have died with its process. */
const STALE_MS = OUTBOUND_TIMEOUT_MS + CLAIM_MARGIN_MS;

const claimed = (at: number): AttemptMarker => ({ state: "claimed", at });

function marker(ctx: WebhookContext, event: EventEnvelope, subId: string) {
  return ctx.kv.get<AttemptMarker>(keys.webhookAttempt(event.userId, event.id, subId))
    .then((e) => e.value);
}

async function logsOf(ctx: WebhookContext, userId: string): Promise<WebhookLogEntry[]> {
  const out: WebhookLogEntry[] = [];
  for await (const e of ctx.kv.list<WebhookLogEntry>({ prefix: keys.webhookLogs(userId) })) {
    out.push(e.value);
  }
  return out;
}

const paths = (requests: { path: string }[]) => requests.map((r) => r.path).sort();

Deno.test("the re-claim rule: absent claims; done never again; a claim waits out deadline and margin", () => {
  const now = 1_000_000;
  assert.deepEqual(attemptStep(null, now, 5000), { step: "claim" });
  assert.deepEqual(attemptStep({ state: "done", at: 0 }, now, 5000), { step: "skip" });
  // A bare claim time from before markers had a state: outcome unknown, left alone.
  assert.deepEqual(attemptStep(0, now, 5000), { step: "skip" });
  const until = now - 1 + 5000 + CLAIM_MARGIN_MS;
  assert.deepEqual(attemptStep(claimed(now - 1), now, 5000), { step: "wait", until });
  assert.deepEqual(attemptStep(claimed(now - 1), until - 1, 5000), { step: "wait", until });
  assert.deepEqual(attemptStep(claimed(now - 1), until, 5000), { step: "claim" });
  // This process's own attempt is never stale to it.
  assert.deepEqual(attemptStep(claimed(0), now, 5000, true), {
    step: "wait",
    until: now + CLAIM_MARGIN_MS,
  });
});

Deno.test("after a crash: a stale claim is sent once more with the same id; fresh and done ones are not", async () => {
  await using receiver = startReceiver({
    reply: (req) => new Response(null, { status: req.path === "/stale" ? 500 : 200 }),
  });
  let clock = Date.now();
  await using ctx = await webhookApp({ listen: false, now: () => clock });
  const { user, token } = await signUp(ctx);
  const sub: Record<string, StoredSubscription & { secret: string }> = {};
  for (const name of ["open", "done", "fresh", "stale"]) {
    sub[name] = await subscribe(ctx, token, { url: receiver.url(`/${name}`) }) as never;
  }
  const event = buildEvent("order.created", user.id, orderEventData(clock), clock);
  // What a crashed process left: one outcome recorded, one claim just made, one long ago.
  const at = (name: string) => keys.webhookAttempt(user.id, event.id, sub[name].id);
  await ctx.kv.set(at("done"), { state: "done", at: clock - 1000 } satisfies AttemptMarker);
  await ctx.kv.set(at("fresh"), claimed(clock - 1000));
  await ctx.kv.set(at("stale"), claimed(clock - STALE_MS));

  const handlers = webhookHandlers(ctx.deps);
  await handlers.event({ kind: "event", event });
  assert.deepEqual(paths(receiver.requests), ["/open", "/stale"]);
  for (const req of receiver.requests) {
    assert.equal(req.headers.get("x-service-event-id"), event.id);
    assert.equal(req.body, JSON.stringify(event));
  }
  // The re-sent attempt's outcome is recorded once, and its pair is done.
  const stale = await ctx.kv.get<StoredSubscription>(keys.webhookSub(user.id, sub.stale.id));
  assert.equal(stale.value!.failureCount, 1);
  assert.equal((await marker(ctx, event, sub.stale.id))?.state, "done");
  assert.equal((await marker(ctx, event, sub.open.id))?.state, "done");
  assert.deepEqual(await marker(ctx, event, sub.fresh.id), claimed(clock - 1000));

  // Redelivered again (another crash, or the delayed look at the fresh claim): nothing new
  // while the fresh claim may still be under way; once it is stale too, it is sent once.
  await handlers.event({ kind: "event", event });
  await handlers.delivery({ kind: "delivery", event, subscriptionId: sub.fresh.id });
  assert.equal(receiver.requests.length, 2);
  clock += STALE_MS;
  await Promise.all([
    handlers.delivery({ kind: "delivery", event, subscriptionId: sub.fresh.id }),
    handlers.event({ kind: "event", event }),
  ]);
  await handlers.event({ kind: "event", event });
  assert.deepEqual(paths(receiver.requests), ["/fresh", "/open", "/stale"]);
  const logs = await logsOf(ctx, user.id);
  assert.deepEqual(
    logs.map((l) => l.subscriptionId).sort(),
    [sub.fresh.id, sub.open.id, sub.stale.id].sort(),
  );
  assert.equal((await ctx.kv.get<StoredSubscription>(stale.key)).value!.failureCount, 1);
});

Deno.test("a claim under way is looked at again when it would go stale: sent only if it got no outcome", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const finishes = await subscribe(ctx, token, { url: receiver.url("/finishes") });
  const dies = await subscribe(ctx, token, { url: receiver.url("/dies") });
  const event = buildEvent("order.created", user.id, orderEventData());
  // Claimed by another process 300 ms before they go stale.
  const claimedAt = Date.now() - STALE_MS + 300;
  for (const sub of [finishes, dies]) {
    await ctx.kv.set(keys.webhookAttempt(user.id, event.id, sub.id), claimed(claimedAt));
  }
  await webhookHandlers(ctx.deps).event({ kind: "event", event });
  assert.equal(receiver.requests.length, 0);
  // One of them records its outcome in time; the other process died.
  await ctx.kv.set(
    keys.webhookAttempt(user.id, event.id, finishes.id),
    {
      state: "done",
      at: Date.now(),
    } satisfies AttemptMarker,
  );
  const [req] = await receiver.waitFor(1, 3000);
  assert.equal(req.path, "/dies");
  assert.equal(req.headers.get("x-service-event-id"), event.id);
  await eventually(async () => (await marker(ctx, event, dies.id))?.state === "done");
  await sleep(200);
  assert.equal(receiver.requests.length, 1);
});

Deno.test("no crash: the queue's copy arriving while the hand-over's send is under way sends nothing", async () => {
  // Slower than the queue's 0 to 100 ms dequeue: the copy arrives mid-send.
  await using receiver = startReceiver({
    reply: () => sleep(300).then(() => new Response("ok")),
  });
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  for (const name of ["a", "b", "c"]) {
    await subscribe(ctx, token, { url: receiver.url(`/${name}`) });
  }
  await Promise.all(Array.from({ length: 4 }, () => commitEvent(ctx, user.id)));
  await receiver.waitFor(12);
  await eventually(async () => (await logsOf(ctx, user.id)).length === 12);
  await sleep(400);
  await ctx.queue!.drain();
  assert.equal(receiver.requests.length, 12);
  const pairs = receiver.requests.map((r) => `${r.headers.get("x-service-event-id")} ${r.path}`);
  assert.equal(new Set(pairs).size, 12);
});

Deno.test("a pair this process is still attempting is never stale to it, however old its claim", async () => {
  await using receiver = startReceiver();
  let clock = Date.now();
  await using ctx = await webhookApp({ listen: false, now: () => clock });
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  const event = buildEvent("order.created", user.id, orderEventData(clock), clock);
  const won = await claimAttempts(ctx.deps.events.claims, event, [{
    subId: sub.id,
    versionstamp: null,
  }], clock);
  assert.deepEqual(won, [sub.id]);
  clock += 10 * STALE_MS;
  const handlers = webhookHandlers(ctx.deps);
  await handlers.event({ kind: "event", event });
  assert.equal(receiver.requests.length, 0);
  // The attempt ended without an outcome (a storage failure): now it is stale here too.
  endAttempt(ctx.deps.events.claims, event, sub.id);
  await handlers.event({ kind: "event", event });
  await handlers.event({ kind: "event", event });
  assert.equal(receiver.requests.length, 1);
  assert.equal(receiver.requests[0].headers.get("x-service-event-id"), event.id);
});

Deno.test("after a crash: a pair whose answer was noted is recorded from the note, not sent again", async () => {
  await using receiver = startReceiver();
  const clock = Date.now();
  await using ctx = await webhookApp({ listen: false, now: () => clock });
  const dir = await Deno.makeTempDir();
  try {
    // What processes on a KV file keep beside it (`<KV_PATH>-answers`): the dead one's journal,
    // and this one's.
    const folder = join(dir, "kv.sqlite3-answers");
    const dead = new AnswerJournal(folder, () => clock - STALE_MS);
    ctx.deps.events.answers = new AnswerJournal(folder, () => clock);
    const { user, token } = await signUp(ctx);
    const answered = await subscribe(ctx, token, { url: receiver.url("/answered") });
    const cut = await subscribe(ctx, token, { url: receiver.url("/cut") });
    const event = buildEvent("order.created", user.id, orderEventData(clock), clock);
    // The dead process claimed both and sent both; one answer came back (and was noted), the
    // other request was still on the wire when it died. Neither outcome was committed.
    for (const sub of [answered, cut]) {
      await ctx.kv.set(keys.webhookAttempt(user.id, event.id, sub.id), claimed(clock - STALE_MS));
    }
    const entry: WebhookLogEntry = {
      id: "log_01answered",
      subscriptionId: answered.id,
      eventId: event.id,
      eventType: event.type,
      ok: false,
      status: 500,
      error: "HTTP 500",
      durationMs: 12,
      createdAt: new Date(clock - STALE_MS + 20).toISOString(),
      deliveryId: "0b6c8a59-2f0e-4a43-9d7f-7c1f1b1e6a10",
    };
    dead.note(event, { userId: user.id, entry });
    // Killed: its file stays as it is (a graceful close would keep it too, a note is pending).
    dead.close();
    assert.deepEqual(ctx.deps.events.answers.recall(event, answered.id), {
      userId: user.id,
      entry,
    });
    assert.equal(ctx.deps.events.answers.recall(event, cut.id), null);

    await webhookHandlers(ctx.deps).event({ kind: "event", event });
    // Only what was on the wire goes again.
    assert.deepEqual(paths(receiver.requests), ["/cut"]);
    // The noted answer is the attempt's outcome: its log entry, counted once, pair done.
    const logs = await logsOf(ctx, user.id);
    assert.deepEqual(logs.find((l) => l.subscriptionId === answered.id), entry);
    assert.equal(logs.length, 2);
    const stored = await ctx.kv.get<StoredSubscription>(keys.webhookSub(user.id, answered.id));
    assert.deepEqual([stored.value!.failureCount, stored.value!.lastError], [1, "HTTP 500"]);
    for (const sub of [answered, cut]) {
      assert.equal((await marker(ctx, event, sub.id))?.state, "done");
    }
    // This process's journal has the new attempt's note, settled: it goes when the process
    // closes; the dead one's stays for the sweep.
    assert.equal((await Array.fromAsync(Deno.readDir(folder))).length, 2);
    ctx.deps.events.answers.close();
    assert.equal((await Array.fromAsync(Deno.readDir(folder))).length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the journal sweep removes idle files whose pairs are all done, and keeps the others", async () => {
  await using ctx = await webhookApp({ listen: false });
  const dir = await Deno.makeTempDir();
  try {
    const folder = join(dir, "answers");
    const hour = 60 * 60 * 1000;
    let clock = Date.now();
    const journal = () => new AnswerJournal(folder, () => clock);
    const note = (j: AnswerJournal, eventId: string) =>
      j.note({ id: eventId, userId: "usr_a" }, {
        userId: "usr_a",
        entry: {
          id: `log_${eventId}`,
          subscriptionId: "whsub_1",
          eventId,
          eventType: "order.created",
          ok: true,
          status: 204,
          durationMs: 3,
          createdAt: new Date(clock).toISOString(),
        },
      });
    await ctx.kv.set(keys.webhookAttempt("usr_a", "evt_claimed", "whsub_1"), claimed(clock));
    await ctx.kv.set(
      keys.webhookAttempt("usr_a", "evt_done", "whsub_1"),
      {
        state: "done",
        at: clock,
      } satisfies AttemptMarker,
    );
    // Two processes that died: one with a pair still claimed, one whose pairs are all done or
    // gone (and a line a kill cut short).
    const waiting = journal();
    note(waiting, "evt_claimed");
    note(waiting, "evt_done");
    waiting.close();
    const finished = journal();
    note(finished, "evt_done");
    note(finished, "evt_gone");
    finished.close();
    const [finishedFile] = (await Array.fromAsync(Deno.readDir(folder)))
      .map((f) => join(folder, f.name)).filter((path) =>
        !Deno.readTextFileSync(path).includes("evt_claimed")
      );
    await Deno.writeTextFile(finishedFile, '{"userId":"us', { append: true });
    // Written within the hour: its process may be alive, so nothing goes.
    const sweeper = journal();
    assert.equal(await sweeper.sweep(ctx.kv), 0);
    clock += hour + 1000;
    assert.equal(await sweeper.sweep(ctx.kv), 1);
    const left = await Array.fromAsync(Deno.readDir(folder), (f) => join(folder, f.name));
    assert.equal(left.length, 1);
    assert.ok(Deno.readTextFileSync(left[0]).includes("evt_claimed"));
    // A note is found only under its own pair and account.
    assert.equal(sweeper.recall({ id: "evt_claimed", userId: "usr_b" }, "whsub_1"), null);
    assert.equal(
      sweeper.recall({ id: "evt_claimed", userId: "usr_a" }, "whsub_1")?.userId,
      "usr_a",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
