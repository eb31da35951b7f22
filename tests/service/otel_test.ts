/**
 * Deno's built-in OpenTelemetry with the real service: main.ts runs as a child process with
 * `OTEL_DENO=true`, exporting OTLP/HTTP (JSON) to a receiver this test runs. A request, an email
 * import (read by a reader worker) and the webhook delivery of an order each arrive as one
 * connected trace, and the service's log lines name their trace.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startService } from "../../scripts/service.ts";
import { orderMail } from "../intake/helpers.ts";
import { sleep, startReceiver } from "../net/receiver.ts";
import { post } from "../process_load.ts";

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: OtlpValue }[];
}

/** Every span of every OTLP/JSON trace export the receiver got. */
function spansOf(bodies: string[]): OtlpSpan[] {
  return bodies.flatMap((body) =>
    (JSON.parse(body).resourceSpans ?? []).flatMap((
      rs: { scopeSpans?: { spans?: OtlpSpan[] }[] },
    ) => (rs.scopeSpans ?? []).flatMap((ss) => ss.spans ?? []))
  );
}

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : String(v.intValue));
};

/** The trace's spans, checked to form one tree: one root, every other parent in the trace. */
function connectedTrace(spans: OtlpSpan[], traceId: string): OtlpSpan[] {
  const trace = spans.filter((s) => s.traceId === traceId);
  const ids = new Set(trace.map((s) => s.spanId));
  const roots = trace.filter((s) => !s.parentSpanId);
  assert.equal(roots.length, 1, `one root in ${trace.map((s) => s.name).join(", ")}`);
  for (const span of trace) {
    if (span.parentSpanId) assert.ok(ids.has(span.parentSpanId), `${span.name}'s parent is there`);
  }
  return trace;
}

Deno.test("process: OTEL_DENO exports connected traces of a request, an email import and a webhook delivery", async () => {
  const dir = await Deno.makeTempDir();
  await using otlp = startReceiver({
    reply: () => new Response("{}", { headers: { "content-type": "application/json" } }),
  });
  await using hooks = startReceiver({ reply: () => new Response(null, { status: 204 }) });
  const service = await startService({
    env: {
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url(""),
      OTEL_SERVICE_NAME: "order-tracker-test",
      KV_PATH: join(dir, "kv.sqlite3"),
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
      EMAIL_READERS: "1",
      LOG_LEVEL: "info",
    },
  });
  let stdout: string[] = [];
  try {
    const { token } = await post<{ token: string }>(service.url, "/api/auth/register", null, {
      email: "otel@example.com",
      password: "correct horse battery staple",
    });
    await post(service.url, "/api/webhook-subscriptions", token, {
      url: hooks.url("/hook"),
      eventTypes: ["order.created"],
    });
    const order = await post<{ order: { id: string } }>(service.url, "/api/orders", token, {
      itemSummary: "Desk lamp",
    });
    const got = await fetch(`${service.url}/api/orders/${order.order.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(got.status, 200);
    await got.body?.cancel();
    const imported = await fetch(`${service.url}/api/email/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ raw: orderMail(8080) }),
    });
    assert.equal(imported.status, 202);
    await imported.body?.cancel();
    // Both orders' order.created reach the receiver.
    await hooks.waitFor(2, 20_000);
    await sleep(300);
  } finally {
    // Spans still batched are exported as the process exits.
    stdout = (await service.stop("SIGTERM")).stdout;
  }
  const traces = () => otlp.requests.filter((r) => r.path === "/v1/traces").map((r) => r.body);
  for (let i = 0; i < 100 && !spansOf(traces()).some((s) => s.name === "email.read"); i++) {
    await sleep(50);
  }
  const spans = spansOf(traces());
  const byRoute = (route: string) => spans.filter((s) => attr(s, "http.route") === route);

  // A request: the runtime's server span, named by its route template, never the id.
  const [get] = byRoute("/api/orders/:id");
  assert.ok(get, `a span for GET /api/orders/:id among ${spans.map((s) => s.name).join(", ")}`);
  assert.equal(get.name, "GET /api/orders/:id");
  connectedTrace(spans, get.traceId);

  // The email import: the request, the reading (in the worker) and the order's commit.
  const [imported] = byRoute("/api/email/import");
  const importTrace = connectedTrace(spans, imported.traceId).map((s) => s.name);
  for (const name of ["POST /api/email/import", "email.read", "order.commit"]) {
    assert.ok(importTrace.includes(name), `${name} in ${importTrace.join(", ")}`);
  }
  const read = spans.find((s) => s.traceId === imported.traceId && s.name === "email.read")!;
  assert.equal(attr(read, "email.reader"), "worker");
  assert.equal(attr(read, "email.reading"), "order");

  // The webhook delivery of the order created by POST /api/orders, in that request's trace.
  const [created] = byRoute("/api/orders").filter((s) => s.name === "POST /api/orders");
  const deliveryTrace = connectedTrace(spans, created.traceId);
  const attempt = deliveryTrace.find((s) => s.name === "webhook.attempt");
  assert.ok(attempt, `webhook.attempt in ${deliveryTrace.map((s) => s.name).join(", ")}`);
  assert.equal(attr(attempt, "webhook.outcome"), "delivered");
  assert.equal(attr(attempt, "webhook.event_type"), "order.created");

  // The request's log line names its trace.
  const logged = stdout.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l))
    .find((l) => l.msg === "request" && l.path === "/api/email/import");
  assert.equal(logged?.traceId, imported.traceId);
});
