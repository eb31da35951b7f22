import { deepStrictEqual as eq } from "node:assert/strict";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- the OpenAPI document
type Doc = Record<string, any>;

Deno.test("every orders route is in the OpenAPI document with its parameters and errors", async () => {
  await using ctx = await testApp();
  const doc = (await call<Doc>(ctx, "GET", "/api/openapi.json")).body;
  const op = (path: string, method: string) => doc.paths[path][method];
  const codes = (path: string, method: string) => Object.keys(op(path, method).responses).sort();
  const params = (path: string, method: string) =>
    (op(path, method).parameters ?? []).map((p: Doc) => `${p.in}:${p.name}`);
  eq(codes("/api/orders", "post"), ["200", "201", "400", "401", "413", "429", "500"]);
  eq(codes("/api/orders", "get"), ["200", "400", "401", "500"]);
  eq(params("/api/orders", "get"), [
    "query:limit",
    "query:offset",
    "query:status",
    "query:q",
    "query:from",
    "query:to",
  ]);
  eq(codes("/api/orders/{id}", "get"), ["200", "401", "404", "500"]);
  eq(codes("/api/orders/{id}", "patch"), ["200", "400", "401", "404", "409", "413", "500"]);
  eq(codes("/api/orders/{id}", "delete"), ["200", "401", "404", "413", "500"]);
  eq(params("/api/orders/{id}", "patch"), ["path:id"]);
  eq(codes("/api/billing/usage", "get"), ["200", "401", "500"]);
  for (const [path, method] of [["/api/orders", "post"], ["/api/billing/usage", "get"]]) {
    eq(op(path, method).security, [{ Bearer: [] }]);
  }
  const limit = op("/api/orders", "post").responses["429"].content["application/json"].schema;
  eq(limit, { $ref: "#/components/schemas/PlanLimitError" });
  eq(doc.components.schemas.PlanLimitError.required, ["error", "reason", "cap", "used"]);
  eq(doc.components.schemas.CreateOrder.required, ["itemSummary"]);
  eq(doc.components.schemas.Usage.properties.cap.type, ["integer", "null"]);
});

Deno.test("DELETE /api/orders/:id reads its body like every DELETE: over 2 MiB is 413", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const res = await call(ctx, "DELETE", "/api/orders/ord_missing", {
    token,
    rawBody: "x".repeat(2 * 1024 * 1024 + 1),
  });
  eq([res.status, res.body], [413, { error: "Request body too large (limit 2 MiB)." }]);
});
