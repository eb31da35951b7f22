import {
  type BenchContext,
  type Measurement,
  MEASUREMENT_COLUMNS,
  measurementRow,
  perServerCore,
  type Scenario,
  table,
} from "../context.ts";

/** The service's share of the bare ceiling that issue 2 sets as the target. */
const TARGET = 0.5;

/** The two cheapest requests: what the framework and the conventions add. */
export const ENDPOINTS = [
  { label: "`GET /api/healthz`", path: "/api/healthz" },
  { label: "`GET /api/nope` (JSON 404)", path: "/api/nope" },
];

/**
 * Framework overhead: the service and a bare `Deno.serve` giving the same responses (JSON and
 * the headers the spec requires), measured
 * alternately in the same run.
 */
export const foundation: Scenario = {
  name: "foundation",
  title: "Foundation: the service against a bare Deno.serve",
  async run(ctx: BenchContext) {
    const service = await ctx.startService();
    const bare = await ctx.startBare();
    const rows: (string | number)[][] = [];
    const ratios: (string | number)[][] = [];
    for (const { label, path } of ENDPOINTS) {
      const results: [string, Measurement][] = [];
      for (const server of [bare, service]) {
        const m = await ctx.measure(server, { path });
        results.push([server.name, m]);
        rows.push(measurementRow(label, server, m));
      }
      const [bareRun, serviceRun] = [results[0][1], results[1][1]];
      const ratio = serviceRun.rps / bareRun.rps;
      ratios.push([
        label,
        serviceRun.rps,
        bareRun.rps,
        `${Math.round(ratio * 100)}%`,
        `${Math.round(perServerCore(serviceRun) / perServerCore(bareRun) * 100)}%`,
        ratio >= TARGET ? "met" : "**not met**",
      ]);
    }
    return [
      table(["Endpoint", ...MEASUREMENT_COLUMNS], rows),
      "",
      `Target: the service answers at least ${TARGET * 100}% of the bare ceiling's requests/s. ` +
      "The ratio per server core (requests per CPU-second each server used) is the same " +
      "comparison with the CPU each server actually got, which other load on the machine skews.",
      "",
      table(
        ["Endpoint", "Service req/s", "Bare req/s", "Ratio", "Ratio per server core", "Target"],
        ratios,
      ),
    ].join("\n");
  },
};
