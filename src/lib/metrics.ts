/**
 * The service's Prometheus metrics (`GET /metrics`), a leaf every layer may call. Recording is
 * off until {@link enableMetrics} (when `METRICS_TOKEN` is set): each call is then one boolean
 * test, so a deployment without metrics pays nothing measurable (docs/benchmarks.md).
 *
 * Counters and histograms are this process's since it started (Prometheus' `rate()` copes with
 * restarts); label values come from closed sets (route templates, enums), never ids, emails or
 * URLs. Gauges that are read from elsewhere (queue lengths, budgets) are asked at scrape time.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";

const P = "order_tracker_";
const PER_PROCESS = " (this process, since it started)";

const registry = new Registry();
let enabled = false;

/** Starts recording (idempotent). */
export function enableMetrics(): void {
  enabled = true;
}

/** Whether anything is recorded (tests, the status screen). */
export function metricsEnabled(): boolean {
  return enabled;
}

const counter = (name: string, help: string, labelNames: string[] = []) =>
  new Counter({ name: P + name, help: help + PER_PROCESS, labelNames, registers: [registry] });
const gauge = (name: string, help: string, labelNames: string[] = []) =>
  new Gauge({ name: P + name, help, labelNames, registers: [registry] });
const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
  new Histogram({
    name: P + name,
    help: help + PER_PROCESS,
    labelNames,
    buckets,
    registers: [registry],
  });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const http = histogram(
  "http_request_duration_seconds",
  "HTTP requests by route template, method and status class, and how long they took",
  ["route", "method", "status"],
  LATENCY_BUCKETS,
);
const httpRequests = counter(
  "http_requests_total",
  "HTTP requests by route template, method and status class",
  ["route", "method", "status"],
);
const kvCommits = counter("kv_commits_total", "KV commits by result", ["result"]);
const kvRetries = counter(
  "kv_commit_retries_total",
  "KV commits tried again: the file's write lock was held (locked), a check failed (conflict), or a shared commit was refused and its changes committed one by one (group_split)",
  ["reason"],
);
const kvGroupCommits = histogram(
  "kv_group_commit_changes",
  "Changes that shared one KV commit (group commit of order changes): 1 when a change committed alone",
  [],
  [1, 2, 4, 8, 16, 32, 64],
);
const eventsHandedOff = counter(
  "events_handed_off_total",
  "Events committed with their hand-off (queue message or outbox entry)",
  ["transport"],
);
const webhookDeliveries = counter(
  "webhook_deliveries_total",
  "Webhook delivery attempts by outcome",
  ["outcome"],
);
const webhook = histogram(
  "webhook_delivery_duration_seconds",
  "Webhook delivery attempts by outcome, and how long the receiver took",
  ["outcome"],
  LATENCY_BUCKETS,
);
const intake = counter("intake_messages_total", "Messages received by channel and outcome", [
  "channel",
  "outcome",
]);
const carrierLookups = counter("carrier_lookups_total", "Carrier lookups by carrier and result", [
  "carrier",
  "result",
]);
const cronLastRun = gauge(
  "cron_last_run_timestamp_seconds",
  "When each cron job's last run in this process ended (Unix time)",
  ["job"],
);
const cronDuration = gauge(
  "cron_last_run_duration_seconds",
  "How long each cron job's last run in this process took",
  ["job"],
);
const cronSuccess = gauge(
  "cron_last_run_success",
  "1 when each cron job's last run in this process succeeded, 0 when it failed",
  ["job"],
);
const cronRuns = counter("cron_runs_total", "Cron job runs by job and result", ["job", "result"]);
const smtpSessions = counter("smtp_sessions_total", "Connections to the SMTP receiver");
const smtpRefusals = counter(
  "smtp_refusals_total",
  "Commands the SMTP receiver refused, by reply code",
  ["code"],
);
const imapPolls = counter("imap_polls_total", "Mailbox polls by result", ["result"]);
const buildInfo = gauge(
  "build_info",
  "The running build: always 1, with its version, KV layout version and Deno version",
  ["version", "layout_version", "deno_version"],
);

