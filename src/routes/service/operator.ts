/**
 * `GET /api/operator/status`: how this deployment is doing, for the person who runs it (the
 * first account, or an account in `OPERATOR_EMAILS`; anyone else gets 404, as if there were no
 * such page). Facts only: counts, states and times, never an account's data.
 */
import { createRoute, z } from "@hono/zod-openapi";
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

const Time = z.string().openapi({ example: "2026-11-26T17:00:00.000Z" });

const OperatorStatusSchema = z.object({
  version: z.string(),
  layoutVersion: z.number().int().optional().openapi({
    description: "The KV layout version, where the store records one",
  }),
  deno: z.string().openapi({ description: "Deno's version" }),
  startedAt: Time,
  uptimeSeconds: z.number().int(),
  persistence: z.enum(["sqlite", "memory", "remote", "deploy"]),
  kvSizeBytes: z.number().int().nullable().openapi({
    description: "The SQLite file and its write-ahead log; null where KV is not a local file",
  }),
  events: z.object({
    transport: z.enum(["queue", "outbox"]),
    waiting: z.number().int().nullable().openapi({
      description: "Outbox entries not yet settled (up to 10,000); null with the queue, whose " +
        "backlog KV does not expose",
    }),
  }),
  cronJobs: z.array(z.object({
    name: z.string(),
    schedule: z.string(),
    lastRunAt: Time.nullable().openapi({ description: "Null until it has run in this process" }),
    durationMs: z.number().int().nullable(),
    ok: z.boolean().nullable(),
    runs: z.number().int(),
    failures: z.number().int(),
  })),
  emailReaders: z.object({
    configured: z.number().int().openapi({ description: "`EMAIL_READERS`" }),
    running: z.number().int(),
    busy: z.number().int(),
    waiting: z.number().int(),
  }),
  smtp: z.object({
    enabled: z.boolean(),
    listening: z.boolean(),
    port: z.number().int().optional(),
  }),
  imap: z.object({
    pollMinutes: z.number().int(),
    lastPollAt: Time.nullable(),
    polls: z.object({ ok: z.number().int(), failed: z.number().int(), error: z.number().int() }),
  }),
  carriers: z.array(z.object({
    api: z.string(),
    purpose: z.enum(["tracker", "lookup"]),
    left: z.number().int().openapi({ description: "Calls left today (UTC)" }),
  })),
  metricsEnabled: z.boolean(),
  tracingEnabled: z.boolean(),
  problems: z.array(z.object({
    kind: z.string().openapi({ description: "The log message (a fixed text, no personal data)" }),
    level: z.enum(["warn", "error"]),
    count: z.number().int(),
    lastAt: Time,
  })).openapi({ description: "Warnings and errors logged by this process, newest first" }),
}).openapi("OperatorStatus");

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
