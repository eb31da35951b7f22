import assert from "node:assert/strict";
import { testConfig } from "../../src/config.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import { webhookHandlers } from "../../src/webhooks/delivery.ts";
import { buildEvent } from "../../src/domain/events/envelope.ts";
import { drainOutbox, OUTBOX_GRACE_MS } from "../../src/jobs/outbox_drain.ts";
import { keys } from "../../src/store/keys.ts";
import { withLease } from "../../src/store/lease.ts";
import { call, signUp } from "../helpers.ts";
import { sleep, startReceiver } from "../net/receiver.ts";
import {
  commitEvent,
  eventually,
  orderEventData,
  subscribe,
  webhookApp,
  type WebhookContext,
} from "./helpers.ts";

/** Records whatever reaches the KV's queue: in outbox mode, nothing may. */
function queueSpy(kv: Deno.Kv) {
  const messages: unknown[] = [];
  const listening = kv.listenQueue((m) => void messages.push(m));
  return { messages, listening };
}

async function outboxIds(ctx: WebhookContext): Promise<string[]> {
  const ids: string[] = [];
  for await (const e of ctx.kv.list({ prefix: keys.outbox() })) ids.push(String(e.key[1]));
  return ids;
}

/** (event id, path) of every request the receiver got, sorted. */
const pairs = (requests: { path: string; headers: Headers }[]) =>
  requests.map((r) => `${r.headers.get("x-service-event-id")} ${r.path}`).sort();

Deno.test("the transport is chosen once: EVENTS_TRANSPORT, else the outbox where KV has no queues", async () => {
  const cases = [
    ["remote", {}, "outbox"],
    ["deploy", {}, "outbox"],
    ["sqlite", {}, "queue"],
    ["memory", {}, "queue"],
    ["sqlite", { EVENTS_TRANSPORT: "outbox" }, "outbox"],
    ["memory", { EVENTS_TRANSPORT: "queue" }, "queue"],
  ] as const;
  for (const [persistence, env, expected] of cases) {
    using kv = await Deno.openKv(":memory:");
    const deps = createDeps({ kv, config: testConfig(env), persistence });
    assert.equal(deps.events.transport.name, expected);
    const event = buildEvent("order.created", "usr_1", orderEventData());
    assert.ok((await deps.events.bus.commit(kv.atomic(), [event])).ok);
    const entry = await kv.get(keys.outboxEntry(event.id));
    assert.equal(entry.versionstamp !== null, expected === "outbox");
    await drainDeps(deps);
  }
});

Deno.test("outbox: an order's commit enqueues nothing; the hand-over delivers once and empties the outbox", async () => {
  await using receiver = startReceiver();
  const ctx = await webhookApp({ events: "outbox" });
  const spy = queueSpy(ctx.kv);
  try {
    const { user, token } = await signUp(ctx);
    await subscribe(ctx, token, { url: receiver.url("/a") });
    await subscribe(ctx, token, { url: receiver.url("/b") });
    const created = await call<{ order: { id: string } }>(ctx, "POST", "/api/orders", {
      token,
      body: { itemSummary: "Desk lamp" },
    });
    assert.equal(created.status, 201);
    const requests = await receiver.waitFor(2);
    assert.deepEqual(requests.map((r) => r.path).sort(), ["/a", "/b"]);
    await eventually(async () => (await outboxIds(ctx)).length === 0);
    // The drain finds nothing left, and nothing was sent twice.
    await ctx.queue!.drain();
    assert.equal(await drainOutbox(ctx.deps, webhookHandlers(ctx.deps), { graceMs: 0 }), 0);
    await sleep(150);
    assert.equal(receiver.requests.length, 2);
    assert.equal(spy.messages.length, 0);
    const [logged] = await Array.fromAsync(ctx.kv.list({ prefix: keys.events(user.id) }));
    assert.equal((logged.value as { type: string }).type, "order.created");
  } finally {
    await ctx.close();
    await spy.listening;
  }
});

