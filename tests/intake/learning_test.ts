import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import {
  ABOVE_SENDER,
  aboveMail,
  FIRST_ABOVE,
  FIRST_PLAIN,
  FIRST_TABLE,
  NEXT_ABOVE,
  NEXT_PLAIN,
  NEXT_TABLE,
  PLAIN_SENDER,
  plainMail,
  TABLE_SENDER,
  tableMail,
} from "./learning_mails.ts";
import { message } from "./helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

async function imported(ctx: TestContext, token: string, raw: string): Promise<string> {
  const res = await call<Body>(ctx, "POST", "/api/email/import", { token, body: { raw } });
  equal(res.status, 202, JSON.stringify(res.body));
  return res.body.orderId;
}

/** PATCHes the order, then waits for the learning the PATCH started. */
async function correct(ctx: TestContext, token: string, orderId: string, patch: Body) {
  const res = await call<Body>(ctx, "PATCH", `/api/orders/${orderId}`, { token, body: patch });
  equal(res.status, 200, JSON.stringify(res.body));
  await ctx.deps.background.drain();
  return res.body;
}

async function preview(ctx: TestContext, token: string, raw: string): Promise<Body> {
  const res = await call<Body>(ctx, "POST", "/api/email/preview", { token, body: { raw } });
  equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function learned(ctx: TestContext, token: string): Promise<Body[]> {
  const res = await call<Body>(ctx, "GET", "/api/templates/custom", { token });
  return res.body.items.filter((t: Body) => t.learned);
}

function kinds(evidence: Body, fields: string[]): string[] {
  return fields.map((f) => evidence[f]?.kind);
}

Deno.test("learning: a correction of each field kind reads the next mail of the layout right", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);

  // Labels on the value's line (plain text).
  const plainFields = ["orderNumber", "total", "price", "size", "trackingNumber"];
  const before = await preview(ctx, token, plainMail(NEXT_PLAIN));
  ok(
    plainFields.some((f) => before.fields[f] === undefined || before.evidence[f].kind !== "label"),
  );
  const lamp = await imported(ctx, token, plainMail(FIRST_PLAIN));
  const patched = await correct(ctx, token, lamp, {
    orderNumber: FIRST_PLAIN.shopOrder,
    total: FIRST_PLAIN.total,
    price: FIRST_PLAIN.each,
    size: FIRST_PLAIN.variant,
    trackingNumber: FIRST_PLAIN.courier,
  });
  equal(patched.order.orderNumber, FIRST_PLAIN.shopOrder);
  const [template] = await learned(ctx, token);
  eq(template.match, { from: PLAIN_SENDER });
  eq(Object.keys(template.fields).sort(), [...plainFields].sort());
  equal(template.learned.orderId, lamp);
  ok(plainFields.includes(template.learned.field));
  const next = await preview(ctx, token, plainMail(NEXT_PLAIN));
  eq(
    [next.fields.orderNumber, next.fields.total, next.fields.price, next.fields.size],
    [NEXT_PLAIN.shopOrder, NEXT_PLAIN.total, NEXT_PLAIN.each, NEXT_PLAIN.variant],
  );
  equal(next.fields.trackingNumber, NEXT_PLAIN.courier);
  equal(next.template, template.id);
  eq(kinds(next.evidence, plainFields), plainFields.map(() => "learned"));
  // Fields it did not learn are read as before.
  eq([next.fields.itemSummary, next.evidence.itemSummary], [
    before.fields.itemSummary,
    before.evidence.itemSummary,
  ]);

  // Each label on the line above its value (plain text), a date written in words.
  const aboveFields = ["itemSummary", "store", "estimatedDelivery", "trackingNumber"];
  const kettle = await imported(ctx, token, aboveMail(FIRST_ABOVE));
  await correct(ctx, token, kettle, {
    itemSummary: FIRST_ABOVE.item,
    store: FIRST_ABOVE.seller,
    estimatedDelivery: "2026-03-12",
    trackingNumber: FIRST_ABOVE.shipment,
  });
  const kettleNext = await preview(ctx, token, aboveMail(NEXT_ABOVE));
  eq(
    aboveFields.map((f) => kettleNext.fields[f]),
    [NEXT_ABOVE.item, NEXT_ABOVE.seller, "2026-03-16", NEXT_ABOVE.shipment],
  );
  eq(kinds(kettleNext.evidence, aboveFields), aboveFields.map(() => "learned"));

  // Values under a column header and beside a row label (HTML tables).
  const tile = await imported(ctx, token, tableMail(FIRST_TABLE));
  await correct(ctx, token, tile, {
    quantity: 12,
    size: FIRST_TABLE.finish,
    trackingNumber: FIRST_TABLE.parcel,
  });
  const tileNext = await preview(ctx, token, tableMail(NEXT_TABLE));
  eq(
    [tileNext.fields.quantity, tileNext.fields.size, tileNext.fields.trackingNumber],
    [30, NEXT_TABLE.finish, NEXT_TABLE.parcel],
  );
  eq(kinds(tileNext.evidence, ["quantity", "size", "trackingNumber"]), [
    "learned",
    "learned",
    "learned",
  ]);
  eq((await learned(ctx, token)).map((t) => t.match.from), [
    TABLE_SENDER,
    ABOVE_SENDER,
    PLAIN_SENDER,
  ]);
});