/** A gauge read when Prometheus scrapes: its value, or values by label set. */
type Reading = number | { labels: Record<string, string>; value: number }[];
type Source = () => Reading | Promise<Reading>;
const sources = new Map<string, Source>();

/** Gauges whose value lives elsewhere; each asks its source at scrape time. */
const WATCHED = {
  events_waiting: ["Events whose hand-off waits in the outbox (outbox transport only)", []],
  event_handlers_running: ["Event and delivery handlers running in this process", []],
  email_reader_workers: ["Reader workers running for email", []],
  email_reader_queue: ["Messages waiting for a reader worker", []],
  carrier_budget_left: ["Calls left today for each carrier API and purpose", ["api", "purpose"]],
  smtp_receiver_up: ["1 when the built-in SMTP receiver is listening", []],
} as const satisfies Record<string, readonly [string, readonly string[]]>;
export type WatchedGauge = keyof typeof WATCHED;

for (const [name, [help, labelNames]] of Object.entries(WATCHED)) {
  new Gauge({
    name: P + name,
    help,
    labelNames: [...labelNames],
    registers: [registry],
    async collect() {
      this.reset();
      const source = sources.get(name);
      if (!source) return;
      const reading = await source();
      if (typeof reading === "number") this.set(reading);
      else for (const { labels, value } of reading) this.set(labels, value);
    },
  });
}

/** Has `name` read from `source` at each scrape (the last one given wins). */
export function watchGauge(name: WatchedGauge, source: Source): void {
  sources.set(name, source);
}

/** The build facts; `layoutVersion` when the store has one. */
export function setBuildInfo(info: { version: string; layoutVersion?: number | string }): void {
  buildInfo.reset();
  buildInfo.set({
    version: info.version,
    layout_version: info.layoutVersion === undefined ? "" : String(info.layoutVersion),
    deno_version: Deno.version.deno,
  }, 1);
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** What the service's layers report; every call is a no-op while metrics are off. */
export const metrics = {
  httpRequest(route: string, method: string, status: number, seconds: number): void {
    if (!enabled) return;
    const labels = { route, method, status: statusClass(status) };
    httpRequests.inc(labels);
    http.observe(labels, seconds);
  },
  kvCommit(result: "ok" | "check_failed" | "error"): void {
    if (enabled) kvCommits.inc({ result });
  },
  kvRetry(reason: "locked" | "conflict" | "group_split"): void {
    if (enabled) kvRetries.inc({ reason });
  },
  kvGroupCommit(changes: number): void {
    if (enabled) kvGroupCommits.observe({}, changes);
  },
  eventHandedOff(transport: string): void {
    if (enabled) eventsHandedOff.inc({ transport });
  },
  webhookAttempt(
    outcome: "delivered" | "http_error" | "network_error" | "skipped",
    seconds: number,
  ): void {
    if (!enabled) return;
    webhookDeliveries.inc({ outcome });
    webhook.observe({ outcome }, seconds);
  },
  intakeMessage(channel: string, outcome: string): void {
    if (enabled) intake.inc({ channel, outcome });
  },
  carrierLookup(carrier: string, result: string): void {
    if (enabled) carrierLookups.inc({ carrier, result });
  },
  cronRun(job: string, endedAt: number, seconds: number, ok: boolean): void {
    if (!enabled) return;
    cronLastRun.set({ job }, endedAt / 1000);
    cronDuration.set({ job }, seconds);
    cronSuccess.set({ job }, ok ? 1 : 0);
    cronRuns.inc({ job, result: ok ? "ok" : "failed" });
  },
  smtpSession(): void {
    if (enabled) smtpSessions.inc();
  },
  smtpRefusal(code: number): void {
    if (enabled) smtpRefusals.inc({ code: String(code) });
  },
  imapPoll(result: "ok" | "failed" | "error"): void {
    if (enabled) imapPolls.inc({ result });
  },
};

/** The exposition's media type (text format 0.0.4). */
export const METRICS_CONTENT_TYPE = registry.contentType;

/** Every metric in the Prometheus text format. */
export function renderMetrics(): Promise<string> {
  return registry.metrics();
}
