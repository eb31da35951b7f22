import type { EventMessage } from "../events/emit.ts";
import { dispatch, type QueueHandlers } from "../events/queue.ts";
import type { Logger } from "../lib/log.ts";
import { withLease } from "../store/lease.ts";
import { listOutbox } from "../store/outbox.ts";

/** What the drain uses of the app's services. */
export interface DrainDeps {
  kv: Deno.Kv;
  log: Logger;
  now: () => number;
}

/** Every minute (cron's finest step); registered everywhere, it drains where events use the outbox. */
export const OUTBOX_DRAIN_SCHEDULE = "* * * * *";
/** Younger entries are left to the hand-over of the process that committed them. */
export const OUTBOX_GRACE_MS = 30_000;
/** A run stops taking entries after this long; its lease outlasts that and one delivery. */
const RUN_BUDGET_MS = 40_000;
const LEASE_MS = 55_000;
/** Events handled at once (each sends to at most 25 subscriptions). */
const PARALLEL = 8;

export interface DrainOptions {
  /** Entries younger than this are skipped (default {@link OUTBOX_GRACE_MS}). */
  graceMs?: number;
  /** Stops taking entries (shutdown); those under way finish. */
  signal?: AbortSignal;
}

/**
 * The outbox's cron job: hands each event a dead process left in the outbox (older than the
 * grace period, oldest first) to the `event` handler as its transport's copy, which sends the
 * unclaimed and stale pairs and removes the entry once every pair is done (or the event is too
 * old to send). An entry with a pair still under way, or whose handling fails on storage,
 * stays for the next run.
 * Several processes may fire the job: a KV lease lets one run at a time. Resolves to the number
 * of events handled, or null when another process holds the lease.
 */
export async function drainOutbox(
  deps: DrainDeps,
  handlers: QueueHandlers,
  options: DrainOptions = {},
): Promise<number | null> {
  const graceMs = options.graceMs ?? OUTBOX_GRACE_MS;
  let handled = 0;
  const ran = await withLease(deps.kv, "outbox-drain", LEASE_MS, deps.now, async () => {
    const started = deps.now();
    const stop = () => options.signal?.aborted || deps.now() - started > RUN_BUDGET_MS;
    const batch: Promise<void>[] = [];
    const handle = async (event: EventMessage["event"]) => {
      try {
        await dispatch(deps, handlers, { kind: "event", event } satisfies EventMessage);
        handled++;
      } catch (err) {
        deps.log.warn("outbox event not delivered; next run retries", {
          eventId: event.id,
          error: String(err),
        });
      }
    };
    for await (const { value: event } of listOutbox(deps.kv)) {
      if (stop() || deps.now() - Date.parse(event.createdAt) < graceMs) break;
      batch.push(handle(event));
      if (batch.length >= PARALLEL) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);
  });
  if (ran && handled) deps.log.info("outbox drained", { events: handled });
  return ran ? handled : null;
}
