/** The response body of `GET /api/healthz`. */
import { z } from "@hono/zod-openapi";

export const HealthSchema = z.object({
  ok: z.boolean(),
  uptimeMs: z.number().int(),
  version: z.string().openapi({ description: "Version of the running deployment" }),
  node: z.string().openapi({ description: "Node.js compatibility level of the runtime" }),
  runtime: z.string().openapi({ description: "The runtime and its version" }),
  persistence: z.enum(["sqlite", "memory", "remote", "deploy"]).openapi({
    description:
      "KV backend: a local SQLite file, in-memory, a remote KV Connect store, or the KV database Deno Deploy assigns to the app",
  }),
  counts: z.object({ users: z.number().int(), orders: z.number().int() }),
  layout: z.object({
    version: z.number().int().openapi({ description: "The data layout version of the store" }),
    pending: z.number().int().openapi({
      description: "Migrations this release has that the store has not had yet (0 once current)",
    }),
  }).openapi({ description: "The stored data's layout (docs/deploy.md, Upgrading)" }),
  error: z.string().optional(),
}).openapi("Health");
