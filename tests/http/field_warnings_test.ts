import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { nearNames } from "../../src/lib/near_names.ts";
import { call, signUp, testApp } from "../helpers.ts";

const ORDER_FIELDS = ["itemSummary", "orderNumber", "trackingNumber", "costCents", "carrier"];
const nearName = (name: string, known: string[]) =>
  nearNames(name, known).join(" or ") || undefined;

Deno.test("nearName: prefixes, spellings and typos of a known field; unrelated names are not", () => {
  eq(nearName("cost", ORDER_FIELDS), "costCents");
  eq(nearName("tracking", ORDER_FIELDS), "trackingNumber");
  eq(nearName("tracking_number", ORDER_FIELDS), "trackingNumber");
  eq(nearName("ItemSumary", ORDER_FIELDS), "itemSummary");
  eq(nearName("carier", ORDER_FIELDS), "carrier");
  eq(nearName("colour", ORDER_FIELDS), undefined);
  eq(nearName("id", ORDER_FIELDS), undefined, "too short to guess");
  eq(nearName("x".repeat(10_000), ORDER_FIELDS), undefined);
});

Deno.test("a near-miss field is named in warnings; other unknown fields stay silent", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const created = await call(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Desk lamp", cost: 1999, tracking: "1Z999AA10123456784", note: "x" },
  });
  equal(created.status, 201);
  eq(created.body.warnings, [
    '"cost" is not a field of this request and was ignored; did you mean "costCents"?',
    '"tracking" is not a field of this request and was ignored; did you mean "trackingNumber" or "trackingUrl"?',
  ]);
  const order = created.body.order as Record<string, unknown>;
  equal(order.costCents, undefined, "still ignored");
  const clean = await call(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Chair", colour: "red" },
  });
  equal(clean.status, 201);
  ok(!("warnings" in clean.body));
  // PATCH too, and an error answer carries no warnings.
  const patched = await call(ctx, "PATCH", `/api/orders/${order.id}`, {
    token,
    body: { costcents: 500, store: "IKEA" },
  });
  equal(patched.status, 200);
  eq(patched.body.warnings, [
    '"costcents" is not a field of this request and was ignored; did you mean "costCents"?',
  ]);
  const refused = await call(ctx, "POST", "/api/orders", { token, body: { cost: 1 } });
  eq([refused.status, refused.body], [400, { error: "itemSummary is required" }]);
});

Deno.test("the OpenAPI document declares warnings on the success answers of body operations", async () => {
  await using ctx = await testApp();
  const doc = (await call(ctx, "GET", "/api/openapi.json")).body as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  };
  const created = doc.paths["/api/orders"].post.responses["201"] as {
    content: { "application/json": { schema: { allOf: unknown[] } } };
  };
  eq(created.content["application/json"].schema.allOf[1], {
    $ref: "#/components/schemas/FieldWarnings",
  });
  const list = doc.paths["/api/orders"].get.responses["200"] as {
    content: { "application/json": { schema: Record<string, unknown> } };
  };
  ok(!("allOf" in list.content["application/json"].schema));
});

Deno.test("a deliberate 503 is logged at info with its reason, not as an unhandled error", async () => {
  await using ctx = await testApp();
  const res = await call(ctx, "POST", "/api/inbound/mail", {
    body: { to: "a@inbound.localhost", raw: "x" },
  });
  equal(res.status, 503);
  const lines = ctx.logs.map((l) => JSON.parse(l));
  ok(!lines.some((l) => l.msg === "unhandled error" || l.level === "error"), ctx.logs.join("\n"));
  const answered = lines.find((l) => l.msg === "answered with an error");
  equal(answered?.level, "info");
  equal(answered?.reason, res.body.error);
});
