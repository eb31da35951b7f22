/**
 * CPU and memory of the whole email import path per message, split by thread: the intake
 * benchmark's mails (`benchMail`) posted to `POST /api/email/import` at 16 at a time, as the
 * `email` scenario posts them.
 *
 *   deno run -A scripts/bench/email_path.ts [seconds=8] [-- deno flags for the service, instead
 *     of the V8 flags of `deno task start`]
 *   deno run -A scripts/bench/email_path.ts 8 -- --v8-flags=--trace-gc   (GC trace to a file)
 *   RSS_TRACE=1 deno run -A scripts/bench/email_path.ts 8   (resident memory every 0.5 s)
 *   deno run -A scripts/bench/email_path.ts --count=1500   (a fixed number of imports: peak RSS)
 *   EMAIL_READERS=0 deno run -A scripts/bench/email_path.ts 1500 --in-process --profile=p.cpuprofile
 *
 * By default the service runs as `main.ts` in a child process on a fresh KV file (as the
 * benchmark starts it) and the load comes from this process; the figures are the service's own:
 * CPU time of each of its threads (`/proc/<pid>/task`: the request thread `deno`, the reader
 * worker `worker-0`, KV's SQLite writer `sw-0`, V8's helper threads) per message answered, and
 * its peak RSS. CPU time per message is steadier than throughput on a shared machine: other
 * processes take turns on the cores, not this process's CPU seconds.
 *
 * `--in-process` builds the same app in this process instead and posts a number of messages
 * through `app.request`; with `--profile=<file>` that window is profiled (the thread's own V8
 * profiler, so `EMAIL_READERS=0` to see the reading too) and the heaviest files and functions
 * are printed; with `--allocations`, what it allocates (garbage included) by function; with
 * `--promoted`, what of it outlived the young generation.
 */
import process from "node:process";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import { openStore } from "../../src/store/kv.ts";
import { START_V8_FLAGS, startService } from "../service.ts";
import { BenchContext, seedAccount } from "./context.ts";
import { load } from "./load.ts";
import { benchMail } from "./mails.ts";
import { peakRssMiB } from "./proc.ts";
import {
  allocationProfiled,
  allocationSummary,
  type CpuProfile,
  profiled,
  summary,
} from "./profile.ts";

const CONNECTIONS = Number(Deno.env.get("CONNECTIONS") ?? 16);
const split = Deno.args.indexOf("--");
const own = split < 0 ? Deno.args : Deno.args.slice(0, split);
const serviceFlags = split < 0 ? [] : Deno.args.slice(split + 1);
const positional = own.filter((a) => !a.startsWith("--"));
const profileTo = own.find((a) => a.startsWith("--profile="))?.slice("--profile=".length);
const inProcess = own.includes("--in-process");
/**
 * `--count=N`: N imports after the warm-up instead of `seconds` of load. The peak RSS grows with
 * the mails imported, so memory is compared at a fixed count (a faster service imports more in
 * a fixed window).
 */
const count = Number(own.find((a) => a.startsWith("--count="))?.slice("--count=".length) ?? 0);
const allocations = own.includes("--allocations") || own.includes("--promoted");
/** `--ceiling`: the scenario's one-commit ceiling (scripts/bench/bare_intake.ts) instead. */
const script = own.includes("--ceiling") ? "scripts/bench/bare_intake.ts" : "main.ts";

const bodyOf = (n: number) => JSON.stringify({ raw: benchMail(n) });
const ms = (v: number) => v.toFixed(2);

