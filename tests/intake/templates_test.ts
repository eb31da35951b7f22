import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { listEvents } from "../../src/events/emit.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { message } from "./helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

const RECEIPT = message({
  from: "Corner Shop <receipts@corner.example>",
  subject: "Receipt R-7781",
  body: "Thanks!\nRef R-7781\nYou bought: Walnut desk lamp\nPaid EUR 89,00",
});

Deno.test("templates: built-in list, custom CRUD newest first, invalid expressions named", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const all = await call<Body>(ctx, "GET", "/api/templates", { token });
  equal(all.status, 200);
  ok(all.body.builtIn.length >= 20);
  ok(all.body.builtIn.every((t: Body) => t.id && t.name && Array.isArray(t.stores)));
  eq(all.body.custom, []);

  const bad = await call<Body>(ctx, "POST", "/api/templates/custom", {
    token,
    body: { name: "x", match: { from: "@corner.example" }, fields: { orderNumber: "Ref (R-\\d+" } },
  });
  eq([bad.status, bad.body], [400, { error: "fields.orderNumber: invalid regular expression" }]);
  const noMatch = await call<Body>(ctx, "POST", "/api/templates/custom", {
    token,
    body: { name: "x", match: {}, fields: {} },
  });
  equal(noMatch.status, 400);
  match(noMatch.body.error, /^match/);
  const backref = await call<Body>(ctx, "POST", "/api/templates/custom", {
    token,
    body: { name: "x", match: { subject: "(a)\\1" }, fields: {} },
  });
  eq([backref.status, backref.body], [400, { error: "match.subject: invalid regular expression" }]);

  const first = await call<Body>(ctx, "POST", "/api/templates/custom", {
    token,
    body: {
      name: "Corner",
      match: { from: "@corner.example" },
      fields: { orderNumber: "Ref (R-\\d+)" },
    },
  });
  equal(first.status, 201);
  match(first.body.template.id, /^tmpl_/);
  const second = await call<Body>(ctx, "POST", "/api/templates/custom", {
    token,
    body: { name: "Other", match: { subject: "^Invoice" }, fields: {}, status: "shipped" },
  });
  const list = await call<Body>(ctx, "GET", "/api/templates/custom", { token });
  eq(list.body.items.map((t: Body) => t.name), ["Other", "Corner"]);
  const patched = await call<Body>(
    ctx,
    "PATCH",
    `/api/templates/custom/${second.body.template.id}`,
    {
      token,
      body: { fields: { total: "[" } },
    },
  );
  eq([patched.status, patched.body], [400, { error: "fields.total: invalid regular expression" }]);
  const renamed = await call<Body>(
    ctx,
    "PATCH",
    `/api/templates/custom/${second.body.template.id}`,
    {
      token,
      body: { name: "Invoices" },
    },
  );
  eq([renamed.status, renamed.body.template.name, renamed.body.template.status], [
    200,
    "Invoices",
    "shipped",
  ]);
  const del = await call<Body>(ctx, "DELETE", `/api/templates/custom/${second.body.template.id}`, {
    token,
  });
  eq([del.status, del.body], [200, { ok: true }]);
  const gone = await call<Body>(ctx, "DELETE", `/api/templates/custom/${second.body.template.id}`, {
    token,
  });
  eq([gone.status, gone.body], [404, { error: "Template not found" }]);
  const state = await call<Body>(ctx, "GET", "/api/state", { token });
  ok(state.body.templates.some((t: Body) => t.builtIn === true));
  ok(state.body.templates.some((t: Body) => t.name === "Corner"));
  const exported = await call<Body>(ctx, "GET", "/api/account/export", { token });
  eq(exported.body.customTemplates.map((t: Body) => t.name), ["Corner"]);
});

Deno.test("templates: a custom template reads a store no built-in knows; preview names it", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const template = (await call<Body>(ctx, "POST", "/api/templates/custom", {
    token,
    body: {
      name: "Corner",
      match: { from: "@corner.example" },
      fields: { orderNumber: "Ref (R-\\d+)", itemSummary: "You bought: (.+)", total: "Paid (.+)" },
    },
  })).body.template;
  const preview = await call<Body>(ctx, "POST", "/api/email/preview", {
    token,
    body: { raw: RECEIPT },
  });
  equal(preview.status, 200);
  equal(preview.body.template, template.id);
  eq(
    [preview.body.fields.orderNumber, preview.body.fields.itemSummary, preview.body.fields.total],
    ["R-7781", "Walnut desk lamp", "EUR 89,00"],
  );
});

Deno.test("templates: a catastrophic expression cannot stall the service", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  equal(
    (await call(ctx, "POST", "/api/templates/custom", {
      token,
      body: { name: "evil", match: { subject: "(a+)+$" }, fields: { orderNumber: "(a+)+$" } },
    })).status,
    201,
  );
  const raw = message({
    from: "x@y.example",
    subject: "a".repeat(5000) + "!",
    body: "a".repeat(150_000) + "!",
  });
  const started = performance.now();
  const res = await call(ctx, "POST", "/api/email/import", { token, body: { raw } });
  ok([202, 422].includes(res.status), String(res.status));
  // Linear-time matching: a backtracking engine would take longer than the universe has left.
  ok(performance.now() - started < 10_000);
});

Deno.test("reparse: stored messages are read again with today's templates; no events; userEdited kept", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  const raw = message({
    from: "Shop <orders@tote.example>",
    subject: "Order #4411 confirmed",
    body: "Thanks for your order!\nOrder number: 4411\nItem: Canvas tote bag\nTotal: $40.00",
  });
  const imported = await call<Body>(ctx, "POST", "/api/email/import", { token, body: { raw } });
  equal(imported.status, 202);
  const id = imported.body.orderId;
  const before = (await call<Body>(ctx, "GET", `/api/orders/${id}`, { token })).body.order;
  equal(before.orderNumber, "4411");
  await call(ctx, "PATCH", `/api/orders/${id}`, { token, body: { total: "40 USD" } });
  // Today's template reads the item and the total differently.
  await call(ctx, "POST", "/api/templates/custom", {
    token,
    body: {
      name: "Tote",
      match: { from: "@tote.example" },
      fields: { itemSummary: "Item: (.+) bag", total: "Total: (\\S+)" },
    },
  });
  const eventsBefore = (await listEvents(ctx.kv, user.id)).length;
  const res = await call<Body>(ctx, "POST", "/api/orders/reparse", { token, body: {} });
  eq([res.status, res.body], [200, { ok: true, reparsed: 1, changed: 1 }]);
  const after = (await call<Body>(ctx, "GET", `/api/orders/${id}`, { token })).body.order;
  // The item is corrected; the user's own total stays.
  eq([after.itemSummary, after.total, after.orderNumber], ["Canvas tote", "40 USD", "4411"]);
  equal((await listEvents(ctx.kv, user.id)).length, eventsBefore);
  const again = await call<Body>(ctx, "POST", "/api/orders/reparse", {
    token,
    body: { orderIds: [id, "ord_unknown"] },
  });
  eq(again.body, { ok: true, reparsed: 1, changed: 0 });
  const manual = await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "x" },
  });
  const none = await call<Body>(ctx, "POST", "/api/orders/reparse", {
    token,
    body: { orderIds: [manual.body.order.id] },
  });
  eq(none.body, { ok: true, reparsed: 0, changed: 0 });
});
