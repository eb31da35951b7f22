import assert from "node:assert/strict";
import {
  ROTATE_SECRET_ERROR,
  type StoredSubscription,
} from "../../src/domain/webhooks/subscription.ts";
import { webhookHandlers } from "../../src/webhooks/delivery.ts";
import { type QueueListener, startQueueListener } from "../../src/events/queue.ts";
import { buildEvent } from "../../src/domain/events/envelope.ts";
import { SecretBox } from "../../src/lib/secret_box.ts";
import { PRIVATE_ADDRESS_MESSAGE } from "../../src/net/outbound.ts";
import { keys } from "../../src/store/keys.ts";
import type { WebhookLogEntry } from "../../src/store/webhooks/logs.ts";
import { VERSION } from "../../src/version.ts";
import { call, signUp } from "../helpers.ts";
import { closedPort, sleep, slowBody, startReceiver } from "../net/receiver.ts";
import {
  commitEvent,
  eventually,
  expectedSignature,
  orderEventData,
  subscribe,
  webhookApp,
  type WebhookContext,
} from "./helpers.ts";

function stored(ctx: WebhookContext, userId: string, id: string) {
  return ctx.kv.get<StoredSubscription>(keys.webhookSub(userId, id)).then((e) => e.value!);
}

/** Waits until the subscription's outcome for `attempts` deliveries is recorded. */
function settled(ctx: WebhookContext, userId: string, id: string, attempts = 1) {
  return eventually(async () => {
    const logs = [];
    for await (const e of ctx.kv.list<WebhookLogEntry>({ prefix: keys.webhookLogs(userId) })) {
      if (e.value.subscriptionId === id) logs.push(e.value);
    }
    return logs.length >= attempts && await stored(ctx, userId, id);
  });
}

Deno.test("an event reaches each matching active subscription once, signed, with the contract's headers", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const other = await signUp(ctx);
  const wanted = await subscribe(ctx, token, {
    url: receiver.url("/wanted"),
    eventTypes: ["order.shipped", "order.created"],
  });
  await subscribe(ctx, token, { url: receiver.url("/other-type"), eventTypes: ["order.shipped"] });
  await subscribe(ctx, token, { url: receiver.url("/paused"), active: false });
  await subscribe(ctx, other.token, { url: receiver.url("/other-account") });

  const event = await commitEvent(ctx, user.id, "order.created");
  const [req] = await receiver.waitFor(1);
  const sub = await settled(ctx, user.id, wanted.id);
  await sleep(100);
  assert.deepEqual(receiver.requests.map((r) => r.path), ["/wanted"]);

  assert.equal(req.method, "POST");
  assert.equal(req.body, JSON.stringify(event));
  assert.deepEqual(JSON.parse(req.body), {
    id: event.id,
    type: "order.created",
    createdAt: event.createdAt,
    userId: user.id,
    data: event.data,
  });
  assert.equal(req.headers.get("content-type"), "application/json");
  assert.equal(req.headers.get("user-agent"), `order-tracker-webhooks/${VERSION}`);
  assert.equal(req.headers.get("x-service-event"), "order.created");
  assert.equal(req.headers.get("x-service-event-id"), event.id);
  assert.equal(req.headers.get("x-service-signature"), expectedSignature(wanted.secret, req.body));
  assert.match(req.headers.get("x-service-delivery")!, /^[0-9a-f-]{36}$/);
  assert.equal(req.headers.get("x-service-test"), null);

  assert.equal(sub.failureCount, 0);
  assert.equal(sub.lastError, undefined);
  assert.ok(sub.lastFiredAt);
  const logs = await call<{ logs: WebhookLogEntry[] }>(ctx, "GET", "/api/webhook-logs", { token });
  assert.equal(logs.body.logs.length, 1);
  const { durationMs, id, createdAt, ...entry } = logs.body.logs[0];
  assert.ok(id && durationMs >= 0 && createdAt === sub.lastFiredAt);
  assert.deepEqual(entry, {
    subscriptionId: wanted.id,
    eventId: event.id,
    eventType: "order.created",
    ok: true,
    status: 200,
    deliveryId: req.headers.get("x-service-delivery"),
  });
});

