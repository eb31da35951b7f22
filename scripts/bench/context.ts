/**
 * What a benchmark scenario gets to work with: servers started as child processes on free
 * loopback ports, and measurements that pair the load generator's figures with the server's
 * CPU use and peak memory.
 */
import { join } from "node:path";
import type { UserRecord } from "../../src/domain/account/user.ts";
import { createApiKey } from "../../src/store/account/api_keys.ts";
import { openStore } from "../../src/store/kv.ts";
import { createUser } from "../../src/store/account/users.ts";
import { keys } from "../../src/store/keys.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import type { LayoutMarker } from "../../src/store/migrations/run.ts";
import { type RunningService, startService } from "../service.ts";
import { load, type LoadOptions, type LoadResult } from "./load.ts";
import { cpuSeconds, peakRssMiB } from "./proc.ts";

export interface BenchServer {
  name: string;
  url: string;
  /** The KV file the server opened, when it has one. */
  kvPath?: string;
  pid: number;
}

export interface Measurement extends LoadResult {
  /** Server CPU use during the measurement, in % of one core. */
  serverCpuPct: number;
  /** Load generator CPU use, in % of one core. */
  loaderCpuPct: number;
  /** The server's peak RSS so far (VmHWM), MiB. */
  peakRssMiB: number;
}

export interface ServiceStart {
  /** Extra environment for main.ts (KV_PATH and LOG_LEVEL=error are set already). */
  env?: Record<string, string>;
  /** Writes data through the storage layer into the service's KV file before it starts. */
  seed?: (kv: Deno.Kv) => Promise<void>;
  /** Opens this KV file (another server's `kvPath`) instead of a fresh one. */
  kvPath?: string;
}

export interface BareStart extends ServiceStart {
  /** The ceiling server's script (default scripts/bench/bare.ts, which needs no KV). */
  script?: string;
}

export type MeasureOptions = Omit<LoadOptions, "url" | "durationMs"> & { path: string };

export interface Scenario {
  /** Short name, for BENCH_ONLY. */
  name: string;
  /** Heading of the scenario's section in docs/benchmarks.md. */
  title: string;
  /** Measures and returns the section's markdown body. */
  run(ctx: BenchContext): Promise<string>;
}

/** How long `settle` waits for idle servers at most, and how it samples their CPU time. */
const SETTLE_MAX_MS = 20_000;
const SETTLE_SAMPLE_MS = 300;
/** CPU seconds the servers may use in one sample and still count as idle (10 ms ticks). */
const SETTLE_IDLE_CPU_S = 0.03;

export class BenchContext {
  #running: RunningService[] = [];
  #dirs: string[] = [];

  constructor(
    /** Seconds of each measurement (BENCH_SECONDS). */
    readonly seconds: number,
    /** Concurrent keep-alive connections (BENCH_CONNECTIONS). */
    readonly connections: number,
  ) {}

  /** The service (main.ts) on a fresh KV file in a temporary directory, or `kvPath`. */
  async startService(options: ServiceStart = {}): Promise<BenchServer> {
    const kvPath = await this.#kvFile(options);
    return this.#start("service", "main.ts", {
      KV_PATH: kvPath,
      LOG_LEVEL: "error",
      ...options.env,
    }, kvPath);
  }

  /**
   * The ceiling: a bare Deno.serve answering the same JSON (scripts/bench/bare.ts), or another
   * bare `script` doing a scenario's KV work, on a KV file like the service's when it is given
   * `seed` or `kvPath`.
   */
  async startBare(options: BareStart = {}): Promise<BenchServer> {
    const kvPath = options.seed || options.kvPath ? await this.#kvFile(options) : undefined;
    const env = { ...(kvPath ? { KV_PATH: kvPath } : {}), ...options.env };
    return this.#start("bare Deno.serve", options.script ?? "scripts/bench/bare.ts", env, kvPath);
  }

  /** A fresh KV file in a temporary directory, seeded; or the given one as it is. */
  async #kvFile(options: ServiceStart): Promise<string> {
    if (options.kvPath) return options.kvPath;
    const dir = await Deno.makeTempDir({ prefix: "bench-kv-" });
    this.#dirs.push(dir);
    const kvPath = join(dir, "kv.sqlite3");
    if (options.seed) {
      const store = await openStore(kvPath);
      const { kv } = store;
      try {
        await options.seed(kv);
        // Seeded by this release's code: its layout, so the service starts without migrating
        // (a walk of every order per migration would outlast the start timeout at 100,000).
        const marker: LayoutMarker = {
          version: MIGRATIONS.length,
          migrations: MIGRATIONS.map((m) => m.id),
          release: "bench-seed",
          at: new Date().toISOString(),
        };
        await kv.set(keys.layout(), marker);
      } finally {
        store.close();
      }
    }
    return kvPath;
  }

  async #start(name: string, script: string, env: Record<string, string>, kvPath?: string) {
    const running = await startService({ script, env });
    this.#running.push(running);
    return { name, url: running.url, pid: running.pid, kvPath };
  }

  /**
   * Waits (at most {@link SETTLE_MAX_MS}) until every server started is idle: work a server
   * left queued by the previous measurement (its KV queue's event messages, taken and
   * acknowledged after the load ends) would otherwise run during the next server's measurement.
   */
  async settle(): Promise<void> {
    const pids = this.#running.map((r) => r.pid);
    const cpu = () => Promise.all(pids.map(cpuSeconds)).then((s) => s.reduce((a, b) => a + b, 0));
    const deadline = Date.now() + SETTLE_MAX_MS;
    while (Date.now() < deadline) {
      const before = await cpu();
      await new Promise((resolve) => setTimeout(resolve, SETTLE_SAMPLE_MS));
      if (await cpu() - before < SETTLE_IDLE_CPU_S) return;
    }
  }

  /**
   * Once every server is idle, one second of warm-up, then `seconds` of load on `server` with
   * CPU and memory readings.
   */
  async measure(server: BenchServer, options: MeasureOptions): Promise<Measurement> {
    await this.settle();
    const { path, ...rest } = options;
    const base = { connections: this.connections, ...rest, url: server.url + path };
    await load({ ...base, durationMs: 1000 });
    const before = await Promise.all([cpuSeconds(server.pid), cpuSeconds(Deno.pid)]);
    const started = performance.now();
    const result = await load({ ...base, durationMs: this.seconds * 1000 });
    const elapsed = (performance.now() - started) / 1000;
    const after = await Promise.all([cpuSeconds(server.pid), cpuSeconds(Deno.pid)]);
    const pct = (i: number) => Math.round((after[i] - before[i]) / elapsed * 100);
    return {
      ...result,
      serverCpuPct: pct(0),
      loaderCpuPct: pct(1),
      peakRssMiB: await peakRssMiB(server.pid),
    };
  }

  /** Stops every server started so far and removes their data. */
  async cleanup(): Promise<void> {
    for (const running of this.#running.splice(0)) {
      const exit = await running.stop();
      if (exit.code !== 0 && exit.stderr.length) console.error(exit.stderr.join("\n"));
    }
    for (const dir of this.#dirs.splice(0)) await Deno.remove(dir, { recursive: true });
  }
}

