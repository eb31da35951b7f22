/**
 * `deno task bench`: HTTP load benchmarks against running servers (child processes on loopback
 * ports), written into the results block of docs/benchmarks.md.
 *
 * Environment: BENCH_SECONDS (per measurement, default 5), BENCH_CONNECTIONS (default 50),
 * BENCH_ONLY (comma-separated scenario names to run; prints the results and leaves the file
 * alone, for trying a scenario out).
 *
 * Adding a scenario (auth, orders, webhook fan-out, ...): create
 * `scripts/bench/scenarios/<name>.ts` exporting a `Scenario` (`{name, title, run(ctx)}`, see
 * scripts/bench/context.ts) and add it to SCENARIOS below. In `run`, start servers with
 * `ctx.startService({env, seed})` (`seed(kv)` writes data through src/store before the service
 * opens the same KV file) or `ctx.startBare()`, measure with
 * `ctx.measure(server, {path, method, headers, body | makeBody(i)})`, and return markdown
 * (use `table()`); servers are stopped after each scenario.
 */
import { BenchContext, type Scenario } from "./bench/context.ts";
import { machine } from "./bench/proc.ts";
import { foundation } from "./bench/scenarios/foundation.ts";

const SCENARIOS: Scenario[] = [
  foundation,
];

const REPORT = new URL("../docs/benchmarks.md", import.meta.url);
const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";

function positive(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  const n = Number(raw ?? fallback);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
}

async function header(seconds: number, connections: number): Promise<string> {
  const m = await machine();
  const settings = [
    seconds !== 5 ? `BENCH_SECONDS=${seconds}` : "",
    connections !== 50 ? `BENCH_CONNECTIONS=${connections}` : "",
  ].filter(Boolean).join(" ");
  return [
    `Run on ${new Date().toISOString()} with \`${settings ? settings + " " : ""}deno task bench\`:`,
    `${seconds} s per measurement after 1 s of warm-up, ${connections} keep-alive connections.`,
    "",
    `- Machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Linux ${m.kernel}`,
    `- Deno ${Deno.version.deno} (V8 ${Deno.version.v8}, TypeScript ${Deno.version.typescript})`,
    `- Load average before the run: ${m.loadAverage}`,
  ].join("\n");
}

async function main() {
  const seconds = positive("BENCH_SECONDS", 5);
  const connections = Math.round(positive("BENCH_CONNECTIONS", 50));
  const only = Deno.env.get("BENCH_ONLY")?.split(",").map((s) => s.trim());
  const selected = only ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
  if (selected.length === 0) throw new Error(`no scenario named ${only}`);

  const sections = [await header(seconds, connections)];
  for (const scenario of selected) {
    console.error(`bench: ${scenario.title}`);
    const ctx = new BenchContext(seconds, connections);
    try {
      sections.push(`### ${scenario.title}\n\n${await scenario.run(ctx)}`);
    } finally {
      await ctx.cleanup();
    }
  }
  const results = sections.join("\n\n");
  console.log(results);
  if (only) return;

  const doc = await Deno.readTextFile(REPORT).catch(() => `# Benchmarks\n\n${START}\n${END}\n`);
  const [before, rest] = doc.split(START);
  if (rest === undefined || !rest.includes(END)) {
    throw new Error(`${REPORT.pathname} lacks the ${START} ... ${END} markers`);
  }
  const after = rest.slice(rest.indexOf(END));
  await Deno.writeTextFile(REPORT, `${before}${START}\n${results}\n${after}`);
  console.error(`bench: wrote ${REPORT.pathname}`);
}

await main();