/** A shipping notice of the lamp shop: another layout from the same sender. */
function lampShipped(): string {
  return message({
    from: `Lamp Co <${PLAIN_SENDER}>`,
    subject: "Your Lamp Co parcel is on its way",
    body: [
      "Good news, Sam!",
      "Your parcel left our warehouse.",
      "Order number: LMP-20931",
      "Carrier: UPS",
      "Tracking number: 1Z999AA10123456784",
      "Size of parcel: 40 x 30 x 20 cm",
      "Estimated arrival: Monday, 9 March",
    ].join("\n"),
  });
}

Deno.test("learning: another layout of the sender, another workspace, deleting it undoes it", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const other = await signUp(ctx);
  const shippedBefore = await preview(ctx, token, lampShipped());
  const nextBefore = await preview(ctx, token, plainMail(NEXT_PLAIN));
  const lamp = await imported(ctx, token, plainMail(FIRST_PLAIN));
  await correct(ctx, token, lamp, { size: FIRST_PLAIN.variant, total: FIRST_PLAIN.total });
  const [template] = await learned(ctx, token);
  eq(Object.keys(template.fields).sort(), ["size", "total"]);

  // Another layout of the same sender: the learned fields find nothing and fall back.
  const shipped = await preview(ctx, token, lampShipped());
  eq(shipped.fields, shippedBefore.fields);
  ok(Object.values(shipped.evidence).every((e) => (e as Body).kind !== "learned"));

  // Another workspace learned nothing.
  eq(await learned(ctx, other.token), []);
  const elsewhere = await preview(ctx, other.token, plainMail(NEXT_PLAIN));
  eq([elsewhere.fields, elsewhere.template], [nextBefore.fields, nextBefore.template]);

  // Deleting the learned template restores the default reading.
  equal((await preview(ctx, token, plainMail(NEXT_PLAIN))).fields.size, NEXT_PLAIN.variant);
  const removed = await call<Body>(ctx, "DELETE", `/api/templates/custom/${template.id}`, {
    token,
  });
  eq([removed.status, removed.body], [200, { ok: true }]);
  const after = await preview(ctx, token, plainMail(NEXT_PLAIN));
  eq([after.fields, after.evidence, after.template], [
    nextBefore.fields,
    nextBefore.evidence,
    nextBefore.template,
  ]);
});

Deno.test("learning: nothing from a value not in the message or only in quoted history", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const lamp = await imported(
    ctx,
    token,
    plainMail({ ...FIRST_PLAIN, quoted: "Can I have it in Medium?\nVariant: Medium" }),
  );
  const absent = await correct(ctx, token, lamp, { itemSummary: "Oak bedside lamp" });
  equal(absent.order.itemSummary, "Oak bedside lamp");
  await correct(ctx, token, lamp, { size: "Medium" });
  eq(await learned(ctx, token), []);
  // A manual order has no message to learn from.
  const manual = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Walnut desk lamp", orderNumber: "M-1" },
  });
  await correct(ctx, token, manual.body.order.id, { size: "Large" });
  eq(await learned(ctx, token), []);
  // The same value read from the real text is learned.
  await correct(ctx, token, lamp, { size: FIRST_PLAIN.variant });
  eq((await learned(ctx, token)).map((t) => Object.keys(t.fields)), [["size"]]);
});

Deno.test("learning: reparse reads stored messages with learned templates, edited fields stay", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const later = await imported(ctx, token, plainMail(NEXT_PLAIN));
  await correct(ctx, token, later, { total: "EUR 1,00" });
  const first = await imported(ctx, token, plainMail(FIRST_PLAIN));
  await correct(ctx, token, first, { size: FIRST_PLAIN.variant, total: FIRST_PLAIN.total });
  const res = await call<Body>(ctx, "POST", "/api/orders/reparse", {
    token,
    body: { orderIds: [later] },
  });
  eq([res.status, res.body], [200, { ok: true, reparsed: 1, changed: 1 }]);
  const order = (await call<Body>(ctx, "GET", `/api/orders/${later}`, { token })).body.order;
  eq([order.size, order.total], [NEXT_PLAIN.variant, "EUR 1,00"]);
});

