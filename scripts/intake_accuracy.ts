/**
 * Email intake accuracy: reads every `.eml` under the given fixture folders (default
 * tests/fixtures/email) with `readEmail`, compares it with the `.json` expectation beside it,
 * and prints a Markdown table of fields right per field and overall, orders read from non-order
 * mails, and missed orders. `--verbose` lists every wrong field. A folder holding an
 * `expected.json` (the labeled format) is replayed through the service instead
 * (`labeled_accuracy.ts`).
 *
 *   deno task accuracy [--verbose] [dir...]
 */
import { join } from "node:path";
import { readEmail } from "../src/intake/email/read.ts";
import { type Labeled, replay, report } from "./labeled_accuracy.ts";
import { type LabeledMail, learningAccuracy, learningReport } from "./learning_accuracy.ts";
import {
  type Expectation,
  type Score,
  SCORED_FIELDS,
  scoreReading,
} from "../src/intake/email/score.ts";

async function* emlFiles(dir: string): AsyncGenerator<string> {
  const entries = [];
  for await (const e of Deno.readDir(dir)) entries.push(e);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) yield* emlFiles(path);
    else if (e.name.endsWith(".eml")) yield path;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

const args = Deno.args.filter((a) => !a.startsWith("--"));
const verbose = Deno.args.includes("--verbose");
const dirs = args.length > 0 ? args : ["tests/fixtures/email"];
const now = Date.parse("2026-11-01T00:00:00Z");

for (const dir of dirs) {
  if (await exists(join(dir, "expected.json"))) {
    console.log(`\n${report(dir, await replay(dir), verbose)}`);
    const labeled: Labeled[] = JSON.parse(await Deno.readTextFile(join(dir, "expected.json")));
    const mails: LabeledMail[] = [];
    for (const e of labeled.filter((e) => e.kind === "email" && e.expect === "order")) {
      mails.push({ file: e.file, raw: await Deno.readFile(join(dir, e.file)), fields: e.fields });
    }
    console.log(learningReport(await learningAccuracy(mails), verbose));
    continue;
  }
  const scores: { file: string; score: Score }[] = [];
  const mails: LabeledMail[] = [];
  for await (const file of emlFiles(dir)) {
    const json = JSON.parse(await Deno.readTextFile(file.replace(/\.eml$/, ".json")));
    const raw = await Deno.readFile(file);
    if (json.expect) mails.push({ file, raw, fields: json.expect.fields });
    const result = await readEmail(raw, { now });
    scores.push({ file, score: scoreReading(result, json.expect as Expectation | null) });
  }
  const perField = new Map<string, { right: number; total: number }>();
  let right = 0;
  let total = 0;
  for (const { score } of scores) {
    for (const f of score.fields) {
      const entry = perField.get(f.field) ?? { right: 0, total: 0 };
      entry.total++;
      total++;
      if (f.ok) {
        entry.right++;
        right++;
      }
      perField.set(f.field, entry);
    }
  }
  const pct = (a: number, b: number) => b === 0 ? "-" : `${(100 * a / b).toFixed(1)}%`;
  const orders = scores.filter((s) => s.score.fields.length > 0).length;
  const nonOrders = scores.length - orders;
  console.log(`\n### ${dir}\n`);
  console.log(`${scores.length} messages: ${orders} order mails, ${nonOrders} non-order mails.\n`);
  console.log("| Field | Right | Expected | Accuracy |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const field of SCORED_FIELDS) {
    const e = perField.get(field);
    if (e) console.log(`| ${field} | ${e.right} | ${e.total} | ${pct(e.right, e.total)} |`);
  }
  console.log(`| **all fields** | **${right}** | **${total}** | **${pct(right, total)}** |`);
  const falseOrders = scores.filter((s) => s.score.falseOrder);
  const missed = scores.filter((s) => s.score.missed);
  const extras = scores.reduce((n, s) => n + s.score.extra.length, 0);
  console.log(`\n- Orders read from non-order mails: **${falseOrders.length}** of ${nonOrders}`);
  console.log(`- Order mails not read as orders (missed): **${missed.length}** of ${orders}`);
  console.log(`- Fields set that the expectation does not state (not scored): ${extras}`);
  console.log(learningReport(await learningAccuracy(mails), verbose));
  if (verbose) {
    for (const { file, score } of scores) {
      const wrong = score.fields.filter((f) => !f.ok);
      if (score.falseOrder) console.log(`\n${file}: FALSE ORDER`);
      if (wrong.length === 0 && score.extra.length === 0) continue;
      console.log(`\n${file}${score.missed ? " (missed)" : ""}`);
      for (const f of wrong) {
        console.log(
          `  ${f.field}: expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.actual)}`,
        );
      }
      if (score.extra.length) console.log(`  extra: ${score.extra.join(", ")}`);
    }
  }
}