Deno.test("outbox: after a crash the drain delivers each (event, subscription) exactly once", async () => {
  await using receiver = startReceiver();
  let clock = Date.now();
  // No listener: the process that committed these events died before handing them over.
  const ctx = await webhookApp({ events: "outbox", listen: false, now: () => clock });
  const spy = queueSpy(ctx.kv);
  try {
    const one = await signUp(ctx);
    const a1 = await subscribe(ctx, one.token, { url: receiver.url("/one/1") });
    await subscribe(ctx, one.token, { url: receiver.url("/one/2") });
    await subscribe(ctx, one.token, {
      url: receiver.url("/one/shipped-only"),
      eventTypes: ["order.shipped"],
    });
    const two = await signUp(ctx);
    await subscribe(ctx, two.token, { url: receiver.url("/two") });
    // More subscriptions than the queue sends from one message: the outbox never splits.
    const many = await signUp(ctx);
    for (let i = 0; i < 7; i++) {
      await subscribe(ctx, many.token, { url: receiver.url(`/many/${i}`) });
    }

    const e1 = await commitEvent(ctx, one.user.id);
    const e2 = await commitEvent(ctx, two.user.id);
    const e3 = await commitEvent(ctx, many.user.id);
    // This one had its first pair sent and its outcome recorded before the crash; the next,
    // its first pair claimed (and maybe sent) with no outcome.
    const e4 = await commitEvent(ctx, one.user.id);
    await ctx.kv.set(keys.webhookAttempt(one.user.id, e4.id, a1.id), { state: "done", at: clock });
    const e5 = await commitEvent(ctx, one.user.id);
    await ctx.kv.set(keys.webhookAttempt(one.user.id, e5.id, a1.id), {
      state: "claimed",
      at: clock,
    });
    assert.deepEqual(await outboxIds(ctx), [e1.id, e2.id, e3.id, e4.id, e5.id]);

    // Too young: left to a hand-over that may still be running.
    const handlers = webhookHandlers(ctx.deps);
    assert.equal(await drainOutbox(ctx.deps, handlers), 0);
    assert.equal(receiver.requests.length, 0);

    clock += OUTBOX_GRACE_MS + 1000;
    // Two processes fire the job at once: one holds the lease, the other does nothing.
    const runs = await Promise.all([
      drainOutbox(ctx.deps, handlers),
      drainOutbox(ctx.deps, handlers),
    ]);
    assert.deepEqual(runs.toSorted(), [5, null]);
    // The claim without an outcome is long stale: sent again, with the same event id.
    assert.deepEqual(
      pairs(receiver.requests),
      [
        `${e1.id} /one/1`,
        `${e1.id} /one/2`,
        `${e2.id} /two`,
        ...Array.from({ length: 7 }, (_, i) => `${e3.id} /many/${i}`),
        `${e4.id} /one/2`,
        `${e5.id} /one/1`,
        `${e5.id} /one/2`,
      ].sort(),
    );
    assert.deepEqual(await outboxIds(ctx), []);
    // Another run, and the same events handed over late, send nothing more.
    assert.equal(await drainOutbox(ctx.deps, handlers), 0);
    for (const event of [e1, e2, e3, e5]) await handlers.event({ kind: "event", event });
    await sleep(150);
    assert.equal(receiver.requests.length, 13);
    assert.equal(spy.messages.length, 0);
  } finally {
    await ctx.close();
    await spy.listening;
  }
});

Deno.test("outbox: an entry stays while a pair is under way, and goes once every pair is done", async () => {
  await using receiver = startReceiver();
  let clock = Date.now();
  await using ctx = await webhookApp({ events: "outbox", listen: false, now: () => clock });
  const { user, token } = await signUp(ctx);
  const first = await subscribe(ctx, token, { url: receiver.url("/first") });
  await subscribe(ctx, token, { url: receiver.url("/second") });
  const event = await commitEvent(ctx, user.id);
  clock += OUTBOX_GRACE_MS + 1000;
  // A process claimed the first pair a moment ago and is sending it now (or just died).
  await ctx.kv.set(keys.webhookAttempt(user.id, event.id, first.id), {
    state: "claimed",
    at: clock - 1000,
  });
  const handlers = webhookHandlers(ctx.deps);
  assert.equal(await drainOutbox(ctx.deps, handlers), 1);
  assert.deepEqual(pairs(receiver.requests), [`${event.id} /second`]);
  assert.deepEqual(await outboxIds(ctx), [event.id]);
  // A minute later that claim has no outcome: its process died, and the next run sends it.
  clock += 60_000;
  assert.equal(await drainOutbox(ctx.deps, handlers), 1);
  assert.deepEqual(pairs(receiver.requests), [`${event.id} /first`, `${event.id} /second`]);
  assert.deepEqual(await outboxIds(ctx), []);
});

Deno.test("outbox: the hand-over and a drain racing on one event still send once per subscription", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ events: "outbox" });
  const { user, token } = await signUp(ctx);
  for (let i = 0; i < 3; i++) await subscribe(ctx, token, { url: receiver.url(`/${i}`) });
  const handlers = webhookHandlers(ctx.deps);
  const events = await Promise.all(Array.from({ length: 5 }, () => commitEvent(ctx, user.id)));
  await drainOutbox(ctx.deps, handlers, { graceMs: 0 });
  await ctx.queue!.drain();
  await sleep(100);
  assert.equal(receiver.requests.length, 15);
  assert.equal(new Set(pairs(receiver.requests)).size, 15);
  assert.deepEqual(
    new Set(receiver.requests.map((r) => r.headers.get("x-service-event-id"))),
    new Set(events.map((e) => e.id)),
  );
  assert.deepEqual(await outboxIds(ctx), []);
});

Deno.test("lease: one holder at a time; given back when done; an expired one is taken over", async () => {
  using kv = await Deno.openKv(":memory:");
  let now = 1_000_000;
  const clock = () => now;
  const ran: string[] = [];
  const record = (name: string) => () => {
    ran.push(name);
    return Promise.resolve();
  };
  const { promise: release, resolve } = Promise.withResolvers<void>();
  const first = withLease(kv, "job", 60_000, clock, async () => {
    ran.push("first");
    await release;
  });
  await sleep(10);
  assert.equal(await withLease(kv, "job", 60_000, clock, record("x")), false);
  resolve();
  assert.equal(await first, true);
  assert.equal(
    await withLease(kv, "job", 60_000, clock, record("second")),
    true,
  );
  // A holder that died keeps its lease until `until`, then anyone may take it.
  await kv.set(keys.lease("job"), { owner: "dead", until: now + 5000 });
  assert.equal(await withLease(kv, "job", 60_000, clock, record("y")), false);
  now += 5001;
  assert.equal(await withLease(kv, "job", 60_000, clock, record("third")), true);
  assert.deepEqual(ran, ["first", "second", "third"]);
  assert.equal((await kv.get(keys.lease("job"))).versionstamp, null);
});
