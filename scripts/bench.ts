/**
 * `deno task bench`: HTTP load benchmarks against running servers (child processes on loopback
 * ports), written into the results block of docs/benchmarks.md.
 *
 * Environment: BENCH_SECONDS (per measurement, default 5), BENCH_CONNECTIONS (default 50),
 * BENCH_ONLY (comma-separated scenario names: runs those and replaces only their sections).
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
import { accounts } from "./bench/scenarios/accounts.ts";
import { orders } from "./bench/scenarios/orders.ts";
import { search } from "./bench/scenarios/search.ts";
import { storage } from "./bench/scenarios/storage.ts";
import { webhooks } from "./bench/scenarios/webhooks.ts";
import { crash } from "./bench/scenarios/crash.ts";
import { email } from "./bench/scenarios/email.ts";
import { carriers } from "./bench/scenarios/carriers.ts";
import { mailArrival } from "./bench/scenarios/mail_arrival.ts";
import { chat } from "./bench/scenarios/chat.ts";
import { dashboard } from "./bench/scenarios/dashboard.ts";
import { upgrade } from "./bench/scenarios/upgrade.ts";
import { insights } from "./bench/scenarios/insights.ts";
import { observability } from "./bench/scenarios/observability.ts";

const SCENARIOS: Scenario[] = [
  foundation,
  accounts,
  orders,
  search,
  storage,
  webhooks,
  crash,
  email,
  carriers,
  mailArrival,
  chat,
  dashboard,
  upgrade,
  insights,
  observability,
];

const REPORT = new URL("../docs/benchmarks.md", import.meta.url);
const START = "<!-- bench:results:start -->";
const END = "<!-- bench:results:end -->";
const SECTION = /<!-- bench:([\w-]+):start -->[\s\S]*?<!-- bench:\1:end -->/g;

function positive(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  const n = Number(raw ?? fallback);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
}

/** How, where and when a scenario was measured: the first lines of its section. */
async function runInfo(seconds: number, connections: number, only?: string[]): Promise<string> {
  const m = await machine();
  const command = [
    only ? `BENCH_ONLY=${only.join(",")}` : "",
    seconds !== 5 ? `BENCH_SECONDS=${seconds}` : "",
    connections !== 50 ? `BENCH_CONNECTIONS=${connections}` : "",
    "deno task bench",
  ].filter(Boolean).join(" ");
  return [
    `Measured on ${new Date().toISOString()} with \`${command}\`: ${seconds} s per measurement ` +
    `after 1 s of warm-up, ${connections} keep-alive connections.`,
    "",
    `- Machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, Linux ${m.kernel}`,
    `- Deno ${Deno.version.deno} (V8 ${Deno.version.v8}, TypeScript ${Deno.version.typescript})`,
    `- Load average before the scenario: ${m.loadAverage}`,
  ].join("\n");
}

/**
 * Replaces the sections of the scenarios that ran, keeps the others' last results, and orders
 * the sections as SCENARIOS lists them.
 */
async function writeReport(fresh: Map<string, string>) {
  const doc = await Deno.readTextFile(REPORT);
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) {
    throw new Error(`${REPORT.pathname} lacks the ${START} ... ${END} markers`);
  }
  const kept = new Map<string, string>();
  for (const match of doc.slice(start, end).matchAll(SECTION)) kept.set(match[1], match[0]);
  const sections = SCENARIOS.flatMap((s) => {
    const body = fresh.get(s.name);
    if (body) return [`<!-- bench:${s.name}:start -->\n${body}\n<!-- bench:${s.name}:end -->`];
    return kept.has(s.name) ? [kept.get(s.name)!] : [];
  });
  const results = sections.join("\n\n");
  await Deno.writeTextFile(
    REPORT,
    `${doc.slice(0, start)}${START}\n${results}\n${doc.slice(end)}`,
  );
}

async function main() {
  const seconds = positive("BENCH_SECONDS", 5);
  const connections = Math.round(positive("BENCH_CONNECTIONS", 50));
  const only = Deno.env.get("BENCH_ONLY")?.split(",").map((s) => s.trim());
  const selected = only ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
  if (selected.length === 0) throw new Error(`no scenario named ${only}`);

  const fresh = new Map<string, string>();
  for (const scenario of selected) {
    console.error(`bench: ${scenario.title}`);
    const info = await runInfo(seconds, connections, only);
    const ctx = new BenchContext(seconds, connections);
    try {
      const section = `### ${scenario.title}\n\n${info}\n\n${await scenario.run(ctx)}`;
      console.log(section + "\n");
      fresh.set(scenario.name, section);
    } finally {
      await ctx.cleanup();
    }
  }
  await writeReport(fresh);
  console.error(`bench: wrote ${REPORT.pathname}`);
}

await main();
