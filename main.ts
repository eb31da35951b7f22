import { createApp } from "./src/app.ts";
import { ConfigError, loadConfig } from "./src/config.ts";
import { createDeps, drainDeps } from "./src/deps.ts";
import { startQueueListener } from "./src/events/queue.ts";
import { listen } from "./src/http/listener.ts";
import { serviceJobs } from "./src/jobs/registry.ts";
import { openFilesLimit } from "./src/lib/limits.ts";
import { openStore } from "./src/store/kv.ts";
import { VERSION } from "./src/version.ts";
import { dashboardBundle, precompress } from "./src/web/bundle.ts";

let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Configuration error: ${err.message}`);
  Deno.exit(1);
}

const { kv, persistence } = await openStore(config.kvPath);
const deps = createDeps({ kv, config, persistence });
const app = createApp(deps);
// The dashboard's compressed assets are made once, before the first visitor asks.
precompress(dashboardBundle());

// Every job of the service (src/jobs/registry.ts): the process's one queue listener routes
// messages by kind (with the KV queue; where KV has none, the hand-over at commit), and every
// cron job is registered whatever the configuration (one with nothing to do returns at once).
const jobs = serviceJobs(deps);
const queue = startQueueListener(deps, jobs.queue);
const stopJobs = new AbortController();
const runningJobs = new Set<Promise<unknown>>();
for (const job of jobs.cron) {
  Deno.cron(job.name, job.schedule, { backoffSchedule: [], signal: stopJobs.signal }, async () => {
    const run = job.run(stopJobs.signal);
    runningJobs.add(run);
    try {
      await run;
    } finally {
      runningJobs.delete(run);
    }
  });
}

// Every connection holds a descriptor: the limit bounds how many clients are served at once.
const fileLimit = openFilesLimit();
if (fileLimit && fileLimit.soft !== fileLimit.hard) {
  deps.log.warn("the open-files soft limit is below the hard limit", { ...fileLimit });
}

const server = listen({
  port: config.port,
  hostname: config.host,
  handler: app.fetch,
  log: deps.log,
  recycleMs: config.listenerRecycleSeconds * 1000,
  onListen: ({ hostname, port }) =>
    deps.log.info("listening", {
      hostname,
      port,
      version: VERSION,
      persistence,
      events: deps.events.transport.name,
      maxOpenFiles: fileLimit ? fileLimit.soft ?? "unlimited" : "unknown",
    }),
});

/** Stop accepting, let in-flight requests finish, then close storage. */
async function shutdown(signal: string) {
  deps.log.info("shutting down", { signal });
  stopJobs.abort();
  await server.shutdown();
  await Promise.allSettled([...runningJobs]);
  await queue.drain();
  await drainDeps(deps);
  kv.close();
  await queue.close();
  Deno.exit(0);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void shutdown(signal));
}
