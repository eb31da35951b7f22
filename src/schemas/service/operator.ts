/** The response body of `GET /api/operator/status`. */
import { z } from "@hono/zod-openapi";

const Time = z.string().openapi({ example: "2026-11-26T17:00:00.000Z" });

export const OperatorStatusSchema = z.object({
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