Deno.test("learning: 200 corrections from 200 senders keep the newest 100 learned templates", async () => {
  let clock = Date.parse("2026-03-03T12:00:00Z");
  await using ctx = await testApp({}, { now: () => clock });
  const { token } = await signUp(ctx);
  const handWritten = await call<Body>(ctx, "POST", "/api/templates/custom", {
    token,
    body: { name: "Mine", match: { from: "@mine.example" }, fields: { total: "Sum (\\S+)" } },
  });
  equal(handWritten.status, 201);
  for (let i = 0; i < 200; i++) {
    clock += 1000;
    const raw = plainMail(NEXT_PLAIN).replace(PLAIN_SENDER, `orders${i}@lamps.example`)
      .replace(NEXT_PLAIN.order, `LMP-${10000 + i}`).replace(NEXT_PLAIN.order, `LMP-${10000 + i}`);
    const id = await imported(ctx, token, raw);
    await correct(ctx, token, id, { size: NEXT_PLAIN.variant });
  }
  const all = (await call<Body>(ctx, "GET", "/api/templates/custom", { token })).body.items;
  const kept = all.filter((t: Body) => t.learned);
  equal(kept.length, 100);
  eq(
    new Set(kept.map((t: Body) => t.match.from)),
    new Set(Array.from({ length: 100 }, (_, i) => `orders${i + 100}@lamps.example`)),
  );
  ok(all.some((t: Body) => t.id === handWritten.body.template.id));
});

Deno.test("learning: a forwarded mail teaches for its real sender", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const original = plainMail(FIRST_PLAIN);
  const body = original.slice(original.indexOf("\r\n\r\n") + 4);
  const forwarded = message({
    from: "Sam <sam@example.com>",
    subject: `Fwd: Order ${FIRST_PLAIN.order} confirmed`,
    body: [
      "FYI",
      "",
      "---------- Forwarded message ---------",
      `From: Lamp Co <${PLAIN_SENDER}>`,
      "Date: Tue, 3 Mar 2026 at 10:00",
      `Subject: Order ${FIRST_PLAIN.order} confirmed`,
      "To: <sam@example.com>",
      "",
      body,
    ].join("\n"),
  });
  const id = await imported(ctx, token, forwarded);
  await correct(ctx, token, id, { size: FIRST_PLAIN.variant });
  eq((await learned(ctx, token)).map((t) => t.match), [{ from: PLAIN_SENDER }]);
  const next = await preview(ctx, token, plainMail(NEXT_PLAIN));
  eq([next.fields.size, next.evidence.size.kind], [NEXT_PLAIN.variant, "learned"]);
});

Deno.test("learning: corrections of one sender's orders share its one learned template", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const first = await imported(ctx, token, plainMail(FIRST_PLAIN));
  await correct(ctx, token, first, { size: FIRST_PLAIN.variant });
  const second = await imported(ctx, token, plainMail(NEXT_PLAIN));
  // The size is read from the second mail already: only the price is new.
  const read = (await call<Body>(ctx, "GET", `/api/orders/${second}`, { token })).body.order;
  equal(read.size, NEXT_PLAIN.variant);
  await correct(ctx, token, second, { price: NEXT_PLAIN.each, size: NEXT_PLAIN.variant });
  const templates = await learned(ctx, token);
  equal(templates.length, 1);
  eq(Object.keys(templates[0].fields).sort(), ["price", "size"]);
  eq([templates[0].learned.orderId, templates[0].learned.field], [second, "price"]);
  ok(templates[0].updatedAt);
});

Deno.test("learning: a learned template reads over an older hand-written one, not instead of it", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const mine = await call<Body>(ctx, "POST", "/api/templates/custom", {
    token,
    body: {
      name: "Lamp Co",
      match: { from: "@lamps.example" },
      fields: { itemSummary: "Your pick\\n(.+)", total: "Amount due: (.+)" },
      status: "ordered",
    },
  });
  equal(mine.status, 201);
  const lamp = await imported(ctx, token, plainMail(FIRST_PLAIN));
  await correct(ctx, token, lamp, { size: FIRST_PLAIN.variant });
  const [template] = await learned(ctx, token);
  const next = await preview(ctx, token, plainMail(NEXT_PLAIN));
  eq([next.fields.itemSummary, next.fields.total, next.fields.size], [
    NEXT_PLAIN.item,
    NEXT_PLAIN.total,
    NEXT_PLAIN.variant,
  ]);
  equal(next.template, mine.body.template.id);
  eq([next.evidence.itemSummary, next.evidence.size], [
    { kind: "template", anchor: mine.body.template.id },
    { kind: "learned", anchor: template.id },
  ]);
});
