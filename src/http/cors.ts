import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

const METHODS = "GET,POST,PATCH,DELETE,OPTIONS";
const HEADERS = "authorization,content-type";

/**
 * The spec's CORS headers on every response, and 204 with no body for OPTIONS on any path.
 * With `CORS_ORIGINS` set to a list, only those origins are echoed back.
 */
export const cors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const allowed = c.var.deps.config.corsOrigins;
  const origin = c.req.header("origin");
  const allowOrigin = allowed === "*" ? "*" : origin && allowed.includes(origin) ? origin : null;
  const apply = (headers: Headers) => {
    if (allowOrigin) headers.set("Access-Control-Allow-Origin", allowOrigin);
    if (allowed !== "*") headers.append("Vary", "Origin");
    headers.set("Access-Control-Allow-Methods", METHODS);
    headers.set("Access-Control-Allow-Headers", HEADERS);
  };
  if (c.req.method === "OPTIONS") {
    const res = new Response(null, { status: 204 });
    apply(res.headers);
    return res;
  }
  await next();
  apply(c.res.headers);
};
