import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { receiveMessage } from "../../src/intake/receive.ts";
import { call, signUp } from "../helpers.ts";
import { closedPort, sleep, startReceiver } from "../net/receiver.ts";
import { chatApp, checkout, decline, makeBot, postTo } from "./helpers.ts";

Deno.test("forwarding: a post that made or merged an order goes unchanged to the bot's outputWebhook, else the workspace's", async () => {
  await using receiver = startReceiver();
  await using ctx = await chatApp({
    env: { BILLING_ENABLED: "true", FREE_PLAN_MONTHLY_ORDERS: "2" },
  });
  const { token } = await signUp(ctx);
  await call(ctx, "POST", "/api/settings", {
    token,
    body: { outputWebhook: receiver.url("/workspace"), forwardOn: true },
  });
  const own = await makeBot(ctx, token, { outputWebhook: receiver.url("/bot") });
  const plain = await makeBot(ctx, token, { name: "Plain" });

  const first = checkout({ Order: "F-1" }, { avatar_url: "https://cdn.example/a.png", tts: false });
  equal((await postTo(ctx, own, first)).status, 202);
  const second = checkout({ Order: "F-2" });
  equal((await postTo(ctx, plain, second)).status, 202);
  // Merged: forwarded too. Ignored and rejected (the cap of 2 is used): not forwarded.
  equal((await postTo(ctx, plain, second)).body.merged, true);
  equal((await postTo(ctx, plain, decline())).body.ignored, true);
  equal((await postTo(ctx, own, checkout({ Order: "F-3" }))).body.rejected, true);
  await ctx.deps.background.drain();

  eq(receiver.requests.map((r) => r.path).sort(), ["/bot", "/workspace", "/workspace"]);
  const toBot = receiver.requests.find((r) => r.path === "/bot")!;
  eq(JSON.parse(toBot.body), first);
  equal(toBot.method, "POST");
  equal(toBot.headers.get("content-type"), "application/json");
  for (const r of receiver.requests.filter((r) => r.path === "/workspace")) {
    eq(JSON.parse(r.body), second);
  }

  // forwardOn off: nothing is forwarded, even to a bot's own outputWebhook.
  await call(ctx, "POST", "/api/settings", { token, body: { forwardOn: false } });
  await postTo(ctx, own, checkout({ Order: "F-1" }));
  await ctx.deps.background.drain();
  equal(receiver.requests.length, 3);
});

Deno.test("forwarding: a failing or refused receiver never fails intake; the failure is logged by host only", async () => {
  await using ctx = await chatApp({ listen: false });
  const { token } = await signUp(ctx);
  await call(ctx, "POST", "/api/settings", { token, body: { forwardOn: true } });
  await using failing = startReceiver({ reply: () => new Response("no", { status: 500 }) });
  const port = closedPort();
  const bots = [
    await makeBot(ctx, token, { outputWebhook: failing.url("/api/webhooks/1/SECRET-A") }),
    await makeBot(ctx, token, {
      outputWebhook: `http://127.0.0.1:${port}/api/webhooks/2/SECRET-B`,
    }),
  ];
  for (const [i, bot] of bots.entries()) {
    const res = await postTo(ctx, bot, checkout({ Order: `X-${i}` }));
    eq([res.status, res.body.merged], [202, false]);
  }
  await ctx.deps.background.drain();
  const failures = ctx.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === "chat relay failed");
  eq(
    failures.map((f) => [f.kind, f.host, f.error]).sort(),
    [
      ["forward", `127.0.0.1:${failing.port}`, "HTTP 500"],
      ["forward", `127.0.0.1:${port}`, "connection refused"],
    ].sort(),
  );
  ok(!ctx.logs.some((l) => l.includes("SECRET")), "no webhook path in the logs");
  eq((await call(ctx, "GET", "/api/orders", { token })).body.total, 2);
});

