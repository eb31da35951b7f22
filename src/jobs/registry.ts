/**
 * Every background job of the service, by name: the queue message kinds (routed by `kind`) and
 * the cron jobs. The cron jobs are a fixed list, known before anything is opened, so `main.ts`
 * registers all of them at the top of the module whatever the configuration (Deno Deploy finds
 * cron jobs by evaluating that code); a run waits for the service to be ready, and a job with
 * nothing to do on this deployment returns at once. Each wing adds its own entries here
 * (relays, digests, the carrier tracker, mailbox polling).
 */
import type { IntakeDeps } from "../intake/deps.ts";
import type { WebhookDeps } from "../webhooks/send.ts";
import { combineHandlers, type QueueDeps, type QueueHandlers } from "../events/queue.ts";
import { pollMailboxes } from "../intake/imap/poll.ts";
import { webhookHandlers } from "../webhooks/delivery.ts";
import { DIGEST_SCHEDULE, type DigestDeps, runDigests } from "../chat/digest.ts";
import { relayHandlers } from "../chat/relay.ts";
import { drainOutbox, OUTBOX_DRAIN_SCHEDULE } from "./outbox_drain.ts";
import { everyMinutes } from "../lib/periods.ts";
import { runTracker, TRACKER_JOB, type TrackerDeps } from "../tracking/tracker.ts";

/**
 * What the jobs use of the app's services: what each wing they run takes (`AppDeps` satisfies
 * it), not the whole of `AppDeps`.
 */
export type JobDeps = QueueDeps & WebhookDeps & DigestDeps & TrackerDeps & IntakeDeps;

/** What a run needs: the service's dependencies and its queue handlers (built once). */
export interface JobContext {
  deps: JobDeps;
  queue: QueueHandlers;
}

export interface CronJob {
  /** Fixed: Deno Deploy identifies a cron job by its name. */
  name: string;
  /** Five-field cron expression (UTC). */
  schedule: string;
  /** One run; stops taking new work when `signal` aborts (shutdown). */
  run(context: JobContext, signal: AbortSignal): Promise<unknown>;
}

/** The queue message kinds, each with its handler, for one set of dependencies. */
function queueHandlers(deps: JobDeps): QueueHandlers {
  // Every consumer of committed events: webhook delivery, chat update relays.
  return combineHandlers(webhookHandlers(deps), relayHandlers(deps));
}

/** The jobs' context for one set of dependencies. */
export function jobContext(deps: JobDeps): JobContext {
  return { deps, queue: queueHandlers(deps) };
}

/** Every cron job of the service. */
export const CRON_JOBS: readonly CronJob[] = [
  {
    name: "outbox drain",
    schedule: OUTBOX_DRAIN_SCHEDULE,
    // Only a store without queues has an outbox; elsewhere the queue redelivers instead.
    run: ({ deps, queue }, signal) =>
      deps.events.transport.name === "outbox"
        ? drainOutbox(deps, queue, { signal })
        : Promise.resolve(),
  },
  {
    name: TRACKER_JOB,
    // Deploy reads schedules before the configuration, so the job ticks every minute and a
    // pass goes ahead on the minutes TRACKING_POLL_MINUTES falls on (0: never). It returns at
    // once when no carrier has credentials.
    schedule: "* * * * *",
    run: ({ deps }, signal) =>
      everyMinutes(deps.now(), deps.config.tracking.pollMinutes)
        ? runTracker(deps, { signal })
        : Promise.resolve(),
  },
  {
    name: "mailbox poll",
    // Like the tracker: a fixed schedule, passes on the IMAP_POLL_MINUTES minutes. Every due
    // imap source, each under its own lease; none: returns at once.
    schedule: "* * * * *",
    run: ({ deps }, signal) =>
      everyMinutes(deps.now(), deps.config.imapPollMinutes)
        ? pollMailboxes(deps, signal)
        : Promise.resolve(),
  },
  {
    name: "chat digest",
    schedule: DIGEST_SCHEDULE,
    run: ({ deps }, signal) => runDigests(deps, { signal }),
  },
];
