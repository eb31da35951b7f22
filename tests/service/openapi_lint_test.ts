/**
 * The served document as integrators use it: Redocly's recommended lint (redocly.yaml) and a
 * second validator of the OpenAPI 3.1 schema.
 */
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { call, testApp } from "../helpers.ts";

/** Pinned: a new release may add rules; upgrading is a change of its own. */
const REDOCLY_CLI = "@redocly/cli@2.77.0";
const ROOT = new URL("../../", import.meta.url);

async function servedDocument(): Promise<Record<string, unknown>> {
  // A deployment's BASE_URL: the default (localhost) draws `no-server-example.com`.
  await using ctx = await testApp({ BASE_URL: "https://orders.example.org" });
  const res = await call(ctx, "GET", "/api/openapi.json");
  assert.equal(res.status, 200);
  return res.body;
}

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: {
    ruleId: string;
    severity: string;
    message: string;
    location: { pointer: string }[];
  }[];
}

Deno.test("Redocly's recommended lint passes on the served document, warnings included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "openapi-lint-" });
  try {
    for (const file of ["redocly.yaml", ".redocly.lint-ignore.yaml"]) {
      await Deno.copyFile(new URL(file, ROOT), `${dir}/${file}`);
    }
    await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(await servedDocument()));
    const { stdout, stderr } = await new Deno.Command("npx", {
      args: ["-y", REDOCLY_CLI, "lint", "openapi.json", "--format=json", "--lint-config=error"],
      cwd: dir,
      env: { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout);
    assert.ok(text.trim().startsWith("{"), new TextDecoder().decode(stderr));
    const report: LintReport = JSON.parse(text);
    const problems = report.problems.map((p) =>
      `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 7 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a second validator agrees: the document matches the OpenAPI 3.1 schema", async () => {
  const validator = new Validator();
  const result = await validator.validate(await servedDocument());
  assert.deepEqual(result, { valid: true });
  assert.equal(validator.version, "3.1");
});
