import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "./env.ts";
import { metrics } from "../lib/metrics.ts";
import { nameRequestSpan } from "../lib/tracing.ts";

const METHODS = "GET,POST,PATCH,DELETE,OPTIONS";
const HEADERS = "authorization,content-type";
const REQUEST_ID = /^[\w-]{1,255}$/;
/** One year, the usual HSTS age (subdomains left alone: they may be other services). */
const HSTS = "max-age=31536000";

/** Request ids: a random per-process part and a counter, cheaper than a UUID per request. */
const BOOT_ID = crypto.getRandomValues(new Uint8Array(6)).toHex();
let sequence = 0;

/**
 * The conventions every response shares, in one middleware because each layer costs on every
 * request (docs/benchmarks.md):
 * - `deps` and a request id (an incoming `X-Request-Id` is kept when well-formed), echoed back;
 * - the spec's CORS headers on every response; OPTIONS on any path is 204 with no body;
 *   `CORS_ORIGINS` restricts which origins are echoed;
 * - `application/json` responses declare UTF-8;
 * - where `BASE_URL` is `https:`, `Strict-Transport-Security`, so a browser that has been here
 *   once never again tries plain HTTP, where a network attacker could answer instead;
 * - one structured log line: method, path (never the query, which may hold a key), status,
 *   duration and request id (error level for the service's own 5xx, not for a deliberate 503).
 *   Bodies and headers are never logged.
 */
export function conventions(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const allowed = deps.config.corsOrigins;
  const { log } = deps;
  const hsts = deps.config.baseUrl.startsWith("https:");
  const cors = (headers: Headers, origin: string | undefined) => {
    if (allowed === "*") headers.set("Access-Control-Allow-Origin", "*");
    else {
      if (origin && allowed.includes(origin)) headers.set("Access-Control-Allow-Origin", origin);
      headers.append("Vary", "Origin");
    }
    headers.set("Access-Control-Allow-Methods", METHODS);
    headers.set("Access-Control-Allow-Headers", HEADERS);
  };

  return async (c, next) => {
    const started = performance.now();
    c.set("deps", deps);
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming)
      ? incoming
      : `${BOOT_ID}-${(++sequence).toString(36)}`;
    c.set("requestId", requestId);
    const origin = c.req.header("origin");

    if (c.req.method === "OPTIONS") {
      const res = new Response(null, { status: 204 });
      cors(res.headers, origin);
      if (hsts) res.headers.set("Strict-Transport-Security", HSTS);
      return res;
    }
    await next();

    const headers = c.res.headers;
    cors(headers, origin);
    headers.set("X-Request-Id", requestId);
    if (hsts) headers.set("Strict-Transport-Security", HSTS);
    if (headers.get("content-type") === "application/json") {
      headers.set("content-type", "application/json; charset=utf-8");
    }
    const status = c.res.status;
    const ms = performance.now() - started;
    // The route template (`/api/orders/:id`), never the path: its values are bounded.
    const route = c.req.routePath;
    metrics.httpRequest(route, methodLabel(c.req.method), status, ms / 1000);
    nameRequestSpan(c.req.method, route);
    const fields = {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Math.round(ms * 100) / 100,
    };
    // 503 is this deployment's deliberate "not configured here", 502 an upstream's failure;
    // only other 5xx are the service's own faults.
    if (status === 503 || status < 500) log.info("request", fields);
    else if (status === 502) log.warn("request", fields);
    else log.error("request", fields);
  };
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Clients may send any method token: the label takes the known ones, and `other`. */
const methodLabel = (method: string) => KNOWN_METHODS.has(method) ? method : "other";
