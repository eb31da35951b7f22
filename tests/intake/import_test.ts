import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { listEvents } from "../../src/events/emit.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { fixture, message } from "./helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

Deno.test("import: a confirmation creates, its repeat is a duplicate, the shipping mail merges", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  const raw = fixture("nike/order_confirmation.eml");
  const first = await call<Body>(ctx, "POST", "/api/email/import", { token, body: { raw } });
  equal(first.status, 202);
  eq(Object.keys(first.body).sort(), ["logId", "merged", "ok", "orderId"]);
  eq([first.body.ok, first.body.merged], [true, false]);
  match(first.body.logId, /^log_/);

  const order = (await call<Body>(ctx, "GET", `/api/orders/${first.body.orderId}`, { token }))
    .body.order;
  eq(
    [order.source, order.status, order.orderNumber, order.itemSummary, order.total, order.size],
    ["email", "ordered", "C01543829961", "Nike Air Force 1 '07", "$125.21", "10.5"],
  );

  const again = await call<Body>(ctx, "POST", "/api/email/import", { token, body: { raw } });
  equal(again.status, 200);
  eq(Object.keys(again.body).sort(), ["duplicate", "logId"]);
  equal(again.body.duplicate, true);

  const shipped = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("nike/shipped.eml") },
  });
  eq([shipped.status, shipped.body.merged, shipped.body.orderId], [202, true, first.body.orderId]);
  const after = (await call<Body>(ctx, "GET", `/api/orders/${first.body.orderId}`, { token }))
    .body.order;
  eq([after.status, after.trackingNumber, after.carrier], ["shipped", "860241683521", "fedex"]);
  // created, then merged + shipped; the duplicate fired nothing.
  eq((await listEvents(ctx.kv, user.id)).map((e) => e.type), [
    "order.created",
    "order.merged",
    "order.shipped",
  ]);

  const inbox = await call<Body>(ctx, "GET", "/api/inbox", { token });
  equal(inbox.status, 200);
  equal(inbox.body.total, 3);
  eq(inbox.body.items.map((e: Body) => e.outcome), ["merged", "duplicate", "created"]);
  const created = inbox.body.items[2];
  eq(
    [created.channel, created.from, created.orderId, typeof created.subject],
    ["email", "nike@official.nike.com", first.body.orderId, "string"],
  );
  const stored = await ctx.app.request(`/api/inbox/${created.id}/raw`, {
    headers: { authorization: `Bearer ${token}` },
  });
  equal(stored.status, 200);
  equal(stored.headers.get("content-type"), "message/rfc822");
  equal(await stored.text(), raw);
  const none = await call<Body>(ctx, "GET", `/api/inbox/${inbox.body.items[1].id}/raw`, { token });
  eq([none.status, none.body], [404, { error: "Message not found" }]);

  // The order's history: which message set which field.
  const history = await call<Body>(ctx, "GET", `/api/orders/${first.body.orderId}/messages`, {
    token,
  });
  equal(history.status, 200);
  eq(history.body.items.map((e: Body) => e.outcome), ["merged", "created"]);
  ok(history.body.items[0].setFields.includes("trackingNumber"));
  ok(history.body.items[1].setFields.includes("orderNumber"));
});

Deno.test("import: a message without a Message-ID is deduplicated by its bytes", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const raw = message({
    from: "Shop <orders@shop.example>",
    subject: "Order #4411 confirmed",
    body: "Thanks for your order!\nOrder number: 4411\nItem: Canvas tote bag\nTotal: $40.00",
    messageId: null,
  });
  equal((await call(ctx, "POST", "/api/email/import", { token, body: { raw } })).status, 202);
  const again = await call<Body>(ctx, "POST", "/api/email/import", { token, body: { raw } });
  eq([again.status, again.body.duplicate], [200, true]);
  const changed = await call(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: raw.replace("$40.00", "$41.00") },
  });
  equal(changed.status, 202);
});

