import { deepStrictEqual as eq, equal, rejects } from "node:assert/strict";
import { combineHandlers } from "../../src/events/queue.ts";
import { serviceJobs } from "../../src/jobs/registry.ts";
import { keys } from "../../src/store/keys.ts";
import { testApp } from "../helpers.ts";

Deno.test("the registry names every job once; queue kinds route to their handlers", async () => {
  await using ctx = await testApp();
  const jobs = serviceJobs(ctx.deps);
  eq(Object.keys(jobs.queue).sort(), ["delivery", "event"]);
  const names = jobs.cron.map((job) => job.name);
  eq(names, ["outbox drain", "chat digest"]);
  equal(new Set(names).size, names.length);
  for (const job of jobs.cron) equal(job.schedule.split(" ").length, 5);
});

Deno.test("a cron job with nothing to do on this deployment returns at once", async () => {
  await using ctx = await testApp();
  equal(ctx.deps.events.transport.name, "queue");
  const drain = serviceJobs(ctx.deps).cron.find((job) => job.name === "outbox drain")!;
  equal(await drain.run(new AbortController().signal), undefined);
  // It took no lease: the store has no outbox to drain.
  equal((await ctx.kv.get(keys.lease("outbox-drain"))).versionstamp, null);
});

Deno.test("with the outbox, the drain job runs under its lease", async () => {
  await using ctx = await testApp({}, { deps: { events: "outbox" } });
  const drain = serviceJobs(ctx.deps).cron.find((job) => job.name === "outbox drain")!;
  equal(await drain.run(new AbortController().signal), 0);
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
