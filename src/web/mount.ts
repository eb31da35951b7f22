/**
 * Serves the dashboard beside the API: the page shell at every path of the client's route table
 * (`routes.js`, shared with the client) and the hashed assets under `/assets/`. Nothing here
 * is under `/api`, so the API, its document and its JSON 404 stay as they are; a path that is
 * neither a page nor an asset falls through to the same JSON 404.
 */
import type { Context, Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import { notFound } from "../http/errors.ts";
import { ROUTES } from "./routes.js";
import { type Asset, type Bundle, dashboardBundle, type Encoding } from "./bundle.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** The best encoding the client accepts: brotli, then gzip, else none. */
export function pickEncoding(accept: string | undefined): Encoding | null {
  if (!accept) return null;
  const weights = new Map<string, number>();
  for (const part of accept.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const accepted = (name: string) => (weights.get(name) ?? weights.get("*") ?? 0) > 0;
  if (accepted("br")) return "br";
  if (accepted("gzip")) return "gzip";
  return null;
}

function send(c: Context<AppEnv>, asset: Asset, headers: Record<string, string>): Response {
  const base = {
    "content-type": asset.contentType,
    "etag": asset.etag,
    "vary": "Accept-Encoding",
    "x-content-type-options": "nosniff",
    ...headers,
  };
  if (c.req.header("if-none-match") === asset.etag) return c.body(null, 304, base);
  const encoding = pickEncoding(c.req.header("accept-encoding"));
  if (!encoding) return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, base);
  return c.body(asset.encoded(encoding) as Uint8Array<ArrayBuffer>, 200, {
    ...base,
    "content-encoding": encoding,
  });
}

/** Adds the dashboard's routes to the app (after the API, before the 404 handler). */
export function mountDashboard(app: Hono<AppEnv>, bundle: Bundle = dashboardBundle()) {
  for (const route of ROUTES) {
    app.get(route.path, (c) =>
      send(c, bundle.shell(route.module), {
        "cache-control": "no-cache",
        "content-security-policy": bundle.csp,
        "referrer-policy": "no-referrer",
        "x-frame-options": "DENY",
      }));
  }
  app.get("/assets/*", (c) => {
    const asset = bundle.assets.get(c.req.path);
    if (!asset) throw notFound();
    return send(c, asset, { "cache-control": IMMUTABLE });
  });
}
