/**
 * `GET /api/operator/status`: how this deployment is doing, for the person who runs it (the
 * first account, or an account in `OPERATOR_EMAILS`; anyone else gets 404, as if there were no
 * such page). Facts only: counts, states and times, never an account's data.
 */
import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../../deps.ts";
import { currentUser } from "../../http/auth.ts";
import { notFound } from "../../http/errors.ts";
import { errors, jsonResponse, sessionOnly } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { CRON_JOBS } from "../../jobs/registry.ts";
import { activitySnapshot } from "../../lib/activity.ts";
import { metricsEnabled } from "../../lib/metrics.ts";
import { tracingOn } from "../../lib/tracing.ts";
import { layoutState } from "../../store/migrations/run.ts";
import { countOutbox } from "../../store/outbox.ts";
import { isOperator } from "../../store/account/users.ts";
import { VERSION } from "../../version.ts";
import { OperatorStatusSchema } from "../../schemas/service/operator.ts";

const getStatusRoute = createRoute({
  method: "get",
  path: "/status",
  tags: ["Service"],
  summary: "The deployment's status, for its operator",
  description: "For the first account and the accounts in `OPERATOR_EMAILS` (a session token); " +
    "404 for anyone else. Counters are this process's, since it started.",
  ...sessionOnly,
  responses: {
    200: jsonResponse(OperatorStatusSchema, "The status"),
    ...errors(401, 404),
  },
});

async function kvSize(deps: AppDeps): Promise<number | null> {
  const path = deps.config.kvPath;
  if (deps.persistence !== "sqlite" || !path) return null;
  let size = 0;
  for (const file of [path, `${path}-wal`]) {
    size += await Deno.stat(file).then((s) => s.size, () => 0);
  }
  return size;
}

export const getStatus: AppRouteHandler<typeof getStatusRoute> = async (c) => {
  const { config, kv } = c.var.deps;
  if (!await isOperator(kv, config.operatorEmails, await currentUser(c))) throw notFound();
  const deps = c.var.deps;
  const seen = activitySnapshot();
  const readers = deps.emailReader.stats();
  const transport = deps.events.transport.name;
  c.header("Cache-Control", "no-store");
  return c.json({
    version: VERSION,
    layoutVersion: (await layoutState(deps.kv)).version,
    deno: Deno.version.deno,
    startedAt: new Date(deps.startedAt).toISOString(),
    uptimeSeconds: Math.floor((Date.now() - deps.startedAt) / 1000),
    persistence: deps.persistence,
    kvSizeBytes: await kvSize(deps),
    events: { transport, waiting: transport === "outbox" ? await countOutbox(deps.kv) : null },
    cronJobs: CRON_JOBS.map(({ name, schedule }) => {
      const run = seen.cron[name];
      return {
        name,
        schedule,
        lastRunAt: run?.lastRunAt ?? null,
        durationMs: run?.durationMs ?? null,
        ok: run?.ok ?? null,
        runs: run?.runs ?? 0,
        failures: run?.failures ?? 0,
      };
    }),
    emailReaders: {
      configured: deps.config.emailReaders,
      running: readers.workers,
      busy: readers.busy,
      waiting: readers.waiting,
    },
    smtp: {
      enabled: deps.config.smtpReceiver.port !== undefined,
      listening: seen.smtp.listening,
      ...(seen.smtp.port === undefined ? {} : { port: seen.smtp.port }),
    },
    imap: {
      pollMinutes: deps.config.imapPollMinutes,
      lastPollAt: seen.imapPolls.lastAt ?? null,
      polls: { ok: seen.imapPolls.ok, failed: seen.imapPolls.failed, error: seen.imapPolls.error },
    },
    carriers: await deps.carriers.budgetsLeft(),
    metricsEnabled: metricsEnabled(),
    tracingEnabled: tracingOn(),
    problems: seen.problems.slice(0, 50),
  }, 200);
};

export const operatorRoutes = createRouter().openapi(getStatusRoute, getStatus);
