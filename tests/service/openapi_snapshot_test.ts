/**
 * GET /api/openapi.json, byte for byte, against the committed copy: moving and renaming modules
 * must not change the served document. After a deliberate API change, write the copy anew with
 * `OPENAPI_SNAPSHOT=write deno test --allow-all tests/service/openapi_snapshot_test.ts`.
 */
import assert from "node:assert/strict";
import { testApp } from "../helpers.ts";

const SNAPSHOT = new URL("./openapi.snapshot.json", import.meta.url);

Deno.test("GET /api/openapi.json is byte-identical to the committed snapshot", async () => {
  await using ctx = await testApp();
  const res = await ctx.app.request("/api/openapi.json");
  assert.equal(res.status, 200);
  const served = await res.text();
  if (Deno.env.get("OPENAPI_SNAPSHOT") === "write") await Deno.writeTextFile(SNAPSHOT, served);
  const stored = await Deno.readTextFile(SNAPSHOT);
  assert.equal(served.length, stored.length, "document length");
  assert.ok(
    served === stored,
    "the served document differs from tests/service/openapi.snapshot.json",
  );
});
