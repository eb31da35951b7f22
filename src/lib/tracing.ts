/**
 * Spans of the service's own work, through `@opentelemetry/api`. With Deno's built-in
 * OpenTelemetry on (`OTEL_DENO=true`) they join the runtime's traces: the request span of
 * `Deno.serve` is their parent, and Deno exports them over OTLP (docs/operations.md). Off, the
 * helpers call straight through: no tracer, no context, no attribute objects.
 */
import { type Attributes, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * Read once: the runtime decides at start whether it exports telemetry. Deno Deploy turns its
 * OpenTelemetry on for every app, whatever the environment says.
 */
const ON = (() => {
  try {
    const env = (name: string) => Deno.env.get(name);
    return ["true", "1"].includes(env("OTEL_DENO") ?? "") ||
      Boolean(env("DENO_DEPLOYMENT_ID") || env("DENO_DEPLOY"));
  } catch {
    // No env permission (a restricted worker): no tracing.
    return false;
  }
})();

const tracer = trace.getTracer("order-tracker");

/** Whether spans are made (OTEL_DENO set, or on Deno Deploy). */
export function tracingOn(): boolean {
  return ON;
}

/**
 * Runs `fn` inside a span named `name` (a child of the active span, if any); a throw marks the
 * span as an error and is rethrown. `attributes` must hold no personal data or secrets.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes | (() => Attributes),
  fn: () => Promise<T>,
): Promise<T> {
  if (!ON) return fn();
  const attrs = typeof attributes === "function" ? attributes() : attributes;
  return tracer.startActiveSpan(name, { attributes: attrs }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: err instanceof Error ? err.name : "error",
      });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Adds attributes to the active span (an outcome known only at the end). */
export function annotate(attributes: Attributes): void {
  if (ON) trace.getActiveSpan()?.setAttributes(attributes);
}

/**
 * Names the runtime's request span by its route template (`GET /api/orders/:id`), the
 * `http.route` of OpenTelemetry's HTTP conventions.
 */
export function nameRequestSpan(method: string, route: string): void {
  if (!ON) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute("http.route", route);
  span.updateName(`${method} ${route}`);
}

/** The active trace's id, for log lines; undefined when tracing is off or no span is active. */
export function currentTraceId(): string | undefined {
  if (!ON) return undefined;
  const context = trace.getActiveSpan()?.spanContext();
  return context && context.traceId !== "00000000000000000000000000000000"
    ? context.traceId
    : undefined;
}
