/**
 * Loads the entry module (main.ts) the way Deno Deploy discovers cron jobs: by evaluating it.
 * `Deno.cron` and `Deno.serve` are replaced by recorders that print one `PROBE {json}` line per
 * call, in call order; the first `Deno.serve` ends the process (status 0). Run as a child
 * process by entry_test.ts.
 */
const record = (call: Record<string, unknown>) => console.log(`PROBE ${JSON.stringify(call)}`);

Object.defineProperty(Deno, "cron", {
  configurable: true,
  value: (
    name: string,
    schedule: string,
    options: { backoffSchedule?: number[]; signal?: AbortSignal },
    handler: unknown,
  ) => {
    record({
      call: "cron",
      name,
      schedule,
      backoffSchedule: options.backoffSchedule,
      signal: options.signal instanceof AbortSignal,
      handler: typeof handler,
    });
    return Promise.resolve();
  },
});

Object.defineProperty(Deno, "serve", {
  configurable: true,
  value: () => {
    record({ call: "serve" });
    Deno.exit(0);
  },
});

await import("../../main.ts");
