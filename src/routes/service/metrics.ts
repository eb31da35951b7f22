/**
 * `GET /metrics`: the Prometheus text exposition, for the operator's scraper. Off (404, and
 * nothing recorded) unless `METRICS_TOKEN` is set; then only with that bearer token. The
 * gauges read from storage (outbox, carrier budgets) are read at each scrape.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "../../deps.ts";
import { ErrorSchema, notFound, unauthorized } from "../../http/errors.ts";
import { json } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { timingSafeEqual } from "../../lib/crypto.ts";
import {
  enableMetrics,
  METRICS_CONTENT_TYPE,
  renderMetrics,
  setBuildInfo,
  watchGauge,
} from "../../lib/metrics.ts";
import { countOutbox } from "../../store/outbox.ts";
import { VERSION } from "../../version.ts";
import { MIGRATIONS } from "../../store/migrations/index.ts";

const getMetricsRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Service"],
  summary: "Prometheus metrics",
  description: "The service's metrics in the Prometheus text format (0.0.4): requests by route " +
    "template, KV commits, events, webhook deliveries, intake, carrier lookups and budgets, cron " +
    "jobs, the SMTP receiver and mailbox polls. Counters are this process's since it started. " +
    "Off (404) unless the deployment sets `METRICS_TOKEN`; then it takes only that token.",
  security: [{ MetricsToken: [] }],
  responses: {
    200: {
      description: "The metrics",
      content: { "text/plain": { schema: z.string() } },
    },
    401: { content: json(ErrorSchema), description: "Missing or wrong metrics token" },
    404: { content: json(ErrorSchema), description: "Metrics are off on this deployment" },
  },
});

/** Points the scrape-time gauges at this deployment's storage and services. */
function watchDeps(deps: AppDeps) {
  setBuildInfo({ version: VERSION, layoutVersion: MIGRATIONS.length });
  const reader = deps.emailReader;
  watchGauge("email_reader_workers", () => reader.stats().workers);
  watchGauge("email_reader_queue", () => reader.stats().waiting);
  watchGauge(
    "events_waiting",
    () => deps.events.transport.name === "outbox" ? countOutbox(deps.kv) : 0,
  );
  watchGauge(
    "carrier_budget_left",
    async () =>
      (await deps.carriers.budgetsLeft()).map(({ api, purpose, left }) => ({
        labels: { api, purpose },
        value: left,
      })),
  );
}

export const getMetrics: AppRouteHandler<typeof getMetricsRoute> = async (c) => {
  const deps = c.var.deps;
  const token = deps.config.metricsToken;
  if (!token) throw notFound();
  const given = c.req.header("authorization")?.match(/^Bearer (.+)$/i)?.[1] ?? "";
  if (!timingSafeEqual(given, token)) throw unauthorized();
  // Pointed at the scraped app's services each time (a test process runs several apps).
  watchDeps(deps);
  c.header("Cache-Control", "no-store");
  return c.text(await renderMetrics(), 200, { "Content-Type": METRICS_CONTENT_TYPE });
};

export const metricsRoutes = createRouter().openapi(getMetricsRoute, getMetrics);

/** Recording starts with the app when the deployment has a metrics token. */
export function startMetrics(deps: AppDeps): void {
  if (deps.config.metricsToken) enableMetrics();
}
