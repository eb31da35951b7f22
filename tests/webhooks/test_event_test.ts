import assert from "node:assert/strict";
import {
  ROTATE_SECRET_ERROR,
  type StoredSubscription,
} from "../../src/domain/webhooks/subscription.ts";
import { SecretBox } from "../../src/lib/secret_box.ts";
import { keys } from "../../src/store/keys.ts";
import type { WebhookLogEntry } from "../../src/store/webhooks/logs.ts";
import { VERSION } from "../../src/version.ts";
import { call, signUp } from "../helpers.ts";
import { closedPort, sleep, startReceiver } from "../net/receiver.ts";
import { expectedSignature, subscribe, webhookApp } from "./helpers.ts";

const path = (id: string) => `/api/webhook-subscriptions/${id}/test`;

Deno.test("test: a signed test envelope with the test marker and no delivery id", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ listen: false });
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, {
    url: receiver.url(),
    eventTypes: ["order.shipped", "order.created"],
  });
  const res = await call(ctx, "POST", path(sub.id), { token });
  assert.deepEqual([res.status, res.body], [200, { ok: true, status: 200 }]);
  const [req] = receiver.requests;
  const envelope = JSON.parse(req.body);
  assert.match(envelope.id, /^evt_test_/);
  assert.deepEqual(envelope, {
    id: envelope.id,
    type: "order.shipped",
    createdAt: envelope.createdAt,
    userId: user.id,
    data: { test: true },
  });
  assert.equal(new Date(envelope.createdAt).toISOString(), envelope.createdAt);
  assert.equal(req.headers.get("x-service-test"), "true");
  assert.equal(req.headers.get("x-service-delivery"), null);
  assert.equal(req.headers.get("x-service-event"), "order.shipped");
  assert.equal(req.headers.get("x-service-event-id"), envelope.id);
  assert.equal(req.headers.get("content-type"), "application/json");
  assert.equal(req.headers.get("user-agent"), `order-tracker-webhooks/${VERSION}`);
  assert.equal(req.headers.get("x-service-signature"), expectedSignature(sub.secret, req.body));

  const typed = await call(ctx, "POST", path(sub.id), {
    token,
    body: { eventType: "share.created" },
  });
  assert.equal(typed.body.ok, true);
  assert.equal(JSON.parse(receiver.requests[1].body).type, "share.created");
});

Deno.test("test: an invalid eventType is 400", async () => {
  await using ctx = await webhookApp({ listen: false });
  const { token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: "http://127.0.0.1:9/" });
  for (const eventType of ["order.exploded", 3, ""]) {
    const res = await call(ctx, "POST", path(sub.id), { token, body: { eventType } });
    assert.equal(res.status, 400);
    assert.match(String(res.body.error), /^eventType: /);
  }
});

Deno.test("test: failures answer 200 with ok false, and never touch the subscription's state", async () => {
  await using receiver = startReceiver({
    reply: (req) =>
      req.path === "/moved"
        ? new Response(null, { status: 301, headers: { location: "https://example.com/" } })
        : new Response("x", { status: 500 }),
  });
  await using ctx = await webhookApp({ listen: false });
  const { user, token } = await signUp(ctx);
  const cases: [string, Record<string, unknown>][] = [
    [receiver.url("/error"), { ok: false, status: 500, error: "HTTP 500" }],
    [receiver.url("/moved"), { ok: false, status: 301, error: "HTTP 301" }],
    [`http://127.0.0.1:${closedPort()}/`, { ok: false, error: "connection refused" }],
  ];
  for (const [url, expected] of cases) {
    const sub = await subscribe(ctx, token, { url });
    const key = keys.webhookSub(user.id, sub.id);
    const before = (await ctx.kv.get<StoredSubscription>(key)).value!;
    await ctx.kv.set(key, { ...before, failureCount: 9, lastError: "HTTP 418" });
    const res = await call(ctx, "POST", path(sub.id), { token });
    assert.deepEqual([res.status, res.body], [200, expected], url);
    const after = (await ctx.kv.get<StoredSubscription>(key)).value!;
    assert.deepEqual(after, { ...before, failureCount: 9, lastError: "HTTP 418" });
  }
});

Deno.test("test: a timeout is ok false with error timeout", async () => {
  await using receiver = startReceiver({
    reply: async (req) => {
      await sleep(2000, req.signal);
      return new Response("late");
    },
  });
  await using ctx = await webhookApp({ listen: false, timeoutMs: 200 });
  const { token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  const res = await call(ctx, "POST", path(sub.id), { token });
  assert.deepEqual(res.body, { ok: false, error: "timeout" });
});

Deno.test("test: a paused subscription can be tested; the test is logged", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ listen: false });
  const { token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url(), active: false });
  const res = await call(ctx, "POST", path(sub.id), { token });
  assert.deepEqual(res.body, { ok: true, status: 200 });
  const logs = await call<{ logs: WebhookLogEntry[] }>(ctx, "GET", "/api/webhook-logs", { token });
  const [entry] = logs.body.logs;
  assert.equal(entry.test, true);
  assert.equal(entry.deliveryId, undefined);
  assert.match(entry.eventId, /^evt_test_/);
  assert.deepEqual([entry.ok, entry.status, entry.subscriptionId], [true, 200, sub.id]);
});

Deno.test("test: a subscription needing rotation answers ok false telling to rotate", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ listen: false });
  const { user, token } = await signUp(ctx);
  const legacy = await subscribe(ctx, token, { url: receiver.url() });
  const key = keys.webhookSub(user.id, legacy.id);
  const { sealedSecret: _, ...rest } = (await ctx.kv.get<StoredSubscription>(key)).value!;
  await ctx.kv.set(key, { ...rest, needsSecretRotation: true });
  const res = await call(ctx, "POST", path(legacy.id), { token });
  assert.deepEqual(res.body, { ok: false, error: ROTATE_SECRET_ERROR });
  assert.match(ROTATE_SECRET_ERROR, /rotate/);

  const undecryptable = await subscribe(ctx, token, { url: receiver.url() });
  ctx.deps.secrets = SecretBox.ephemeral();
  const res2 = await call(ctx, "POST", path(undecryptable.id), { token });
  assert.deepEqual(res2.body, { ok: false, error: ROTATE_SECRET_ERROR });
  assert.equal(receiver.requests.length, 0);
});
