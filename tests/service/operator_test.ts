import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { CRON_JOBS } from "../../src/jobs/registry.ts";
import { scheduleCronJobs } from "../../src/jobs/schedule.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { migrateLayout } from "../../src/store/migrations/run.ts";
import { call, signUp, testApp } from "../helpers.ts";

interface Status {
  version: string;
  layoutVersion: number;
  deno: string;
  uptimeSeconds: number;
  persistence: string;
  kvSizeBytes: number | null;
  events: { transport: string; waiting: number | null };
  cronJobs: { name: string; lastRunAt: string | null; ok: boolean | null; runs: number }[];
  emailReaders: { configured: number; running: number; waiting: number };
  smtp: { enabled: boolean; listening: boolean };
  carriers: { api: string; purpose: string; left: number }[];
  problems: { kind: string; level: string; count: number }[];
  metricsEnabled: boolean;
}

Deno.test("operator status: the first account and OPERATOR_EMAILS see it; others get 404", async () => {
  await using ctx = await testApp({ OPERATOR_EMAILS: "Ops@Example.com, other@example.com" });
  const first = await signUp(ctx, { email: "first@example.com" });
  const listed = await signUp(ctx, { email: "ops@example.com" });
  const someone = await signUp(ctx, { email: "someone@example.com" });

  equal((await call(ctx, "GET", "/api/operator/status")).status, 401);
  const refused = await call(ctx, "GET", "/api/operator/status", { token: someone.token });
  equal(refused.status, 404);
  eq(refused.body, { error: "Not found" });
  for (const { token } of [first, listed]) {
    equal((await call(ctx, "GET", "/api/operator/status", { token })).status, 200);
  }
  // GET /api/auth/me says who is the operator, so the dashboard links the screen for them only.
  const operatorOf = async (token: string) =>
    (await call<{ operator: boolean }>(ctx, "GET", "/api/auth/me", { token })).body.operator;
  eq(
    await Promise.all([first, listed, someone].map(({ token }) => operatorOf(token))),
    [true, true, false],
  );
});

Deno.test("operator status: version, storage, events, cron runs, readers, budgets, problems", async () => {
  await using ctx = await testApp({
    EVENTS_TRANSPORT: "outbox",
    DHL_API_KEY: "dhl-key",
    TRACKING_DAILY_BUDGET: "100",
  });
  const { token } = await signUp(ctx);
  // A cron run through the real scheduler, with a registrar that runs each job's handler once.
  // A run of a real job's name that fails, through the real scheduler, with a registrar that
  // keeps each handler for the test to call.
  const job = CRON_JOBS[CRON_JOBS.length - 1].name;
  const failing = { name: job, schedule: "* * * * *", run: () => Promise.reject(new Error("x")) };
  const handlers: (() => Promise<void>)[] = [];
  const cron = scheduleCronJobs(
    [failing],
    Promise.resolve({} as never),
    (_name, _schedule, _options, handler) => {
      handlers.push(handler);
      return Promise.resolve();
    },
  );
  await handlers[0]().catch(() => {});
  await cron.stop();
  ctx.deps.log.warn("carrier call failed", { api: "dhl" });

  const before = await call<Status>(ctx, "GET", "/api/operator/status", { token });
  equal(before.body.layoutVersion, 0);
  // The store migrated as main.ts does at start: the status names the layout it is now at.
  const migrated = await migrateLayout(ctx.deps.kv, {
    log: ctx.deps.log,
    now: ctx.deps.now,
    release: "test",
  });
  ok(migrated.ok);
  const res = await call<Status>(ctx, "GET", "/api/operator/status", { token });
  equal(res.status, 200);
  equal(res.body.layoutVersion, MIGRATIONS.length);
  equal(res.headers.get("cache-control"), "no-store");
  const s = res.body;
  equal(s.deno, Deno.version.deno);
  equal(s.persistence, "memory");
  equal(s.kvSizeBytes, null);
  eq(s.events, { transport: "outbox", waiting: 0 });
  eq(s.cronJobs.map((j) => j.name), CRON_JOBS.map((j) => j.name));
  const ran = s.cronJobs.find((j) => j.name === job)!;
  equal(ran.ok, false);
  ok(ran.runs >= 1 && ran.lastRunAt !== null);
  eq(s.emailReaders, { configured: 0, running: 0, busy: 0, waiting: 0 });
  eq(s.smtp, { enabled: false, listening: false });
  eq(s.carriers, [{ api: "dhl", purpose: "tracker", left: 80 }, {
    api: "dhl",
    purpose: "lookup",
    left: 20,
  }]);
  const warned = s.problems.find((p) => p.kind === "carrier call failed");
  ok(warned && warned.level === "warn" && warned.count >= 1);
  equal(s.metricsEnabled, false);
});
