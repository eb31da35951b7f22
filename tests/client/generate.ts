/**
 * src/web/generated/openapi.d.ts: the TypeScript types openapi-typescript generates from
 * GET /api/openapi.json, for openapi-fetch clients (the tests here and the dashboard, src/web/app/).
 * `deno task openapi-types` writes it; tests/client/types_test.ts fails while it is stale.
 *
 * The generator runs as integrators run it, `npx`, pinned: imported into this program, its
 * types (TypeScript's own) would change the global types every test is checked against.
 */
import { call, testApp } from "../helpers.ts";

const OPENAPI_TYPESCRIPT = "openapi-typescript@7.13.0";

export const TYPES_FILE = new URL("../../src/web/generated/openapi.d.ts", import.meta.url);

export async function clientTypes(): Promise<string> {
  await using ctx = await testApp();
  const res = await call(ctx, "GET", "/api/openapi.json");
  if (res.status !== 200) throw new Error(`GET /api/openapi.json: ${res.status}`);
  const dir = await Deno.makeTempDir({ prefix: "openapi-types-" });
  try {
    await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(res.body));
    const run = await new Deno.Command("npx", {
      args: ["-y", OPENAPI_TYPESCRIPT, "openapi.json", "--output", "openapi.d.ts"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!run.success) throw new Error(new TextDecoder().decode(run.stderr));
    return await Deno.readTextFile(`${dir}/openapi.d.ts`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  await Deno.writeTextFile(TYPES_FILE, await clientTypes());
  console.log(`wrote ${TYPES_FILE.pathname}`);
}