Deno.test("a large fan-out (25 subscriptions) goes through one message per subscription", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const subs = [];
  for (let i = 0; i < 25; i++) {
    subs.push(await subscribe(ctx, token, { url: receiver.url(`/${i}`) }));
  }
  const event = await commitEvent(ctx, user.id);
  const requests = await receiver.waitFor(25);
  await sleep(100);
  assert.equal(requests.length, 25);
  const secretOf = new Map(subs.map((s, i) => [`/${i}`, s.secret]));
  for (const req of requests) {
    assert.equal(
      req.headers.get("x-service-signature"),
      expectedSignature(secretOf.get(req.path)!, req.body),
    );
    assert.equal(req.headers.get("x-service-event-id"), event.id);
  }
  assert.equal(new Set(requests.map((r) => r.path)).size, 25);
  assert.equal(new Set(requests.map((r) => r.headers.get("x-service-delivery"))).size, 25);
});

Deno.test("redelivery: the same message handled twice (even at once) sends once per subscription", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ listen: false });
  const { user, token } = await signUp(ctx);
  const few = [];
  for (let i = 0; i < 2; i++) few.push(await subscribe(ctx, token, { url: receiver.url(`/${i}`) }));
  const handlers = webhookHandlers(ctx.deps);
  const event = buildEvent("order.created", user.id, orderEventData());
  const message = { kind: "event", event };
  await Promise.all([handlers.event(message), handlers.event(message)]);
  await handlers.event(message);
  assert.equal(receiver.requests.length, 2);

  const delivery = { kind: "delivery", event, subscriptionId: few[0].id };
  await handlers.delivery(delivery);
  assert.equal(receiver.requests.length, 2, "a per-subscription message for a done pair");
  const fresh = {
    kind: "delivery",
    event: { ...event, id: "evt_other" },
    subscriptionId: few[0].id,
  };
  await Promise.all([handlers.delivery(fresh), handlers.delivery(fresh)]);
  assert.equal(receiver.requests.length, 3);
  assert.equal((await stored(ctx, user.id, few[0].id)).failureCount, 0);

  // Handed over at commit, then the queue's copy: one send per subscription.
  const third = buildEvent("order.created", user.id, orderEventData());
  await handlers.event({ kind: "event", event: third, atCommit: true });
  await handlers.event({ kind: "event", event: third });
  await handlers.event({ kind: "event", event: third });
  assert.equal(receiver.requests.length, 5);
});

Deno.test("events committed while no listener runs are delivered from the queue once it starts", async () => {
  await using receiver = startReceiver();
  const ctx = await webhookApp({ listen: false });
  let queue: QueueListener | undefined;
  try {
    const { user, token } = await signUp(ctx);
    const sub = await subscribe(ctx, token, { url: receiver.url() });
    const event = await commitEvent(ctx, user.id);
    await sleep(150);
    assert.equal(receiver.requests.length, 0);
    queue = startQueueListener(ctx.deps, webhookHandlers(ctx.deps));
    const [req] = await receiver.waitFor(1);
    assert.equal(req.headers.get("x-service-event-id"), event.id);
    await settled(ctx, user.id, sub.id);
    await sleep(150);
    assert.equal(receiver.requests.length, 1);
  } finally {
    await queue?.drain();
    await ctx.close();
    await queue?.close();
  }
});

Deno.test("a malformed or unknown queue message is acknowledged without a send", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ listen: false });
  const { user, token } = await signUp(ctx);
  await subscribe(ctx, token, { url: receiver.url() });
  const handlers = webhookHandlers(ctx.deps);
  await handlers.event({ kind: "event", event: { id: 1 } } as never);
  await handlers.event(
    {
      kind: "event",
      event: { ...buildEvent("order.created", user.id, orderEventData()), type: "nope" },
    } as never,
  );
  assert.equal(receiver.requests.length, 0);
  assert.ok(ctx.logs.some((l) => l.includes("malformed webhook queue message")));
});

Deno.test("an event older than the attempt markers' lifetime is not sent", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ listen: false });
  const { user, token } = await signUp(ctx);
  await subscribe(ctx, token, { url: receiver.url() });
  const event = buildEvent(
    "order.created",
    user.id,
    orderEventData(),
    Date.now() - 6.5 * 86_400_000,
  );
  await webhookHandlers(ctx.deps).event({ kind: "event", event });
  assert.equal(receiver.requests.length, 0);
});

