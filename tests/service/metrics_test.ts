import { deepStrictEqual as eq, equal, ok, throws } from "node:assert/strict";
import { testConfig } from "../../src/config.ts";
import { startSmtpReceiver } from "../../src/intake/smtp.ts";
import { scheduleCronJobs } from "../../src/jobs/schedule.ts";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { SmtpClient } from "../../scripts/smtp_client.ts";
import { journey, upsAnswer, upsNumber } from "../tracking/answers.ts";
import { NO_PACING, startFakes } from "../tracking/fakes.ts";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import { orderMail } from "../intake/helpers.ts";
import { startReceiver } from "../net/receiver.ts";
import { commitEvent, eventually, subscribe, webhookApp } from "../webhooks/helpers.ts";

const TOKEN = "metrics-token-0123456789";

interface Family {
  name: string;
  help: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string>; buckets?: Record<string, string> }[];
}

/** Scrapes `/metrics` and parses it with a Prometheus text-format parser. */
async function scrape(ctx: { app: TestContext["app"] }): Promise<Map<string, Family>> {
  const res = await ctx.app.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  equal(res.status, 200);
  equal(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  const families = parsePrometheusTextFormat(await res.text()) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

/** The value of the sample of `name` whose labels include `labels` (0 when absent). */
function value(families: Map<string, Family>, name: string, labels: Record<string, string> = {}) {
  const family = families.get(name);
  if (!family) throw new Error(`no metric ${name}`);
  const sample = family.metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)
  );
  return sample ? Number(sample.value) : 0;
}

Deno.test("metrics: off without METRICS_TOKEN (404), never public with it (401)", async () => {
  {
    await using ctx = await testApp();
    const off = await call(ctx, "GET", "/metrics", { token: TOKEN });
    equal(off.status, 404);
    eq(off.body, { error: "Not found" });
  }
  await using ctx = await testApp({ METRICS_TOKEN: TOKEN });
  equal((await call(ctx, "GET", "/metrics")).status, 401);
  const wrong = await call(ctx, "GET", "/metrics", { token: `${TOKEN}x` });
  equal(wrong.status, 401);
  eq(wrong.body, { error: "Unauthorized" });
  // A session token of an account is not the metrics token.
  const { token } = await signUp(ctx);
  equal((await call(ctx, "GET", "/metrics", { token })).status, 401);
  throws(() => testConfig({ METRICS_TOKEN: "short" }), {
    message: "Invalid METRICS_TOKEN: must be at least 16 characters",
  });
});

Deno.test("metrics: requests by route template, intake outcomes, KV commits, build info", async () => {
  await using ctx = await testApp({ METRICS_TOKEN: TOKEN });
  const { token } = await signUp(ctx);
  const before = await scrape(ctx);
  const route = { route: "/api/orders/:id", method: "GET" };
  const notFound = value(before, "order_tracker_http_requests_total", { ...route, status: "4xx" });

  for (const id of ["ord_nothing1", "ord_nothing2"]) {
    equal((await call(ctx, "GET", `/api/orders/${id}`, { token })).status, 404);
  }
  const raw = orderMail(4711);
  equal((await call(ctx, "POST", "/api/email/import", { token, body: { raw } })).status, 202);
  equal((await call(ctx, "POST", "/api/email/import", { token, body: { raw } })).status, 200);

  const after = await scrape(ctx);
  equal(
    value(after, "order_tracker_http_requests_total", { ...route, status: "4xx" }) - notFound,
    2,
  );
  // No id, no path: the route template is the only label value.
  const routes = after.get("order_tracker_http_requests_total")!.metrics.map((m) =>
    m.labels!.route
  );
  ok(routes.every((r) => !r.includes("ord_nothing")), routes.join(" "));
  equal(after.get("order_tracker_http_request_duration_seconds")?.type, "HISTOGRAM");
  for (const outcome of ["created", "duplicate"]) {
    const labels = { channel: "email", outcome };
    equal(
      value(after, "order_tracker_intake_messages_total", labels) -
        value(before, "order_tracker_intake_messages_total", labels),
      1,
      outcome,
    );
  }
  ok(
    value(after, "order_tracker_kv_commits_total", { result: "ok" }) >
      value(before, "order_tracker_kv_commits_total", { result: "ok" }),
  );
  const build = after.get("order_tracker_build_info")!;
  equal(build.metrics.length, 1);
  equal(build.metrics[0].labels!.deno_version, Deno.version.deno);
  equal(build.metrics[0].labels!.layout_version, String(MIGRATIONS.length));
  equal(build.metrics[0].value, "1");
  ok(/this process/.test(after.get("order_tracker_intake_messages_total")!.help));
  equal(value(after, "order_tracker_email_reader_workers"), 0);
  equal(value(after, "order_tracker_events_waiting"), 0);
});

