/**
 * Every background job of the service, by name: the queue message kinds (routed by `kind`) and
 * the cron jobs. `main.ts` registers all of them, whatever the configuration; a job with
 * nothing to do on this deployment returns at once. Each wing adds its own entries here
 * (relays, digests, the carrier tracker, mailbox polling).
 */
import type { AppDeps } from "../deps.ts";
import { combineHandlers, type QueueHandlers } from "../events/queue.ts";
import { webhookHandlers } from "../webhooks/delivery.ts";
import { DIGEST_SCHEDULE, runDigests } from "../chat/digest.ts";
import { relayHandlers } from "../chat/relay.ts";
import { drainOutbox, OUTBOX_DRAIN_SCHEDULE } from "./outbox_drain.ts";

export interface CronJob {
  /** Fixed: Deno Deploy identifies a cron job by its name. */
  name: string;
  /** Five-field cron expression (UTC). */
  schedule: string;
  /** One run; stops taking new work when `signal` aborts (shutdown). */
  run(signal: AbortSignal): Promise<unknown>;
}

export interface Jobs {
  queue: QueueHandlers;
  cron: CronJob[];
}

/** The service's jobs for one set of dependencies. */
export function serviceJobs(deps: AppDeps): Jobs {
  // Every consumer of committed events: webhook delivery, chat update relays.
  const queue: QueueHandlers = combineHandlers(
    webhookHandlers(deps),
    relayHandlers(deps),
  );
  const cron: CronJob[] = [
    {
      name: "outbox drain",
      schedule: OUTBOX_DRAIN_SCHEDULE,
      // Only a store without queues has an outbox; elsewhere the queue redelivers instead.
      run: (signal) =>
        deps.events.transport.name === "outbox"
          ? drainOutbox(deps, queue, { signal })
          : Promise.resolve(),
    },
    {
      name: "chat digest",
      schedule: DIGEST_SCHEDULE,
      run: (signal) => runDigests(deps, { signal }),
    },
  ];
  return { queue, cron };
}
