import { activity } from "../lib/activity.ts";
import { metrics } from "../lib/metrics.ts";
import { withSpan } from "../lib/tracing.ts";
import type { CronJob, JobContext } from "./registry.ts";

/** `Deno.cron`'s four-argument form (a test passes a recording one). */
export type CronRegistrar = (
  name: string,
  schedule: string,
  options: { backoffSchedule?: number[]; signal?: AbortSignal },
  handler: () => Promise<void>,
) => Promise<void>;

export interface CronSchedule {
  /** No new runs, and the runs under way stop taking work; resolves when they have ended. */
  stop(): Promise<void>;
}

/**
 * Registers every job with `cron` now, synchronously, before the service is ready: Deno Deploy
 * schedules only the cron jobs registered while it evaluates the module's top-level code,
 * before `Deno.serve`. Each run waits for `ready` (the service's jobs context), then runs the
 * job; a failed run is logged by the runtime and not retried (the next tick comes).
 */
export function scheduleCronJobs(
  jobs: readonly CronJob[],
  ready: Promise<JobContext>,
  cron: CronRegistrar = Deno.cron,
): CronSchedule {
  const stopping = new AbortController();
  const running = new Set<Promise<unknown>>();
  for (const job of jobs) {
    cron(job.name, job.schedule, { backoffSchedule: [], signal: stopping.signal }, async () => {
      const run = ready.then((context) => timed(job.name, () => job.run(context, stopping.signal)));
      running.add(run);
      try {
        await run;
      } finally {
        running.delete(run);
      }
    });
  }
  return {
    async stop() {
      stopping.abort();
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}

/** Runs one job, recording when it ended, how long it took and whether it failed. */
async function timed<T>(job: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let ok = false;
  try {
    const value = await withSpan(`cron ${job}`, { "cron.job": job }, run);
    ok = true;
    return value;
  } finally {
    const ms = performance.now() - started;
    metrics.cronRun(job, Date.now(), ms / 1000, ok);
    activity.cronRun(job, Date.now(), ms, ok);
  }
}
