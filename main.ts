import { createApp } from "./src/app.ts";
import { ConfigError, loadConfig } from "./src/config.ts";
import { createDeps, drainDeps } from "./src/deps.ts";
import { webhookHandlers } from "./src/events/delivery.ts";
import { startQueueListener } from "./src/events/queue.ts";
import { listen } from "./src/http/listener.ts";
import { drainOutbox, OUTBOX_DRAIN_SCHEDULE } from "./src/jobs/outbox_drain.ts";
import { openFilesLimit } from "./src/lib/limits.ts";
import { openStore } from "./src/store/kv.ts";
import { VERSION } from "./src/version.ts";

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

// The process's event listener, routing messages by kind: the KV queue's, or where KV has no
// queues (KV Connect, `deps.events` is the outbox), the hand-over at commit plus a cron job
// draining what a dead process left in the outbox.
const handlers = webhookHandlers(deps);
const queue = startQueueListener(deps, handlers);
const stopJobs = new AbortController();
let draining: Promise<unknown> = Promise.resolve();
if (deps.events.transport.name === "outbox") {
  Deno.cron("outbox drain", OUTBOX_DRAIN_SCHEDULE, {
    backoffSchedule: [],
    signal: stopJobs.signal,
  }, async () => {
    draining = drainOutbox(deps, handlers, { signal: stopJobs.signal });
    await draining;
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
  await draining;
  await queue.drain();
  await drainDeps(deps);
  kv.close();
  await queue.close();
  Deno.exit(0);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void shutdown(signal));
}
