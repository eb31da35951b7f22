/**
 * Unknown body fields are ignored (the spec says so), but one that is close to a field the
 * endpoint knows (`cost` for `costCents`) is named in a `warnings` list of the success answer,
 * so a typo does not pass silently. One rule for every route with a JSON object body: the
 * router adds this middleware (router.ts), and the OpenAPI document adds `warnings` to those
 * routes' success responses (openapi_document.ts).
 */
import type { MiddlewareHandler } from "hono";
import { z } from "@hono/zod-openapi";
import { nearNames } from "../lib/near_names.ts";
import type { AppEnv } from "./env.ts";

/** At most this many body keys are compared: a hostile body of 10,000 keys costs nothing. */
const MAX_KEYS_CHECKED = 50;

export const FieldWarningsSchema = z.object({
  warnings: z.array(z.string()).optional().openapi({
    description:
      "Unknown fields of the request that look like a known one; they were ignored. Absent when there is none.",
    example: ['"cost" is not a field of this request and was ignored; did you mean "costCents"?'],
  }),
}).openapi("FieldWarnings");

/** The top-level keys of an object schema, through optional/default/pipe wrappers. */
export function objectKeys(schema: unknown): string[] | undefined {
  let current = schema as {
    shape?: Record<string, unknown>;
    _zod?: { def?: Record<string, unknown> };
  };
  for (let i = 0; i < 5 && current; i++) {
    if (current.shape && typeof current.shape === "object") return Object.keys(current.shape);
    const def = current._zod?.def;
    current = (def?.in ?? def?.innerType ?? def?.schema) as typeof current;
  }
  return undefined;
}

/** The warnings for a parsed body against the names it may hold. */
function fieldWarnings(body: unknown, known: readonly string[]): string[] {
  if (!body || typeof body !== "object" || Array.isArray(body)) return [];
  const knownSet = new Set(known);
  const out: string[] = [];
  for (const key of Object.keys(body).slice(0, MAX_KEYS_CHECKED)) {
    if (knownSet.has(key)) continue;
    const near = nearNames(key, known);
    if (near.length === 0) continue;
    const names = near.map((n) => `"${n}"`).join(" or ");
    out.push(
      `"${
        key.slice(0, 64)
      }" is not a field of this request and was ignored; did you mean ${names}?`,
    );
  }
  return out;
}

/** Adds `warnings` to a 2xx JSON object answer when the body named near-miss fields. */
export function warnNearFields(known: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const type = c.req.header("content-type") ?? "";
    const warnings = type.startsWith("application/json")
      ? fieldWarnings(await c.req.json().catch(() => undefined), known)
      : [];
    await next();
    const res = c.res;
    if (warnings.length === 0 || res.status < 200 || res.status > 299) return;
    if (!res.headers.get("content-type")?.startsWith("application/json")) return;
    const answer = await res.clone().json().catch(() => undefined);
    if (!answer || typeof answer !== "object" || Array.isArray(answer)) return;
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    // Cleared first: Hono merges the old response's headers into a replacement.
    c.res = undefined as unknown as Response;
    c.res = new Response(JSON.stringify({ ...answer, warnings }), {
      status: res.status,
      headers,
    });
  };
}
