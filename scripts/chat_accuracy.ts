/**
 * Chat intake accuracy over fixture folders (tests/fixtures/chat/README.md format: `<name>.json`
 * posts beside `<name>.expected.json`).
 *
 *   deno run -A scripts/chat_accuracy.ts [dir...]     (default tests/fixtures/chat)
 *
 * Prints a Markdown table per folder: for each scored field, the posts where the expectation or
 * the reading has it, how many were right, wrong (another value), missed (absent) or extra
 * (read but not expected); then orders read from posts that are not checkouts, and checkouts
 * that were not read as orders. A checkout read as no order counts all its fields as missed.
 */
import { join, relative } from "node:path";
import { readChatPost } from "../src/intake/chat/read.ts";

/** The fields the fixtures score (README: other keys are not scored). */
export const SCORED_FIELDS = [
  "itemSummary",
  "store",
  "orderNumber",
  "price",
  "total",
  "size",
  "quantity",
  "imageUrl",
  "trackingNumber",
] as const;

export interface Fixture {
  /** Path of the post, relative to the folder. */
  name: string;
  body: unknown;
  /** The expected fields, or null for a post that is not a checkout. */
  expect: Record<string, unknown> | null;
}

/** Every post under `dir` that has an expectation, sorted by path. */
export async function loadFixtures(dir: string): Promise<Fixture[]> {
  const out: Fixture[] = [];
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const full = join(path, entry.name);
      if (entry.isDirectory) await walk(full);
      else if (entry.name.endsWith(".json") && !entry.name.endsWith(".expected.json")) {
        const expected = full.replace(/\.json$/, ".expected.json");
        const spec = JSON.parse(await Deno.readTextFile(expected));
        out.push({
          name: relative(dir, full),
          body: JSON.parse(await Deno.readTextFile(full)),
          expect: spec.expect === null ? null : spec.expect.fields,
        });
      }
    }
  };
  await walk(dir);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The scored fields of a reading (absent keys left out). */
export function scoredFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    SCORED_FIELDS.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]]),
  );
}

interface Tally {
  scored: number;
  right: number;
  wrong: number;
  missed: number;
  extra: number;
}

export interface Score {
  posts: number;
  checkouts: number;
  perField: Record<string, Tally>;
  falseOrders: string[];
  missedCheckouts: string[];
  mistakes: string[];
}

export function score(fixtures: readonly Fixture[]): Score {
  const perField = Object.fromEntries(
    SCORED_FIELDS.map((k) => [k, { scored: 0, right: 0, wrong: 0, missed: 0, extra: 0 }]),
  ) as Record<string, Tally>;
  const result: Score = {
    posts: fixtures.length,
    checkouts: 0,
    perField,
    falseOrders: [],
    missedCheckouts: [],
    mistakes: [],
  };
  for (const { name, body, expect } of fixtures) {
    const { reading } = readChatPost(body);
    const got = reading.kind === "order" ? scoredFields(reading.fields) : {};
    if (expect === null) {
      if (reading.kind === "order") result.falseOrders.push(name);
      continue;
    }
    result.checkouts++;
    if (reading.kind !== "order") {
      result.missedCheckouts.push(`${name} (${reading.kind}: ${whyOf(reading)})`);
    }
    for (const field of SCORED_FIELDS) {
      const want = expect[field];
      const have = got[field];
      if (want === undefined && have === undefined) continue;
      const tally = perField[field];
      tally.scored++;
      if (want === have) tally.right++;
      else {
        if (want === undefined) tally.extra++;
        else if (have === undefined) tally.missed++;
        else tally.wrong++;
        result.mistakes.push(`${name}: ${field} expected ${show(want)}, read ${show(have)}`);
      }
    }
  }
  return result;
}

const whyOf = (r: { kind: string; why?: string }) => r.why ?? "";
const show = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v));
const pct = (n: number, d: number) => (d === 0 ? "-" : `${(100 * n / d).toFixed(1)}%`);

export function table(s: Score): string {
  const rows = [
    "| Field | Scored | Right | Wrong | Missed | Extra | Accuracy |",
    "|---|---|---|---|---|---|---|",
  ];
  let scored = 0;
  let right = 0;
  for (const field of SCORED_FIELDS) {
    const t = s.perField[field];
    scored += t.scored;
    right += t.right;
    rows.push(
      `| ${field} | ${t.scored} | ${t.right} | ${t.wrong} | ${t.missed} | ${t.extra} | ${
        pct(t.right, t.scored)
      } |`,
    );
  }
  rows.push(`| **all fields** | ${scored} | ${right} | | | | **${pct(right, scored)}** |`);
  return [
    `${s.posts} posts, ${s.checkouts} checkouts, ${s.posts - s.checkouts} to ignore.`,
    "",
    ...rows,
    "",
    `Orders read from posts that are not checkouts: ${s.falseOrders.length}`,
    ...s.falseOrders.map((n) => `- ${n}`),
    `Checkouts not read as orders: ${s.missedCheckouts.length}`,
    ...s.missedCheckouts.map((n) => `- ${n}`),
  ].join("\n");
}

if (import.meta.main) {
  const dirs = Deno.args.filter((a) => !a.startsWith("-"));
  const verbose = Deno.args.includes("--mistakes");
  for (const dir of dirs.length > 0 ? dirs : ["tests/fixtures/chat"]) {
    const s = score(await loadFixtures(dir));
    console.log(`## ${dir}\n\n${table(s)}\n`);
    if (verbose && s.mistakes.length > 0) {
      console.log(`Mistakes:\n${s.mistakes.map((m) => `- ${m}`).join("\n")}\n`);
    }
  }
}
