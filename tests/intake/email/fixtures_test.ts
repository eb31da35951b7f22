/**
 * Every message of tests/fixtures/email against its `.json` expectation (README there): exact
 * fields after the README's normalisation, status, real sender; `expect: null` is never an order.
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { readEmail } from "../../../src/intake/email/read.ts";
import { type Expectation, scoreReading } from "../../../src/intake/email/score.ts";
import { NOW } from "./mail.ts";

const ROOT = new URL("../../fixtures/email/", import.meta.url).pathname;

function fixtures(): string[] {
  const out: string[] = [];
  for (
    const dir of [...Deno.readDirSync(ROOT)].filter((e) => e.isDirectory).map((e) => e.name).sort()
  ) {
    for (const f of [...Deno.readDirSync(join(ROOT, dir))].map((e) => e.name).sort()) {
      if (f.endsWith(".eml")) out.push(join(dir, f));
    }
  }
  return out;
}

const files = fixtures();

Deno.test("the fixture set is the one the README describes (296 messages)", () => {
  equal(files.length, 296);
});

for (const file of files) {
  Deno.test(`fixture ${file}`, async () => {
    const raw = await Deno.readFile(join(ROOT, file));
    const { expect } = JSON.parse(
      await Deno.readTextFile(join(ROOT, file.replace(/\.eml$/, ".json"))),
    ) as {
      expect: Expectation | null;
    };
    const result = await readEmail(raw, { now: NOW });
    ok(result.identity.length > 0);
    if (expect === null) {
      ok(
        result.reading.kind === "ignored" || result.reading.kind === "unreadable",
        `${file} read as an order`,
      );
      return;
    }
    equal(result.reading.kind, "order", `${file}: ${JSON.stringify(result.reading)}`);
    const score = scoreReading(result, expect);
    const wrong = score.fields.filter((f) => !f.ok)
      .map((f) =>
        `${f.field}: expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.actual)}`
      );
    equal(wrong.join("\n"), "");
    equal(result.facts.from, expect.realSender.toLowerCase());
  });
}