Deno.test("import: a newsletter is 422, logged, never an order", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const res = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("kith/newsletter.eml") },
  });
  equal(res.status, 422);
  equal(res.body.error, "The message could not be read as an email order");
  match(res.body.logId, /^log_/);
  equal((await call<Body>(ctx, "GET", "/api/orders", { token })).body.total, 0);
  const inbox = await call<Body>(ctx, "GET", "/api/inbox", { token });
  eq(inbox.body.items.map((e: Body) => e.outcome), ["ignored"]);
  const junk = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: "this is not an email at all" },
  });
  equal(junk.status, 422);
  const missing = await call<Body>(ctx, "POST", "/api/email/import", { token, body: {} });
  eq([missing.status, missing.body], [400, { error: "raw is required" }]);
});

Deno.test("import: the allow-list checks the real sender, after unwrapping a forward", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const source = (await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding", allowedSenders: ["@amazon.com"] },
  })).body.source;
  // A Gmail forward by the user of an Amazon mail: the real sender is Amazon's.
  const forwarded = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("amazon/fwd_gmail_en_shipped_partial.eml"), sourceId: source.id },
  });
  equal(forwarded.status, 202);
  const order = (await call<Body>(ctx, "GET", `/api/orders/${forwarded.body.orderId}`, { token }))
    .body.order;
  eq([order.sourceId, order.trackingNumber], [source.id, "1Z0X3Y28YW74747122"]);

  const blocked = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("nike/order_confirmation.eml"), sourceId: source.id },
  });
  equal(blocked.status, 403);
  equal(blocked.body.blockedSender, "nike@official.nike.com");
  const noSender = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: {
      raw: message({ subject: "Order 1 confirmed", body: "Order number: 1\nItem: Hat" }),
      sourceId: source.id,
    },
  });
  equal(noSender.status, 403);
  equal(noSender.body.blockedSender, undefined);
  const inbox = await call<Body>(ctx, "GET", `/api/inbox?sourceId=${source.id}&limit=0`, { token });
  eq(inbox.body.items.map((e: Body) => e.outcome), ["blocked", "blocked", "created"]);
  const unknown = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("nike/order_confirmation.eml"), sourceId: "email_nope" },
  });
  eq([unknown.status, unknown.body], [404, { error: "Email source not found" }]);
});

Deno.test("import: the free plan's cap is 429 with the plan-limit fields", async () => {
  await using ctx = await testApp({ BILLING_ENABLED: "true", FREE_PLAN_MONTHLY_ORDERS: "1" });
  const { token } = await signUp(ctx);
  equal(
    (await call(ctx, "POST", "/api/email/import", {
      token,
      body: { raw: fixture("nike/order_confirmation.eml") },
    })).status,
    202,
  );
  const capped = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("kith/order_confirmation.eml") },
  });
  equal(capped.status, 429);
  eq([capped.body.reason, capped.body.cap, capped.body.used], ["plan_limit_reached", 1, 1]);
  // Merges are never blocked.
  equal(
    (await call(ctx, "POST", "/api/email/import", {
      token,
      body: { raw: fixture("nike/shipped.eml") },
    })).status,
    202,
  );
});

Deno.test("import: racing copies of one message make one order", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const raw = fixture("kith/order_confirmation.eml");
  const results = await Promise.all(
    Array.from(
      { length: 12 },
      () => call(ctx, "POST", "/api/email/import", { token, body: { raw } }),
    ),
  );
  eq(results.map((r) => r.status).sort(), [
    200,
    200,
    200,
    200,
    200,
    200,
    200,
    200,
    200,
    200,
    200,
    202,
  ]);
  equal((await call<Body>(ctx, "GET", "/api/orders", { token })).body.total, 1);
});