/** A markdown table. */
export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** `200: 1234, 404: 5` */
export function statusList(statuses: Record<number, number>): string {
  return Object.entries(statuses).map(([code, n]) => `${code}: ${n}`).join(", ");
}

/** Column heads of one measurement per row (see {@link measurementRow}). */
export const MEASUREMENT_COLUMNS = [
  "Server",
  "Requests/s",
  "p50 ms",
  "p99 ms",
  "Responses",
  "Errors",
  "Server CPU",
  "Req/s per server core",
  "Generator CPU",
  "Peak RSS MiB",
];

/** One measurement as a table row: `label`, then {@link MEASUREMENT_COLUMNS}. */
export function measurementRow(label: string, server: BenchServer, m: Measurement) {
  return [
    label,
    server.name,
    m.rps,
    m.p50Ms,
    m.p99Ms,
    statusList(m.statuses),
    m.errors,
    `${m.serverCpuPct}%`,
    perServerCore(m),
    `${m.loaderCpuPct}%`,
    m.peakRssMiB,
  ];
}

/**
 * Requests per CPU-second the server used: its throughput with the CPU it actually got, which
 * other load on the shared machine can cut.
 */
export function perServerCore(m: Measurement): number {
  return m.serverCpuPct > 0 ? Math.round(m.rps * 100 / m.serverCpuPct) : 0;
}

/** One measurement of a labelled request on a server, at a number of connections. */
export interface Row {
  label: string;
  server: BenchServer;
  connections: number;
  m: Measurement;
}

/** Rows as a table: the request, its connections, then {@link MEASUREMENT_COLUMNS}. */
export function rowsTable(rows: Row[]): string {
  return table(
    ["Request", "Connections", ...MEASUREMENT_COLUMNS],
    rows.map(({ label, server, connections, m }) => {
      const [, ...cells] = measurementRow(label, server, m);
      return [label, connections, ...cells];
    }),
  );
}

/** Each load runs against the bare ceiling first, then the service, in the same run. */
export async function pair(
  ctx: BenchContext,
  servers: [BenchServer, BenchServer],
  label: string,
  options: MeasureOptions,
  headersFor: (server: BenchServer) => Record<string, string> = () => ({}),
): Promise<[Row, Row]> {
  const out: Row[] = [];
  const connections = options.connections ?? ctx.connections;
  for (const server of servers) {
    const headers = { ...options.headers, ...headersFor(server) };
    const m = await ctx.measure(server, { ...options, headers });
    out.push({ label, server, connections, m });
  }
  return out as [Row, Row];
}

export const pct = (n: number) => `${Math.round(n * 100)}%`;
export const verdict = (ok: boolean) => ok ? "met" : "**not met**";

/** A bench account (`bench@example.com` by default) with an API key, whose raw key goes to `onKey`. */
export async function seedAccount(
  kv: Deno.Kv,
  onKey: (key: string) => void,
  timezone = "UTC",
  email = "bench@example.com",
): Promise<UserRecord> {
  const user = await createUser(kv, { email, timezone });
  if (!user.ok) throw new Error("bench account not created");
  const key = await createApiKey(kv, user.user.id, "bench");
  if (!key.ok) throw new Error("bench API key not created");
  onKey(key.key);
  return user.user;
}
