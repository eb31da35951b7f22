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
} from "./mails.ts";

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
