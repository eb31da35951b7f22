import { deepStrictEqual as eq, equal, rejects } from "node:assert/strict";
import { createLogger } from "../../src/lib/log.ts";
import { currentTraceId, tracingOn, withSpan } from "../../src/lib/tracing.ts";

Deno.test({
  name: "tracing off (no OTEL_DENO): spans call straight through, log lines name no trace",
  // The process's own switch: a test run with OpenTelemetry on has it on.
  ignore: Boolean(Deno.env.get("OTEL_DENO") || Deno.env.get("DENO_DEPLOYMENT_ID")),
  fn: async () => {
    equal(tracingOn(), false);
    let attributesRead = false;
    const value = await withSpan("x", () => {
      attributesRead = true;
      return {};
    }, () => Promise.resolve(42));
    equal(value, 42);
    // Off, not even the attributes are built.
    equal(attributesRead, false);
    await rejects(withSpan("x", {}, () => Promise.reject(new Error("boom"))), { message: "boom" });
    equal(currentTraceId(), undefined);
    const lines: string[] = [];
    createLogger("info", (line) => lines.push(line)).info("hello", { a: 1 });
    eq(Object.keys(JSON.parse(lines[0])), ["time", "level", "msg", "a"]);
  },
});