Deno.test("updates: shipped and delivered moves from any source are announced once each to updatesWebhook, as one embed", async () => {
  await using receiver = startReceiver();
  await using ctx = await chatApp();
  const { user, token } = await signUp(ctx);
  await call(ctx, "POST", "/api/settings", {
    token,
    body: { updatesWebhook: receiver.url("/updates") },
  });
  const bot = await makeBot(ctx, token);
  const created = await postTo(ctx, bot, checkout({ Order: "U-1" }));
  const orderId = String(created.body.orderId);

  // An email with the tracking number: the order ships.
  const shipped = await receiveMessage(ctx.kv, {
    userId: user.id,
    channel: "email",
    identity: "<ship-1@shop.example>",
    facts: {},
    reading: {
      kind: "order",
      fields: {
        itemSummary: "Dunk Low Retro 'Panda'",
        orderNumber: "U-1",
        trackingNumber: "1Z999AA10123456784",
        carrier: "UPS",
        trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
      },
      signals: {},
    },
  }, { now: ctx.deps.now(), billing: ctx.config, events: ctx.deps.events.bus });
  equal(shipped.outcome, "merged");
  const [first] = await receiver.waitFor(1);
  // A PATCH: delivered.
  const patched = await call(ctx, "PATCH", `/api/orders/${orderId}`, {
    token,
    body: { status: "delivered", actualDelivery: "2025-05-04" },
  });
  equal(patched.status, 200);
  await receiver.waitFor(2);
  // Another order created or edited without a move: nothing more.
  await postTo(ctx, bot, checkout({ Order: "U-2" }));
  await call(ctx, "PATCH", `/api/orders/${orderId}`, { token, body: { size: "11" } });
  await sleep(400);
  await ctx.queue!.drain();
  equal(receiver.requests.length, 2, "one announcement per move, whatever the queue redelivers");

  const body = JSON.parse(first.body);
  eq(Object.keys(body), ["embeds"]);
  equal(body.embeds.length, 1);
  const { timestamp, ...embed } = body.embeds[0];
  ok(Date.parse(timestamp));
  eq(embed, {
    title: "Order shipped",
    description: "Dunk Low Retro 'Panda'",
    color: 0x3b82f6,
    url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    fields: [
      { name: "Store", value: "Nike US", inline: true },
      { name: "Order", value: "U-1", inline: true },
      { name: "Carrier", value: "UPS", inline: true },
      { name: "Tracking", value: "1Z999AA10123456784", inline: true },
    ],
    thumbnail: { url: "https://images.example.com/dunk-panda.png" },
  });
  const delivered = JSON.parse(receiver.requests[1].body).embeds[0];
  eq([delivered.title, delivered.fields.at(-1)], ["Order delivered", {
    name: "Delivered",
    value: "2025-05-04",
    inline: true,
  }]);
});

Deno.test("updates: without an updatesWebhook nothing is sent; a failing one is logged and changes nothing", async () => {
  await using failing = startReceiver({ reply: () => new Response("", { status: 503 }) });
  await using ctx = await chatApp();
  const { token } = await signUp(ctx);
  const made = await call(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Desk lamp", orderNumber: "N-1" },
  });
  const id = (made.body.order as { id: string }).id;
  await call(ctx, "PATCH", `/api/orders/${id}`, { token, body: { status: "shipped" } });
  await sleep(200);
  equal(failing.requests.length, 0);

  await call(ctx, "POST", "/api/settings", { token, body: { updatesWebhook: failing.url("/u") } });
  const res = await call(ctx, "PATCH", `/api/orders/${id}`, {
    token,
    body: { status: "delivered" },
  });
  equal(res.status, 200);
  await failing.waitFor(1);
  await sleep(300);
  await ctx.queue!.drain();
  equal(failing.requests.length, 1, "no retries");
  ok(ctx.logs.some((l) => l.includes('"msg":"chat relay failed"') && l.includes("HTTP 503")));
});
