import { createRoute } from "@hono/zod-openapi";
import { jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { layoutState } from "../../store/migrations/run.ts";
import { probeStorage } from "../../store/service/stats.ts";
import { VERSION } from "../../version.ts";
import process from "node:process";
import { HealthSchema } from "../../schemas/service/health.ts";

interface Probe {
  ok: boolean;
  counts: { users: number; orders: number };
  layout: { version: number; pending: number };
  at: number;
}

/** Storage is probed at most once a second; concurrent health checks share the probe. */
const PROBE_TTL_MS = 1000;
const probes = new WeakMap<Deno.Kv, { last?: Probe; running?: Promise<Probe> }>();

/** The last probe while it is fresh (no await on the hot path), else the running one. */
function probe(kv: Deno.Kv): Probe | Promise<Probe> {
  let state = probes.get(kv);
  if (!state) probes.set(kv, state = {});
  const now = Date.now();
  if (state.last && now - state.last.at < PROBE_TTL_MS) return state.last;
  return state.running ??= runProbe(kv, now).then((result) => {
    state.last = result;
    state.running = undefined;
    return result;
  });
}

async function runProbe(kv: Deno.Kv, now: number): Promise<Probe> {
  try {
    const [{ ok, counts }, layout] = await Promise.all([probeStorage(kv), layoutState(kv)]);
    return { ok, counts: { users: counts.users, orders: counts.orders }, layout, at: now };
  } catch {
    return {
      ok: false,
      counts: { users: 0, orders: 0 },
      layout: { version: 0, pending: 0 },
      at: now,
    };
  }
}

const getHealthRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Service"],
  summary: "Liveness and storage health",
  description: "Probes storage with a write and a read (at most once a second). Never cached.",
  responses: {
    200: jsonResponse(HealthSchema, "Healthy"),
    503: jsonResponse(HealthSchema, "Storage is unhealthy"),
  },
});

export const getHealth: AppRouteHandler<typeof getHealthRoute> = async (c) => {
  const deps = c.var.deps;
  const pending = probe(deps.kv);
  const p = pending instanceof Promise ? await pending : pending;
  c.header("Cache-Control", "no-store");
  const body = {
    ok: p.ok,
    uptimeMs: Date.now() - deps.startedAt,
    version: VERSION,
    node: process.versions.node,
    runtime: `deno ${Deno.version.deno}`,
    persistence: deps.persistence,
    counts: p.counts,
    layout: p.layout,
  };
  return p.ok ? c.json(body, 200) : c.json({ ...body, error: "Storage is unhealthy" }, 503);
};

export const healthRoutes = createRouter().openapi(getHealthRoute, getHealth);