/** CPU seconds of each thread of a process, by thread name (digits folded: `worker-#`). */
async function threadCpu(pid: number | "self"): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
    try {
      const stat = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/stat`);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "#");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

function perThread(before: Map<string, number>, after: Map<string, number>, messages: number) {
  const rows = [...after].map(([name, s]) => [name, s - (before.get(name) ?? 0)] as const)
    .filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((n, [, s]) => n + s, 0);
  return `CPU ${ms(total * 1000 / messages)} ms per message: ` +
    rows.map(([name, s]) => `${name} ${ms(s * 1000 / messages)}`).join(", ");
}

/** The service as the benchmark runs it, under `seconds` of load after 1 s of warm-up. */
async function viaServer(seconds: number) {
  const ctx = new BenchContext(seconds, CONNECTIONS);
  let key = "";
  // A seeded KV file as the scenario makes it; the service itself started with the flags.
  const kvPath = await ctx.startBare({
    script: "scripts/bench/bare.ts",
    seed: async (kv) => void await seedAccount(kv, (k) => key = k, "UTC", "bench@example.com"),
  }).then((bare) => bare.kvPath!);
  const service = await startService({
    command: [
      Deno.execPath(),
      "run",
      "--allow-all",
      ...(serviceFlags.length ? serviceFlags : START_V8_FLAGS),
      script,
    ],
    env: { KV_PATH: kvPath, LOG_LEVEL: "error" },
  });
  try {
    let n = 0;
    const options = {
      url: `${service.url}/api/email/import`,
      method: "POST",
      connections: CONNECTIONS,
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      makeBody: () => bodyOf(n++),
    };
    const atRest = await peakRssMiB(service.pid);
    // `RSS_TRACE=1`: the service's resident memory every half second.
    const trace: string[] = [];
    const sampler = Deno.env.get("RSS_TRACE")
      ? setInterval(async () => {
        const status = await Deno.readTextFile(`/proc/${service.pid}/status`);
        trace.push(status.match(/^(?:VmRSS|RssAnon|RssFile):.*$/gm)?.join(", ") ?? "");
      }, 500)
      : undefined;
    await load({ ...options, durationMs: 1000 });
    const rest = await peakRssMiB(service.pid);
    const before = await threadCpu(service.pid);
    const result = await load(
      count ? { ...options, durationMs: 600_000, maxRequests: count } : {
        ...options,
        durationMs: seconds * 1000,
      },
    );
    const after = await threadCpu(service.pid);
    clearInterval(sampler);
    if (trace.length) console.log(trace.join("\n"));
    console.log(
      `${result.requests} messages in ${
        count ? (result.requests / result.rps).toFixed(1) : seconds
      } s at ${CONNECTIONS} connections (${result.rps}/s, ` +
        `p50 ${result.p50Ms} ms, statuses ${JSON.stringify(result.statuses)}) | ` +
        `${
          perThread(before, after, result.requests)
        } | peak RSS ${atRest} MiB at rest, ${rest} MiB after the ` +
        `warm-up, ${await peakRssMiB(service.pid)} MiB at the end`,
    );
  } finally {
    const exit = await service.stop();
    const gc = exit.stdout.concat(exit.stderr).filter((l) => /Mark-Compact|Scavenge|GC: {/.test(l));
    if (gc.length) {
      const file = await Deno.makeTempFile({ prefix: "email-path-gc-", suffix: ".log" });
      await Deno.writeTextFile(file, gc.join("\n") + "\n");
      console.log(`the service's GC trace: ${file}`);
    }
    await ctx.cleanup();
  }
}

/** The app in this process, `messages` posted through `app.request`. */
async function viaApp(messages: number) {
  const dir = await Deno.makeTempDir({ prefix: "email-path-" });
  const env = { LOG_LEVEL: "error", ...Deno.env.toObject(), KV_PATH: join(dir, "kv") };
  const config = loadConfig(env);
  const { kv, persistence } = await openStore(config.kvPath);
  let key = "";
  await seedAccount(kv, (k) => key = k, "UTC", "bench-path@example.com");
  const deps = createDeps({ kv, config, persistence });
  const app = createApp(deps);
  const post = async (n: number) => {
    const res = await app.request("/api/email/import", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: bodyOf(n),
    });
    await res.body?.cancel();
  };
  const run = async (from: number, to: number) => {
    let next = from;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (next < to) await post(next++);
    }));
  };
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  // What making the bodies costs (the load generator's work, not the service's).
  const made = cpuMs();
  for (let n = 0; n < messages; n++) bodyOf(n);
  const bodyMs = (cpuMs() - made) / messages;
  await run(0, 200);
  const before = await threadCpu("self");
  let profile: CpuProfile | undefined;
  let allocated = "";
  if (profileTo) profile = await profiled(() => run(200, 200 + messages));
  else if (allocations) {
    const sampled = await allocationProfiled(
      () => run(200, 200 + messages),
      !own.includes("--promoted"),
    );
    allocated = allocationSummary(sampled, messages);
  } else await run(200, 200 + messages);
  const after = await threadCpu("self");
  console.log(
    `${messages} messages in process, EMAIL_READERS=${config.emailReaders} | ` +
      `${perThread(before, after, messages)} (making a body, ${ms(bodyMs)} ms, included) | ` +
      `peak RSS ${await peakRssMiB(Deno.pid)} MiB`,
  );
  if (profile && profileTo) {
    await Deno.writeTextFile(profileTo, JSON.stringify(profile));
    console.log(summary(profile, messages));
  }
  if (allocated) console.log(allocated);
  await drainDeps(deps);
  kv.close();
  await Deno.remove(dir, { recursive: true });
}

if (inProcess) await viaApp(Number(positional[0] ?? 1500));
else await viaServer(Number(positional[0] ?? 8));
