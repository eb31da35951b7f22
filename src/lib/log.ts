import { activity } from "./activity.ts";
import { currentTraceId } from "./tracing.ts";

/** `LOG_LEVEL`'s values, least severe first. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = typeof LOG_LEVELS[number];

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** One JSON object per line; errors and warnings to stderr. Callers never pass secrets. */
export function createLogger(level: LogLevel, sink?: (line: string) => void): Logger {
  const write = (at: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    // Counted whatever the level shown: the status screen's recent problems, by message.
    if (at === "warn" || at === "error") activity.problem(at, msg, Date.now());
    if (RANK[at] < RANK[level]) return;
    // With OpenTelemetry on, a line written inside a span names its trace.
    const traceId = currentTraceId();
    const line = JSON.stringify({
      time: new Date().toISOString(),
      level: at,
      msg,
      ...(traceId ? { traceId } : {}),
      ...fields,
    });
    if (sink) sink(line);
    else if (RANK[at] >= RANK.warn) console.error(line);
    else console.log(line);
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
  };
}