Deno.test("each outcome: 2xx success; 3xx (not followed), 4xx, 5xx, timeouts and refused connections fail", async () => {
  await using target = startReceiver();
  await using receiver = startReceiver({
    reply: async (req) => {
      switch (req.path) {
        case "/ok":
          return new Response("fine");
        case "/accepted":
          return new Response(null, { status: 202 });
        case "/moved":
          return new Response(null, { status: 301, headers: { location: target.url() } });
        case "/found":
          return new Response(null, { status: 302, headers: { location: target.url() } });
        case "/missing":
          return new Response("no", { status: 404 });
        case "/error":
          return new Response("boom", { status: 500 });
        case "/slow-body":
          return slowBody(3000);
        default:
          await sleep(3000, req.signal);
          return new Response("late");
      }
    },
  });
  await using ctx = await webhookApp({ timeoutMs: 400 });
  const { user, token } = await signUp(ctx);
  const expected: Record<string, [number, string | undefined]> = {
    "/ok": [0, undefined],
    "/accepted": [0, undefined],
    "/moved": [1, "HTTP 301"],
    "/found": [1, "HTTP 302"],
    "/missing": [1, "HTTP 404"],
    "/error": [1, "HTTP 500"],
    "/slow-headers": [1, "timeout"],
    "/slow-body": [1, "timeout"],
  };
  const ids = new Map<string, string>();
  for (const path of Object.keys(expected)) {
    ids.set(path, (await subscribe(ctx, token, { url: receiver.url(path) })).id);
  }
  const refused = await subscribe(ctx, token, { url: `http://127.0.0.1:${closedPort()}/` });
  await commitEvent(ctx, user.id);
  for (const [path, [failureCount, lastError]] of Object.entries(expected)) {
    const sub = await settled(ctx, user.id, ids.get(path)!);
    assert.deepEqual(
      [sub.failureCount, sub.lastError, sub.active],
      [failureCount, lastError, true],
      path,
    );
    assert.ok(sub.lastFiredAt, path);
  }
  const refusedSub = await settled(ctx, user.id, refused.id);
  assert.deepEqual([refusedSub.failureCount, refusedSub.lastError], [1, "connection refused"]);
  assert.equal(target.requests.length, 0, "redirects are not followed");
  const logs = await call<{ logs: WebhookLogEntry[] }>(ctx, "GET", "/api/webhook-logs", { token });
  const byPath = new Map(logs.body.logs.map((l) => [l.subscriptionId, l]));
  assert.deepEqual(
    [byPath.get(ids.get("/moved")!)!.status, byPath.get(ids.get("/moved")!)!.error],
    [301, "HTTP 301"],
  );
  const timedOut = byPath.get(ids.get("/slow-body")!)!;
  assert.deepEqual([timedOut.status, timedOut.error, timedOut.ok], [undefined, "timeout", false]);
  assert.ok(timedOut.durationMs >= 390, `${timedOut.durationMs}`);
});

Deno.test("the 10th consecutive failure pauses; paused gets nothing; active: true resumes from 0", async () => {
  await using receiver = startReceiver({ reply: () => new Response("down", { status: 503 }) });
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  for (let i = 1; i <= 10; i++) {
    await commitEvent(ctx, user.id);
    const now = await settled(ctx, user.id, sub.id, i);
    assert.equal(now.failureCount, i);
    assert.equal(now.active, i < 10, `after ${i} failures`);
  }
  await commitEvent(ctx, user.id);
  await sleep(200);
  assert.equal(receiver.requests.length, 10);
  const paused = await stored(ctx, user.id, sub.id);
  assert.deepEqual([paused.active, paused.failureCount, paused.lastError], [false, 10, "HTTP 503"]);

  const resumed = await call(ctx, "PATCH", `/api/webhook-subscriptions/${sub.id}`, {
    token,
    body: { active: true },
  });
  assert.deepEqual([resumed.body.active, resumed.body.failureCount], [true, 0]);
  receiver.reply(() => new Response("ok"));
  await commitEvent(ctx, user.id);
  await receiver.waitFor(11);
  const after = await settled(ctx, user.id, sub.id, 11);
  assert.deepEqual([after.active, after.failureCount, after.lastError], [true, 0, "HTTP 503"]);
});

Deno.test("concurrent failures are all counted (atomic updates)", async () => {
  await using receiver = startReceiver({ reply: () => new Response("no", { status: 500 }) });
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  await Promise.all(Array.from({ length: 9 }, () => commitEvent(ctx, user.id)));
  const after = await settled(ctx, user.id, sub.id, 9);
  assert.equal(receiver.requests.length, 9);
  assert.deepEqual([after.failureCount, after.active], [9, true]);
});

