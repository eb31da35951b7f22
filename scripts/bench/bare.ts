/**
 * The benchmark's ceiling: a bare `Deno.serve` giving the same responses as the service's
 * `GET /api/healthz` and its JSON 404 — the same JSON with the headers the spec requires on
 * every response (content type with charset, the three CORS headers, `no-store` on health) —
 * with no framework, middleware or storage.
 */
import process from "node:process";
import { VERSION } from "../../src/version.ts";

const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET,POST,PATCH,DELETE,OPTIONS",
  "access-control-allow-headers": "authorization,content-type",
};
const startedAt = Date.now();

function health(): string {
  return JSON.stringify({
    ok: true,
    uptimeMs: Date.now() - startedAt,
    version: VERSION,
    node: process.versions.node,
    runtime: `deno ${Deno.version.deno}`,
    persistence: "sqlite",
    counts: { users: 0, orders: 0 },
  });
}

const NOT_FOUND = JSON.stringify({ error: "Not found" });

Deno.serve({
  port: Number(Deno.env.get("PORT") ?? 0),
  hostname: Deno.env.get("HOST") ?? "127.0.0.1",
  onListen: () => {},
}, (req) => {
  if (req.method === "GET" && new URL(req.url).pathname === "/api/healthz") {
    return new Response(health(), { headers: { ...HEADERS, "cache-control": "no-store" } });
  }
  return new Response(NOT_FOUND, { status: 404, headers: HEADERS });
});
