/**
 * Deno Deploy schedules the cron jobs it sees registered while evaluating the entry module's
 * top-level code, before `Deno.serve`. The entry module (main.ts) is loaded here with recording
 * `Deno.cron` and `Deno.serve` (entry_probe.ts), under several configurations, good and bad:
 * every job of the registry is registered once, with its fixed name and schedule, before the
 * server starts, or before a bad configuration stops the process.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runToExit } from "../../scripts/service.ts";
import { CRON_JOBS } from "../../src/jobs/registry.ts";

const SECRETS_KEY = new Uint8Array(32).fill(9).toBase64();

interface Probe {
  call: "cron" | "serve";
  name?: string;
  schedule?: string;
  backoffSchedule?: number[];
  signal?: boolean;
  handler?: string;
}

async function probe(env: Record<string, string>) {
  const report = await runToExit({
    script: "tests/deploy/entry_probe.ts",
    env: { LOG_LEVEL: "error", PORT: "0", ...env },
  });
  const calls = report.stdout.filter((l) => l.startsWith("PROBE ")).map((l) =>
    JSON.parse(l.slice(6)) as Probe
  );
  return { code: report.code, calls, stderr: report.stderr.join("\n") };
}

const expected: Probe[] = CRON_JOBS.map((job) => ({
  call: "cron",
  name: job.name,
  schedule: job.schedule,
  backoffSchedule: [],
  signal: true,
  handler: "function",
}));

Deno.test("every cron job is registered at top level before Deno.serve, whatever the configuration", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const configurations: [string, Record<string, string>][] = [
      ["a SQLite file (the default)", { KV_PATH: join(dir, "a", "kv.sqlite3") }],
      ["in memory", { KV_PATH: ":memory:" }],
      ["the outbox on a local file", {
        KV_PATH: join(dir, "b", "kv.sqlite3"),
        EVENTS_TRANSPORT: "outbox",
      }],
      ["Deno Deploy (its KV, the outbox)", {
        DENO_DEPLOYMENT_ID: "probe1",
        SECRETS_KEY,
        // Where Deno.openKv() without a path opens, here; on Deploy, the app's database.
        DENO_KV_DEFAULT_PATH: join(dir, "deploy.sqlite3"),
      }],
    ];
    for (const [name, env] of configurations) {
      await t.step(name, async () => {
        const { code, calls, stderr } = await probe(env);
        assert.equal(code, 0, stderr);
        assert.deepEqual(calls, [...expected, { call: "serve" }]);
      });
    }
    // On Deploy, KV was Deno.openKv() without a path: the default location got the database.
    assert.ok((await Deno.stat(join(dir, "deploy.sqlite3"))).isFile);
    const bad: [string, Record<string, string>, RegExp][] = [
      ["Deploy without SECRETS_KEY", { DENO_DEPLOY: "1" }, /Invalid SECRETS_KEY/],
      ["Deploy with a local file", {
        DENO_DEPLOYMENT_ID: "probe2",
        SECRETS_KEY,
        KV_PATH: join(dir, "c", "kv.sqlite3"),
      }, /Invalid KV_PATH/],
      ["the queue on KV Connect", {
        KV_PATH: "https://kv.example.com/db",
        EVENTS_TRANSPORT: "queue",
      }, /Invalid EVENTS_TRANSPORT/],
      ["a bad port", { PORT: "none" }, /Invalid PORT/],
    ];
    for (const [name, env, message] of bad) {
      await t.step(`${name}: jobs registered, then the configuration error`, async () => {
        const { code, calls, stderr } = await probe(env);
        assert.equal(code, 1);
        assert.match(stderr, message);
        assert.deepEqual(calls, expected);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