Deno.test("a success resets failureCount", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  const before = await stored(ctx, user.id, sub.id);
  await ctx.kv.set(keys.webhookSub(user.id, sub.id), {
    ...before,
    failureCount: 7,
    lastError: "timeout",
  });
  await commitEvent(ctx, user.id);
  const after = await settled(ctx, user.id, sub.id);
  assert.deepEqual([after.failureCount, after.lastError], [0, "timeout"]);
});

Deno.test("an undecryptable secret skips events, tells the owner to rotate, and does not count", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  ctx.deps.secrets = SecretBox.ephemeral(); // the deployment's key changed
  await commitEvent(ctx, user.id);
  const skipped = await eventually(async () => {
    const s = await stored(ctx, user.id, sub.id);
    return s.lastError ? s : undefined;
  });
  assert.deepEqual(
    [skipped.lastError, skipped.failureCount, skipped.active, skipped.lastFiredAt],
    [ROTATE_SECRET_ERROR, 0, true, undefined],
  );
  assert.equal(receiver.requests.length, 0);

  const rotated = await call(ctx, "POST", `/api/webhook-subscriptions/${sub.id}/rotate-secret`, {
    token,
  });
  assert.equal(rotated.body.lastError, undefined);
  await commitEvent(ctx, user.id);
  const [req] = await receiver.waitFor(1);
  assert.equal(
    req.headers.get("x-service-signature"),
    expectedSignature(String(rotated.body.secret), req.body),
  );
});

Deno.test("needsSecretRotation skips events the same way", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  const { sealedSecret: _, ...legacy } = await stored(ctx, user.id, sub.id);
  await ctx.kv.set(keys.webhookSub(user.id, sub.id), { ...legacy, needsSecretRotation: true });
  await commitEvent(ctx, user.id);
  const skipped = await eventually(async () => {
    const s = await stored(ctx, user.id, sub.id);
    return s.lastError ? s : undefined;
  });
  assert.deepEqual([skipped.lastError, skipped.failureCount], [ROTATE_SECRET_ERROR, 0]);
  assert.equal(receiver.requests.length, 0);
});

Deno.test("rotation takes effect at once: later deliveries carry only the new signature", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  const rotated = await call(ctx, "POST", `/api/webhook-subscriptions/${sub.id}/rotate-secret`, {
    token,
  });
  const secret = String(rotated.body.secret);
  await commitEvent(ctx, user.id);
  const [req] = await receiver.waitFor(1);
  const signature = req.headers.get("x-service-signature");
  assert.equal(signature, expectedSignature(secret, req.body));
  assert.notEqual(signature, expectedSignature(sub.secret, req.body));
});

Deno.test("the address is checked again at send time: a host that now resolves privately fails", async () => {
  await using receiver = startReceiver();
  const answers: Record<string, string[]> = { "hooks.test": ["127.0.0.1"] };
  await using ctx = await webhookApp({
    resolver: { resolve: (host) => Promise.resolve(answers[host] ?? []) },
  });
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: `http://hooks.test:${receiver.port}/hook` });
  answers["hooks.test"] = ["10.0.0.9"];
  await commitEvent(ctx, user.id);
  const after = await settled(ctx, user.id, sub.id);
  assert.deepEqual([after.failureCount, after.lastError], [1, PRIVATE_ADDRESS_MESSAGE]);
  assert.equal(receiver.requests.length, 0);
  // Back to the checked address: delivered, with the URL's host in Host.
  answers["hooks.test"] = ["127.0.0.1"];
  await commitEvent(ctx, user.id);
  const [req] = await receiver.waitFor(1);
  assert.equal(req.headers.get("host"), `hooks.test:${receiver.port}`);
});

Deno.test("a deleted subscription gets nothing and leaves nothing behind", async () => {
  await using receiver = startReceiver({
    reply: async () => {
      await sleep(100);
      return new Response("ok");
    },
  });
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  await commitEvent(ctx, user.id);
  await receiver.waitFor(1);
  await call(ctx, "DELETE", `/api/webhook-subscriptions/${sub.id}`, { token });
  await ctx.queue!.drain();
  assert.equal((await ctx.kv.get(keys.webhookSub(user.id, sub.id))).value, null);
  const logs = await call<{ logs: unknown[] }>(ctx, "GET", "/api/webhook-logs", { token });
  assert.equal(logs.body.logs.length, 0);
  await commitEvent(ctx, user.id);
  await sleep(100);
  assert.equal(receiver.requests.length, 1);
});
