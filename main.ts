import { createApp } from "./src/app.ts";
import { ConfigError, loadConfig } from "./src/config.ts";
import { createDeps, drainDeps } from "./src/deps.ts";
import { startQueueListener } from "./src/events/queue.ts";
import { listen } from "./src/http/listener.ts";
import { CRON_JOBS, type JobContext, jobContext } from "./src/jobs/registry.ts";
import { scheduleCronJobs } from "./src/jobs/schedule.ts";
import { smtpReceiverFromConfig } from "./src/intake/smtp.ts";
import { openFilesLimit } from "./src/lib/limits.ts";
import { openStore } from "./src/store/kv.ts";
import { upgradeLayout } from "./src/upgrade.ts";
import { announce, checkSecretsAtStart, configuredCarrierNames } from "./src/startup.ts";
import { VERSION } from "./src/version.ts";
import { dashboardBundle, precompress } from "./src/web/bundle.ts";

// Every cron job of the service is registered first, synchronously and whatever the
// configuration: Deno Deploy schedules only the jobs it sees registered while it evaluates this
// module's top-level code, before `Deno.serve`. Their runs wait for the service set up below.
const ready = Promise.withResolvers<JobContext>();
const cron = scheduleCronJobs(CRON_JOBS, ready.promise);

// SIGINT and SIGTERM are taken from here on, before any await: a signal that came while the
// service was starting would otherwise kill the process (exit 143) instead of stopping it. One
// that arrives during start-up waits for the service to be up, then stops it.
const up = Promise.withResolvers<(signal: string) => Promise<void>>();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void up.promise.then((stop) => stop(signal)));
}

/**
 * Deno Deploy kills an instance 5 s after SIGINT. Shutdown waits this long for running work,
 * then exits anyway: events not yet sent stay with their transport (outbox entry or queue
 * message) and are delivered by another instance or the next start.
 */
const SHUTDOWN_BUDGET_MS = 3500;
/** Quiet time before KV closes, for the queue to record the last acknowledgements. */
const SETTLE_MS = 100;

let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`Configuration error: ${err.message}`);
  Deno.exit(1);
}

const store = await openStore(config.kvPath);
const { kv, persistence } = store;
const deps = createDeps({ kv, config, persistence });
// Pending data-layout migrations run (one instance at a time) before anything is served.
await upgradeLayout(deps);
const app = createApp(deps);
const secrets = await checkSecretsAtStart(deps);
// The dashboard's compressed assets are made once, before the first visitor asks.
precompress(dashboardBundle());
// The built-in SMTP receiver, when SMTP_PORT is set.
const smtp = await smtpReceiverFromConfig(deps);

// The process's one event listener routes queue messages by kind (src/jobs/registry.ts); with
// the outbox it hands this process's events over at commit, and the drain job does the rest.
const jobs = jobContext(deps);
const queue = startQueueListener(deps, jobs.queue);
ready.resolve(jobs);
// Journal files of webhook answers that crashed processes left, once nobody needs them.
deps.background.run("webhook answer sweep", async () => {
  await deps.events.answers.sweep(kv);
});

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
  onListen: ({ hostname, port }) => {
    announce(config, { hostname, port, carriers: configuredCarrierNames(deps.carriers), secrets });
    deps.log.info("listening", {
      hostname,
      port,
      version: VERSION,
      deploy: config.deploy,
      persistence,
      events: deps.events.transport.name,
      eventsChosenBy: config.eventsTransport ? "EVENTS_TRANSPORT" : "store",
      cronJobs: CRON_JOBS.map((job) => job.name),
      maxOpenFiles: fileLimit ? fileLimit.soft ?? "unlimited" : "unknown",
    });
  },
});

let stopping = false;

/**
 * Stops accepting, lets in-flight requests, cron runs, event handlers and background writes
 * finish within the budget, then closes storage and exits.
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  deps.log.info("shutting down", { signal });
  const finished = (async () => {
    const cronStopped = cron.stop();
    await Promise.all([server.shutdown(), smtp?.close()]);
    await cronStopped;
    // Work already taken is finished; queue messages arriving from now on go back to the
    // queue for the other instance (a rolling restart) or the next start.
    queue.handBack();
    await queue.drain();
    await drainDeps(deps);
    await queue.drain({ quietMs: SETTLE_MS });
    return true;
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((r) => timer = setTimeout(() => r(false), SHUTDOWN_BUDGET_MS));
  const complete = await Promise.race([finished, late]);
  clearTimeout(timer);
  if (complete) {
    store.close();
    await queue.close();
  } else {
    deps.log.warn("shutdown budget spent; unfinished work is left to its transport", {
      budgetMs: SHUTDOWN_BUDGET_MS,
    });
  }
  deps.log.info("stopped", { signal, ms: Date.now() - started });
  Deno.exit(0);
}

up.resolve(shutdown);
