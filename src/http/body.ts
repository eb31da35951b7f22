import type { MiddlewareHandler } from "hono";
import { ApiError, TOO_LARGE_MESSAGE } from "./errors.ts";
import type { AppEnv } from "./env.ts";
import { parseJsonSafely } from "../lib/safe_json.ts";

export const BODY_LIMIT = 2 * 1024 * 1024;
/**
 * Oversized bodies up to this size are read and thrown away so the client, which is usually
 * still sending, reads the 413 and keeps its connection; beyond it the 413 goes out at once and
 * the connection is closed after the body.
 */
export const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * The client went away mid-upload, or shutdown began while the body was still arriving: a 400
 * for the request rather than a 500 for the service.
 */
function unreadable(): never {
  throw new ApiError(400, "Request body could not be read");
}

/** `body is not valid JSON (Unexpected token 'i', "itemSummary=x" is not valid JSON)`. */
function notJson(err: unknown): ApiError {
  const reason = err instanceof Error ? err.message : String(err);
  return new ApiError(400, `body is not valid JSON (${reason.slice(0, 200)})`);
}

function tooLarge(): ApiError {
  return new ApiError(413, TOO_LARGE_MESSAGE);
}

/**
 * Reads at most BODY_LIMIT bytes; beyond it drains up to DRAIN_LIMIT, then gives up. Giving up
 * never cancels the body: Deno 2.9 would then read the rest itself and keep the connection open,
 * ignoring a `Connection: close` response header. A body still unread when the 413 goes out
 * makes Deno add `Connection: close` and close the connection at the body's end
 * (tests/http/wire_test.ts checks this on the wire).
 */
async function readLimited(req: Request): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > DRAIN_LIMIT) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(unreadable);
    if (done) break;
    size += value.byteLength;
    if (size > DRAIN_LIMIT) {
      reader.releaseLock();
      req.body.pipeTo(new WritableStream()).catch(() => {});
      throw tooLarge();
    }
    if (size <= BODY_LIMIT) chunks.push(value);
  }
  if (size > BODY_LIMIT) throw tooLarge();
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * The request-body convention of every endpoint: at most 2 MiB; parsed as JSON whatever the
 * Content-Type says; a body that does not parse is 400 `body is not valid JSON (...)`, never
 * read as an empty object; a JSON value that is not an object is kept as text (`rawBody`) and
 * validates as an object with no fields; dangerous keys are dropped. Multipart bodies are left to the route,
 * with the bytes cached. Downstream validators then read the parsed value.
 */
export const bodyParser: MiddlewareHandler<AppEnv> = async (c, next) => {
  const raw = c.req.raw;
  if (raw.method === "GET" || raw.method === "HEAD" || raw.method === "OPTIONS") return next();
  const bytes = await readLimited(raw);
  const contentType = raw.headers.get("content-type") ?? "";
  const cache = c.req.bodyCache as Record<string, Promise<unknown>>;
  if (contentType.toLowerCase().startsWith("multipart/form-data")) {
    cache.arrayBuffer = Promise.resolve(bytes.buffer);
    return next();
  }
  const text = new TextDecoder().decode(bytes);
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = parseJsonSafely(text);
    } catch (err) {
      throw notJson(err);
    }
  }
  // Bodies are objects: a JSON scalar, null or array reads as an object with no fields.
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    if (value !== null) c.set("rawBody", text);
    value = {};
  }
  const headers = new Headers(raw.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  c.req.raw = new Request(raw.url, { method: raw.method, headers });
  const parsed = Promise.resolve(value);
  cache.json = parsed;
  // Hono's `json()` parses the cached text; with only the value cached it writes the value out
  // as text and parses that, on every call (the validator's, the field warnings'): twice per
  // request, a body's size in copies each time. Every reader gets the value parsed here.
  c.req.json = <T>() => parsed as Promise<T>;
  // Signed bodies (the billing webhook) are checked over the exact text.
  c.set("bodyText", text);
  await next();
};
