import { createApp } from "./src/app.ts";
import { ConfigError, loadConfig } from "./src/config.ts";
import { createDeps, drainDeps } from "./src/deps.ts";
import { webhookHandlers } from "./src/events/delivery.ts";
import { startQueueListener } from "./src/events/queue.ts";
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

// The one queue listener of the process, routing messages by kind. KV Connect has no queues.
const queue = persistence === "remote" ? null : startQueueListener(deps, {
  ...webhookHandlers(deps),
});
if (!queue) deps.log.warn("remote KV has no queues: webhook delivery is off");

const server = Deno.serve({
  port: config.port,
  hostname: config.host,
  onListen: ({ hostname, port }) =>
    deps.log.info("listening", { hostname, port, version: VERSION, persistence }),
}, app.fetch);

/** Stop accepting, let in-flight requests finish, then close storage. */
async function shutdown(signal: string) {
  deps.log.info("shutting down", { signal });
  await server.shutdown();
  await queue?.drain();
  await drainDeps(deps);
  kv.close();
  await queue?.closed;
  Deno.exit(0);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => void shutdown(signal));
}
