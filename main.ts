import { createApp } from "./src/app.ts";
import { ConfigError, loadConfig } from "./src/config.ts";
import { createDeps, drainDeps } from "./src/deps.ts";
import { webhookHandlers } from "./src/events/delivery.ts";
import { startQueueListener } from "./src/events/queue.ts";
import { drainOutbox, OUTBOX_DRAIN_SCHEDULE } from "./src/jobs/outbox_drain.ts";
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
if (deps.events.name === "outbox") {
  Deno.cron("outbox drain", OUTBOX_DRAIN_SCHEDULE, {
    backoffSchedule: [],
    signal: stopJobs.signal,
  }, async () => {
    draining = drainOutbox(deps, handlers, { signal: stopJobs.signal });
    await draining;
  });
}

const server = Deno.serve({
  port: config.port,
  hostname: config.host,
  onListen: ({ hostname, port }) =>
    deps.log.info("listening", {
      hostname,
      port,
      version: VERSION,
      persistence,
      events: deps.events.name,
    }),
}, app.fetch);

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
