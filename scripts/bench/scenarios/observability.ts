import { enableMetrics, metrics } from "../../../src/lib/metrics.ts";
import {
  type BenchContext,
  type BenchServer,
  type Measurement,
  MEASUREMENT_COLUMNS,
  measurementRow,
  perServerCore,
  type Scenario,
  table,
} from "../context.ts";
import { ENDPOINTS } from "./foundation.ts";

const METRICS_TOKEN = "bench-metrics-token-0123456789";

/** Nanoseconds per call of `f`, the best of five runs of `n` calls (the least disturbed). */
function nsPerCall(f: () => void, n = 200_000): number {
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    for (let i = 0; i < n; i++) f();
    best = Math.min(best, (performance.now() - started) * 1e6 / n);
  }
  return Math.round(best);
}

/**
 * What a request's own recording costs, in this process: the instrumented calls one request
 * makes at most (its request metric, a KV commit, an intake message), off and then on. Less
 * exposed to other load on the machine than requests/s.
 */
function recordingCost(): (string | number)[][] {
  const request = () => {
    metrics.httpRequest("/api/orders/:id", "GET", 200, 0.002);
    metrics.kvCommit("ok");
    metrics.intakeMessage("email", "created");
  };
  const off = nsPerCall(request);
  enableMetrics();
  const on = nsPerCall(request);
  return [["off (the default)", off], ["metrics on", on]];
}

/** Where the OpenTelemetry-on service exports: accepts every OTLP request and keeps nothing. */
function otlpSink(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (req) => {
      await req.body?.cancel();
      return new Response("{}", { headers: { "content-type": "application/json" } });
    },
  );
}

/**
 * What metrics and traces cost, and that they cost nothing when off: the bare ceiling, the
 * service as deployed by default (neither `METRICS_TOKEN` nor `OTEL_DENO`), with metrics on, and
 * with OpenTelemetry on (exporting to a local sink), measured one after another in one run.
 */
export const observability: Scenario = {
  name: "observability",
  title: "Observability: the service with metrics and traces off and on",
  async run(ctx: BenchContext) {
    const sink = otlpSink();
    try {
      const named = async (name: string, server: Promise<BenchServer>) => ({
        ...await server,
        name,
      });
      const servers = [
        await named("bare Deno.serve", ctx.startBare()),
        await named("service, both off", ctx.startService()),
        await named("service, metrics on", ctx.startService({ env: { METRICS_TOKEN } })),
        await named(
          "service, OTEL_DENO on",
          ctx.startService({
            env: {
              OTEL_DENO: "true",
              OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
              OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.addr.port}`,
            },
          }),
        ),
      ];
      const rows: (string | number)[][] = [];
      const ratios: (string | number)[][] = [];
      for (const { label, path } of ENDPOINTS) {
        // Two rounds, the second in reverse order, so a drift in the machine's load during
        // the run weighs on every server alike; each server's figures are the two rounds' mean.
        const runs = new Map<BenchServer, Measurement[]>(servers.map((s) => [s, []]));
        for (const order of [servers, [...servers].reverse()]) {
          for (const server of order) {
            const m = await ctx.measure(server, { path });
            runs.get(server)!.push(m);
            rows.push(measurementRow(label, server, m));
          }
        }
        const mean = (server: BenchServer, of: (m: Measurement) => number) => {
          const ms = runs.get(server)!;
          return ms.reduce((sum, m) => sum + of(m), 0) / ms.length;
        };
        const rps = (i: number) => mean(servers[i], (m) => m.rps);
        const core = (i: number) => mean(servers[i], perServerCore);
        const pct = (a: number, b: number) => `${Math.round(a / b * 100)}%`;
        ratios.push([
          label,
          pct(rps(1), rps(0)),
          pct(core(1), core(0)),
          pct(rps(2), rps(1)),
          pct(core(2), core(1)),
          pct(rps(3), rps(1)),
          pct(core(3), core(1)),
        ]);
      }
      return [
        table(["Endpoint", ...MEASUREMENT_COLUMNS], rows),
        "",
        "Each server was measured twice (the second round in reverse order); the ratios use the " +
        "two rounds' means. Off is the default deployment: compare its share of the bare " +
        "ceiling with the foundation scenario's. On, each figure is the service's requests/s " +
        "(and requests per CPU-second) as a share of the same service with both off.",
        "",
        table(
          [
            "Endpoint",
            "Off / bare",
            "per core",
            "Metrics on / off",
            "per core",
            "OTel on / off",
            "per core",
          ],
          ratios,
        ),
        "",
        "The recording one request does at most (its request counter and latency histogram, a KV " +
        "commit and an intake message), timed in the benchmark's own process, best of five runs " +
        "of 200,000:",
        "",
        table(["Metrics", "ns per request"], recordingCost()),
      ].join("\n");
    } finally {
      await sink.shutdown();
    }
  },
};