Deno.test("preview: what an import would read, without storing anything", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const res = await call<Body>(ctx, "POST", "/api/email/preview", {
    token,
    body: { raw: fixture("nike/shipped.eml") },
  });
  equal(res.status, 200);
  eq([res.body.fields.trackingNumber, res.body.fields.carrier], ["860241683521", "fedex"]);
  equal(typeof res.body.template, "string");
  equal(res.body.signals.shipped, true);
  const not = await call<Body>(ctx, "POST", "/api/email/preview", {
    token,
    body: { raw: fixture("kith/newsletter.eml") },
  });
  equal(not.status, 422);
  equal((await call<Body>(ctx, "GET", "/api/inbox", { token })).body.total, 0);
});

Deno.test("preview: each field's evidence, the kind of source and what it was anchored on", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const res = await call<Body>(ctx, "POST", "/api/email/preview", {
    token,
    body: { raw: fixture("generic/pedido_tabla_es.eml") },
  });
  equal(res.status, 200);
  eq(res.body.evidence, {
    orderNumber: { kind: "label", anchor: "Número de pedido" },
    itemSummary: { kind: "table", anchor: "Artículo" },
    total: { kind: "label", anchor: "Total (IVA incluido)" },
    price: { kind: "table", anchor: "Precio" },
    quantity: { kind: "table", anchor: "Cantidad" },
    size: { kind: "table", anchor: "Talla" },
    store: { kind: "generic", anchor: "sender name" },
    // The order is dated by the message's Date header.
    receivedAt: { kind: "generic", anchor: "Date" },
  });
  eq(Object.keys(res.body.evidence).sort(), Object.keys(res.body.fields).sort());
  // A built-in template's store, and a value under its label, in a known store's mail.
  const nike = await call<Body>(ctx, "POST", "/api/email/preview", {
    token,
    body: { raw: fixture("nike/shipped.eml") },
  });
  eq(nike.body.evidence.store, { kind: "template", anchor: "nike" });
  eq(nike.body.evidence.trackingNumber, { kind: "label", anchor: "Tracking Number" });
});

Deno.test("import: hostile messages (10,000 parts, a 1.9 MiB body, deep nesting) answer a clear 4xx or 202, never 500", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const parts = Array.from(
    { length: 10_000 },
    (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`,
  ).join("");
  const many =
    `From: a@shop.example\r\nSubject: Order 1\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n${parts}--b--\r\n`;
  const huge = message({ from: "a@shop.example", subject: "Order 2", body: "x".repeat(1_900_000) });
  let nested = "Order number: 77\r\nItem: Nest";
  for (let i = 0; i < 60; i++) {
    nested =
      `Content-Type: multipart/mixed; boundary=n${i}\r\n\r\n--n${i}\r\n${nested}\r\n--n${i}--`;
  }
  nested = `From: a@shop.example\r\nSubject: Order 3\r\n${nested}\r\n`;
  for (const raw of [many, huge, nested]) {
    const started = performance.now();
    const res = await call<Body>(ctx, "POST", "/api/email/import", { token, body: { raw } });
    ok([202, 422].includes(res.status), `${res.status} ${JSON.stringify(res.body)}`);
    ok(performance.now() - started < 15_000);
  }
});

Deno.test("import: a shipping mail without an order number merges into the order with its tracking number", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  // The order is known with its tracking number (typed with spaces) from an earlier message.
  const known = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: {
      itemSummary: "Box logo tee",
      orderNumber: "SUP-1",
      trackingNumber: "1z 6r1y 4003 4278 2457",
    },
  });
  equal(known.status, 201);
  const res = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: fixture("supreme/shipped_no_order_number.eml") },
  });
  eq([res.status, res.body.merged, res.body.orderId], [202, true, known.body.order.id]);
  equal((await call<Body>(ctx, "GET", "/api/orders", { token })).body.total, 1);
  // A manual create is never merged by tracking number: the spec makes it a new order.
  const manual = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Again", trackingNumber: "1Z6R1Y400342782457" },
  });
  eq([manual.status, manual.body.merged], [201, false]);
});
