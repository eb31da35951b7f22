import assert from "node:assert/strict";
import { call, signUp } from "../helpers.ts";
import { startReceiver } from "../net/receiver.ts";
import { eventually, expectedSignature, subscribe, testResolver, webhookApp } from "./helpers.ts";

const resolver = testResolver({ "hooks.example.com": ["93.184.216.34"] });

Deno.test("the snapshot and the export carry settings and webhook subscriptions, never secrets", async () => {
  await using ctx = await webhookApp({ listen: false, resolver });
  const { token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: "https://hooks.example.com/a" });
  await call(ctx, "POST", "/api/settings", {
    token,
    body: { updatesWebhook: "https://hooks.example.com/u", forwardOn: true },
  });
  const { secret: _, ...publicSub } = sub;

  const state = await call<Record<string, Record<string, unknown>>>(ctx, "GET", "/api/state", {
    token,
  });
  assert.equal(state.status, 200);
  assert.deepEqual(state.body.webhookSubscriptions, [publicSub]);
  assert.equal(state.body.settings.updatesWebhook, "https://hooks.example.com/u");
  assert.equal(state.body.settings.forwardOn, true);

  const exported = await call(ctx, "GET", "/api/account/export", { token });
  assert.equal(exported.status, 200);
  assert.deepEqual(exported.body.webhookSubscriptions, [publicSub]);
  // The settings' webhooks are chat webhook URLs, which the export cuts down to their host.
  assert.deepEqual(
    (exported.body.settings as Record<string, unknown>).updatesWebhook,
    "hooks.example.com",
  );
  const text = JSON.stringify([state.body, exported.body]);
  assert.ok(!text.includes(sub.secret.slice(6)), "no signing secret");
  assert.ok(!text.includes("sealedSecret"));
});

Deno.test("deleting the account leaves nothing of its webhooks anywhere in KV", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, { url: receiver.url() });
  await call(ctx, "POST", `/api/webhook-subscriptions/${sub.id}/test`, { token });
  await call(ctx, "POST", "/api/settings", { token, body: { forwardOn: true } });
  // A real delivery: event log, attempt marker, outcome and webhook log entries.
  const created = await call<{ order: { id: string } }>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Desk lamp", orderNumber: "A-77" },
  });
  const deliveries = (await receiver.waitFor(2)).map((r) => JSON.parse(r.body));
  const eventId = deliveries.find((e) => e.data.test !== true).id;
  assert.match(eventId, /^evt_(?!test_)/);
  await eventually(async () => {
    const got = await call(ctx, "GET", `/api/webhook-subscriptions/${sub.id}`, { token });
    return got.body.lastFiredAt !== undefined && got.body.failureCount === 0;
  });

  const res = await call(ctx, "DELETE", "/api/account", {
    token,
    body: { confirmEmail: user.email },
  });
  assert.equal(res.status, 200);
  const marks = [user.id, sub.id, created.body.order.id, eventId];
  for await (const entry of ctx.kv.list({ prefix: [] })) {
    const line = JSON.stringify(entry.key) +
      JSON.stringify(entry.value, (_, v) => typeof v === "bigint" ? String(v) : v);
    for (const mark of marks) assert.ok(!line.includes(mark), `${mark} left in ${line}`);
  }
});

Deno.test("end to end: POST /api/orders reaches the receiver as order.created", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp();
  const { user, token } = await signUp(ctx);
  const sub = await subscribe(ctx, token, {
    url: receiver.url(),
    eventTypes: ["order.created", "order.merged"],
  });
  const created = await call<{ order: { id: string } }>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Desk lamp", orderNumber: "A-1001" },
  });
  assert.equal(created.status, 201);
  const [req] = await receiver.waitFor(1);
  const envelope = JSON.parse(req.body);
  assert.equal(envelope.type, "order.created");
  assert.equal(envelope.userId, user.id);
  assert.match(envelope.id, /^evt_/);
  assert.equal(envelope.data.order.id, created.body.order.id);
  assert.equal(envelope.data.source, "manual");
  assert.equal(req.headers.get("x-service-signature"), expectedSignature(sub.secret, req.body));

  await call(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Desk lamp", orderNumber: "#a-1001" },
  });
  const requests = await receiver.waitFor(2);
  assert.equal(JSON.parse(requests[1].body).type, "order.merged");
  await eventually(async () => {
    const got = await call(ctx, "GET", `/api/webhook-subscriptions/${sub.id}`, { token });
    return got.body.lastFiredAt !== undefined;
  });
});
