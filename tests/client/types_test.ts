import assert from "node:assert/strict";
import { clientTypes, TYPES_FILE } from "./generate.ts";

Deno.test("src/web/generated/openapi.d.ts is what openapi-typescript makes of the served document", async () => {
  const committed = await Deno.readTextFile(TYPES_FILE);
  assert.ok(
    committed === await clientTypes(),
    "The API changed: run `deno task openapi-types` and commit src/web/generated/openapi.d.ts",
  );
});
