import { deepStrictEqual as eq, equal, ok, rejects } from "node:assert/strict";
import { combineHandlers } from "../../src/events/queue.ts";
import { CRON_JOBS, jobContext } from "../../src/jobs/registry.ts";
import { type CronRegistrar, scheduleCronJobs } from "../../src/jobs/schedule.ts";
import { keys } from "../../src/store/keys.ts";
import { testApp } from "../helpers.ts";

const outboxDrain = CRON_JOBS.find((job) => job.name === "outbox drain")!;

Deno.test("the registry names every job once; queue kinds route to their handlers", async () => {
  await using ctx = await testApp();
  eq(Object.keys(jobContext(ctx.deps).queue).sort(), ["delivery", "event"]);
  const names = CRON_JOBS.map((job) => job.name);
  eq(names, ["outbox drain", "carrier tracker", "mailbox poll", "chat digest"]);
  equal(new Set(names).size, names.length);
  for (const job of CRON_JOBS) {
    // What Deno.cron (and Deno Deploy) accept as a name; five fields, UTC.
    ok(/^[A-Za-z0-9 _-]{1,64}$/.test(job.name), job.name);
    equal(job.schedule.split(" ").length, 5);
  }
});

Deno.test("a cron job with nothing to do on this deployment returns at once", async () => {
  await using ctx = await testApp();
  equal(ctx.deps.events.transport.name, "queue");
  equal(await outboxDrain.run(jobContext(ctx.deps), new AbortController().signal), undefined);
  // It took no lease: the store has no outbox to drain.
  equal((await ctx.kv.get(keys.lease("outbox-drain"))).versionstamp, null);
});

Deno.test("with the outbox, the drain job runs under its lease", async () => {
  await using ctx = await testApp({}, { deps: { events: "outbox" } });
  equal(await outboxDrain.run(jobContext(ctx.deps), new AbortController().signal), 0);
});

Deno.test("scheduled runs wait for the service; stop() waits for the runs under way", async () => {
  const handlers = new Map<string, () => Promise<void>>();
  const registered: { name: string; schedule: string; backoff?: number[]; signal?: boolean }[] = [];
  const cron: CronRegistrar = (name, schedule, options, handler) => {
    registered.push({
      name,
      schedule,
      backoff: options.backoffSchedule,
      signal: options.signal instanceof AbortSignal,
    });
    handlers.set(name, handler);
    return Promise.resolve();
  };
  const ready = Promise.withResolvers<never>();
  const log: string[] = [];
  const finish = Promise.withResolvers<void>();
  let seen: AbortSignal | undefined;
  const schedule = scheduleCronJobs(
    [{
      name: "probe",
      schedule: "* * * * *",
      run: async (context, signal) => {
        seen = signal;
        log.push(`run ${typeof context}`);
        await finish.promise;
        log.push("done");
      },
    }],
    ready.promise,
    cron,
  );
  // Registered at once, before anything is ready.
  eq(registered, [{ name: "probe", schedule: "* * * * *", backoff: [], signal: true }]);
  const tick = handlers.get("probe")!();
  await new Promise((r) => setTimeout(r, 20));
  eq(log, []);
  ready.resolve({} as never);
  await new Promise((r) => setTimeout(r, 20));
  eq(log, ["run object"]);
  let stopped = false;
  const stopping = schedule.stop().then(() => stopped = true);
  await new Promise((r) => setTimeout(r, 20));
  equal(seen?.aborted, true);
  equal(stopped, false);
  finish.resolve();
  await stopping;
  await tick;
  eq(log, ["run object", "done"]);
});

Deno.test("mailbox polling passes on the IMAP_POLL_MINUTES minutes; with no mailbox it returns at once", async () => {
  const poll = CRON_JOBS.find((job) => job.name === "mailbox poll")!;
  equal(poll.schedule, "* * * * *");
  const at = (minute: number) => () => Date.UTC(2026, 0, 5, 9, minute, 30);
  await using ctx = await testApp({}, { now: at(10) });
  eq(await poll.run(jobContext(ctx.deps), new AbortController().signal), { polled: 0, failed: 0 });
  await using off = await testApp({}, { now: at(11) });
  equal(await poll.run(jobContext(off.deps), new AbortController().signal), undefined);
});

Deno.test("combineHandlers: every consumer of a kind runs; one failing fails the message", async () => {
  const ran: string[] = [];
  const handlers = combineHandlers(
    { event: (m) => Promise.resolve(void ran.push(`a:${m.n}`)), delivery: () => Promise.resolve() },
    {
      event: (m) =>
        m.n === 2
          ? Promise.reject(new Error("storage"))
          : Promise.resolve(void ran.push(`b:${m.n}`)),
    },
  );
  eq(Object.keys(handlers).sort(), ["delivery", "event"]);
  await handlers.event({ kind: "event", n: 1 });
  eq(ran.sort(), ["a:1", "b:1"]);
  await rejects(handlers.event({ kind: "event", n: 2 }), /storage/);
  eq(ran.sort(), ["a:1", "a:2", "b:1"], "the other consumer still ran");
});
