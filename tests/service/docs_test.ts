import assert from "node:assert/strict";
import { VERSION } from "../../src/version.ts";
import { call, testApp } from "../helpers.ts";

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { securitySchemes: Record<string, unknown> };
}

Deno.test("GET /api/openapi.json is an OpenAPI 3.1.0 document listing /api/healthz", async () => {
  await using ctx = await testApp();
  const res = await call<OpenApiDocument>(ctx, "GET", "/api/openapi.json");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(res.body.openapi, "3.1.0");
  assert.equal(res.body.info.version, VERSION);
  const health = res.body.paths["/api/healthz"]?.get;
  assert.ok(health, "GET /api/healthz is documented");
  assert.deepEqual(Object.keys(health.responses).sort(), ["200", "500", "503"]);
  assert.ok(res.body.components.securitySchemes.Bearer, "the Bearer scheme is declared");
  for (const path of ["/api/openapi.json", "/api", "/api/reference/{file}"]) {
    assert.ok(res.body.paths[path]?.get, `GET ${path} is documented`);
  }
  assert.deepEqual(Object.keys(res.body.paths["/api/reference/{file}"].get.responses), [
    "200",
    "404",
    "500",
  ]);
  // The body limit holds for every body-carrying operation, so each one documents the 413.
  for (const [path, operations] of Object.entries(res.body.paths)) {
    for (const method of ["post", "patch", "delete"]) {
      const op = operations[method];
      if (op) assert.ok(op.responses["413"], `${method.toUpperCase()} ${path} documents 413`);
    }
  }
  const missing = await call(ctx, "GET", "/api/reference/nope.js");
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { error: "Not found" });
});

Deno.test("GET /api serves the reference page with its assets from this service", async () => {
  await using ctx = await testApp();
  const page = await ctx.app.request("/api");
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
  assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
  const html = await page.text();
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(assets.length >= 3);
  for (const asset of assets.filter((a) => !a.startsWith("data:"))) {
    assert.match(asset, /^\/api\/reference\//, `${asset} is served locally`);
    const res = await ctx.app.request(asset);
    assert.equal(res.status, 200, asset);
    assert.match(res.headers.get("content-type") ?? "", /^text\/(css|javascript)/);
    // The Swagger UI files are imported at the first request for one: their text, not a stub.
    const text = await res.text();
    if (asset.endsWith("swagger-ui-bundle.js")) assert.match(text, /SwaggerUIBundle/);
    if (asset.endsWith("swagger-ui.css")) assert.match(text, /\.swagger-ui/);
  }
  const missing = await call(ctx, "GET", "/api/reference/nope.js");
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, { error: "Not found" });
});
