import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

/**
 * One structured line per request: method, path (never the query, which may hold a key),
 * status, duration and request id. Bodies and headers are never logged.
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  await next();
  const status = c.res.status;
  const fields = {
    requestId: c.var.requestId,
    method: c.req.method,
    path: c.req.path,
    status,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
  const log = c.var.deps.log;
  if (status >= 500) log.error("request", fields);
  else log.info("request", fields);
};

/** `application/json` responses declare UTF-8, as the spec requires. */
export const jsonCharset: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.headers.get("content-type") === "application/json") {
    c.res.headers.set("content-type", "application/json; charset=utf-8");
  }
};