Deno.test("metrics: webhook deliveries by outcome, events handed off, outbox waiting", async () => {
  await using receiver = startReceiver();
  await using ctx = await webhookApp({ env: { METRICS_TOKEN: TOKEN }, events: "outbox" });
  const { user, token } = await signUp(ctx);
  await subscribe(ctx, token, { url: receiver.url("/hook"), eventTypes: ["order.created"] });
  const before = await scrape(ctx);
  const delivered = { outcome: "delivered" };
  const outbox = { transport: "outbox" };
  await commitEvent(ctx, user.id, "order.created");
  await receiver.waitFor(1);
  // The hand-off settles once the outcome is recorded: nothing is left waiting.
  const after = await eventually(async () => {
    const f = await scrape(ctx);
    return value(f, "order_tracker_events_waiting") === 0 &&
      value(f, "order_tracker_webhook_deliveries_total", delivered) >
        value(before, "order_tracker_webhook_deliveries_total", delivered) &&
      f;
  });
  equal(
    value(after, "order_tracker_webhook_deliveries_total", delivered) -
      value(before, "order_tracker_webhook_deliveries_total", delivered),
    1,
  );
  equal(
    value(after, "order_tracker_events_handed_off_total", outbox) -
      value(before, "order_tracker_events_handed_off_total", outbox),
    1,
  );
  equal(after.get("order_tracker_webhook_delivery_duration_seconds")!.type, "HISTOGRAM");
});

Deno.test("metrics: carrier lookups by result and the budget left; SMTP sessions and refusals; cron runs", async () => {
  await using fakes = startFakes();
  await using ctx = await testApp({
    ...fakes.env,
    METRICS_TOKEN: TOKEN,
    MAIL_DOMAIN: "in.example.com",
    TRACKING_DAILY_BUDGET: "100",
  }, { deps: { carriers: NO_PACING } });
  const { token } = await signUp(ctx);
  const before = await scrape(ctx);
  const upsOk = { carrier: "ups", result: "ok" };

  const n = upsNumber(41);
  fakes.ups.parcels.set(n, upsAnswer(n, journey("2025-03-08T14:00:00Z", ["label"], 6)));
  const live = await call(ctx, "GET", `/api/carrier-status?trackingNumber=${n}`, { token });
  equal(live.status, 200);

  await using receiver = await startSmtpReceiver(ctx.deps, { port: 0, host: "127.0.0.1" });
  const [client] = await SmtpClient.connect(receiver.port);
  try {
    await client.command("EHLO mx.shop.example");
    await client.command("MAIL FROM:<orders@shop.example>");
    equal((await client.command("RCPT TO:<nobody@in.example.com>")).code, 550);
  } finally {
    client.close();
  }

  // A cron run that fails, through the real scheduler (a registrar keeps the handler).
  const handlers: (() => Promise<void>)[] = [];
  const cron = scheduleCronJobs(
    [{ name: "metrics probe", schedule: "* * * * *", run: () => Promise.reject(new Error("x")) }],
    Promise.resolve({} as never),
    (_name, _schedule, _options, handler) => Promise.resolve(void handlers.push(handler)),
  );
  await handlers[0]().catch(() => {});
  await cron.stop();

  const after = await scrape(ctx);
  const delta = (name: string, labels: Record<string, string> = {}) =>
    value(after, name, labels) - value(before, name, labels);
  equal(delta("order_tracker_carrier_lookups_total", upsOk), 1);
  // One tracking number: the token, then the answer, from the lookups' share (20 of 100).
  const upsLookups = { api: "ups", purpose: "lookup" };
  equal(value(after, "order_tracker_carrier_budget_left", upsLookups), 18);
  equal(value(after, "order_tracker_carrier_budget_left", { api: "dhl", purpose: "tracker" }), 80);
  equal(delta("order_tracker_smtp_sessions_total"), 1);
  equal(delta("order_tracker_smtp_refusals_total", { code: "550" }), 1);
  equal(value(after, "order_tracker_smtp_receiver_up"), 1);
  const job = { job: "metrics probe" };
  equal(value(after, "order_tracker_cron_last_run_success", job), 0);
  equal(delta("order_tracker_cron_runs_total", { ...job, result: "failed" }), 1);
  ok(value(after, "order_tracker_cron_last_run_timestamp_seconds", job) * 1000 <= Date.now());
});
