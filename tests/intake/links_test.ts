/**
 * Intake never stores a link that is not `http:`/`https:`. The attack: an order email whose
 * item table holds `<img src="javascript:...">` (or a template, or an embed, giving a `data:`
 * URL) stored it as the order's `imageUrl`, and it reached webhooks, the export and chat
 * embeds. The rule is the API's own (`isWebUrl`), applied where every message becomes order
 * fields.
 */
import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { mergeMessage, newOrder, reviseFromMessage } from "../../src/domain/orders/order.ts";
import { isWebUrl } from "../../src/domain/orders/web_url.ts";
import { EventBus } from "../../src/events/bus.ts";
import { QUEUE } from "../../src/events/transport.ts";
import { ingestOrder, mergeIntoOrder } from "../../src/store/orders/orders.ts";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

const NOW = Date.parse("2026-03-03T10:00:00.000Z");
const HOSTILE = [
  "javascript:alert(document.cookie)",
  "JavaScript:alert(1)",
  "data:image/svg+xml,<svg onload=alert(1)>",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "vbscript:msgbox",
  "file:///etc/passwd",
  "//evil.example/x.png",
  "https://",
  `https://shop.example/${"a".repeat(2000)}`,
];

function tableMail(imageSrc: string): string {
  const html = `<p>Thanks for your order!</p><p>Order number: 5501</p>
<table><tr><td>Item</td><td>Qty</td><td>Price</td></tr>
<tr><td><img src="${imageSrc}" width="80" height="80" alt="Espresso cups"> Espresso cups</td>
<td>2</td><td>$24.00</td></tr></table><p>Total: $24.00</p>`;
  return [
    "From: Shop <orders@shop.example>",
    "To: buyer@example.com",
    "Subject: Order #5501 confirmed",
    "Date: Tue, 03 Mar 2026 10:00:00 +0000",
    `Message-ID: <${crypto.randomUUID()}@shop.example>`,
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=utf-8",
    "",
    html,
  ].join("\r\n");
}

Deno.test("links: an email table's javascript: image is not stored; the order is, and an https image is kept", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const imported = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: tableMail("javascript:alert(document.cookie)") },
  });
  equal(imported.status, 202);
  const order = (await call<Body>(ctx, "GET", `/api/orders/${imported.body.orderId}`, { token }))
    .body.order;
  eq([order.itemSummary, order.quantity, order.imageUrl], ["Espresso cups", 2, undefined]);
  const exported = await call<Body>(ctx, "GET", "/api/account/export", { token });
  // The export's orders carry no such link (the raw message is exported as received).
  equal(JSON.stringify(exported.body.orders).includes("javascript:"), false);
  equal(exported.body.orders[0].id, order.id);

  // The same reading with a real image: kept (it fills the empty field by merge).
  const good = await call<Body>(ctx, "POST", "/api/email/import", {
    token,
    body: { raw: tableMail("https://cdn.shop.example/cups.jpg") },
  });
  eq([good.body.orderId, good.body.merged], [order.id, true]);
  const merged = (await call<Body>(ctx, "GET", `/api/orders/${order.id}`, { token })).body.order;
  equal(merged.imageUrl, "https://cdn.shop.example/cups.jpg");
});

Deno.test("links: the ingest seam drops every non-web link, on create, merge by number and merge by id", async () => {
  await using ctx = await testApp();
  const { user } = await signUp(ctx);
  const options = {
    now: NOW,
    billing: { billingEnabled: false, freePlanMonthlyOrders: 100 },
    events: new EventBus(QUEUE),
  };
  for (const [i, bad] of HOSTILE.entries()) {
    const created = await ingestOrder(ctx.kv, {
      userId: user.id,
      source: "email",
      fields: { itemSummary: `Item ${i}`, orderNumber: `L-${i}`, imageUrl: bad, trackingUrl: bad },
    }, options);
    if (!created.ok) throw new Error("not stored");
    eq([created.order.imageUrl, created.order.trackingUrl], [undefined, undefined], bad);
    const byNumber = await ingestOrder(ctx.kv, {
      userId: user.id,
      source: "chat",
      fields: { itemSummary: `Item ${i}`, orderNumber: `L-${i}`, imageUrl: bad, trackingUrl: bad },
    }, options);
    if (!byNumber.ok) throw new Error("not stored");
    eq([byNumber.merged, byNumber.order.imageUrl, byNumber.order.trackingUrl], [
      true,
      undefined,
      undefined,
    ]);
    const byId = await mergeIntoOrder(ctx.kv, {
      userId: user.id,
      orderId: created.order.id,
      source: "email",
      fields: { trackingUrl: bad, imageUrl: bad },
    }, options);
    if (!byId.ok) throw new Error("not merged");
    eq([byId.order.imageUrl, byId.order.trackingUrl], [undefined, undefined]);
  }
  // A good link beside a bad one: the good one is kept.
  const mixed = await ingestOrder(ctx.kv, {
    userId: user.id,
    source: "email",
    fields: {
      itemSummary: "Mixed",
      imageUrl: "data:image/png;base64,AAAA",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    },
  }, options);
  if (!mixed.ok) throw new Error("not stored");
  eq([mixed.order.imageUrl, mixed.order.trackingUrl], [
    undefined,
    "https://www.ups.com/track?tracknum=1Z999AA10123456784",
  ]);
});

Deno.test("links: the domain rules (create, merge, re-read) and the API share one rule", async () => {
  for (const bad of HOSTILE) equal(isWebUrl(bad), false, bad);
  for (const good of ["https://shop.example/p.jpg", "HTTP://shop.example/a?b=c#d"]) {
    equal(isWebUrl(good), true, good);
  }
  const order = newOrder(
    "ord_1",
    {
      itemSummary: "Mug",
      imageUrl: "javascript:alert(1)",
    },
    {},
    "email",
    NOW,
  );
  equal(order.imageUrl, undefined);
  const merged = mergeMessage(order, { imageUrl: "data:,x", trackingUrl: "javascript:x" }, {}, NOW);
  eq([merged.changed, merged.order.imageUrl, merged.order.trackingUrl], [
    false,
    undefined,
    undefined,
  ]);
  const reread = reviseFromMessage(
    { ...order, imageUrl: "https://shop.example/old.png" },
    { imageUrl: "javascript:alert(1)" },
    NOW,
  );
  eq([reread.changed, reread.order.imageUrl], [false, "https://shop.example/old.png"]);

  // The API refuses what intake drops, with the same rule.
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  for (const bad of HOSTILE) {
    const res = await call<Body>(ctx, "POST", "/api/orders", {
      token,
      body: { itemSummary: "x", imageUrl: bad },
    });
    eq([res.status, res.body], [400, {
      error: "imageUrl: must be an http(s) URL of at most 2000 characters",
    }], bad);
  }
});
