import http from "node:http";
import https from "node:https";
import { formatIp, type Ip, parseIp } from "./address.ts";

/** A request to a URL whose host was checked and resolved to `address`. */
export interface PinnedRequest {
  method: string;
  url: URL;
  /** The checked address: the connection goes here and nowhere else. */
  address: Ip;
  body?: Uint8Array;
  headers: Record<string, string>;
  /** Aborts the whole exchange (connect, headers and body). */
  signal: AbortSignal;
  /** Response body bytes to keep (the rest is read and dropped); 0 keeps none. */
  keepBody?: number;
  /** Extra trusted root certificates (PEM), for receivers with a private CA. */
  ca?: string[];
}

/** What came back once the whole response was read, or why nothing did. */
export type Exchange =
  | { status: number; headers: Record<string, string>; body: Uint8Array }
  | { error: string };

/**
 * Sends the request to the checked address itself (an IP literal, so there is no second DNS
 * lookup a rebinding server could answer differently); `Host` and, for https, the TLS server
 * name and certificate check use the URL's host name. Redirects are never followed. The
 * response body is read to the end, so a slow body runs into the deadline too.
 */
export function requestPinned(req: PinnedRequest): Promise<Exchange> {
  const { url } = req;
  const secure = url.protocol === "https:";
  const headers: Record<string, string> = { ...req.headers, host: url.host };
  if (req.body) headers["content-length"] = String(req.body.byteLength);
  const options: https.RequestOptions = {
    host: formatIp(req.address),
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    path: url.pathname + url.search,
    method: req.method,
    agent: false,
    signal: req.signal,
    headers,
  };
  if (secure) {
    // SNI carries host names only; an IP-literal URL is verified against the IP itself.
    if (parseIp(url.hostname) === null) options.servername = url.hostname;
    if (req.ca) options.ca = req.ca;
  }
  const keep = req.keepBody ?? 0;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Exchange) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const fail = (err: unknown) => finish({ error: describeError(err, req.signal) });
    const request = (secure ? https : http).request(options, (res) => {
      const chunks: Uint8Array[] = [];
      let kept = 0;
      res.on("data", (chunk: Uint8Array) => {
        if (kept >= keep) return;
        chunks.push(chunk.subarray(0, keep - kept));
        kept += Math.min(chunk.byteLength, keep - kept);
      });
      res.on("end", () =>
        finish({
          status: res.statusCode ?? 0,
          headers: flatHeaders(res.headers),
          body: concat(chunks, kept),
        }));
      res.on("error", fail);
      res.on("aborted", () => fail(new Error("response aborted")));
    });
    request.on("error", fail);
    request.end(req.body);
  });
}

function flatHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "timeout",
};

/** A short `lastError` for a transport failure: `timeout`, `connection refused`, `TLS error: ...`. */
export function describeError(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return "timeout";
  const e = err as { code?: string; message?: string };
  if (e.code && CODES[e.code]) return CODES[e.code];
  if (e.code && /TLS|CERT|SSL/i.test(e.code)) return `TLS error: ${e.message ?? e.code}`;
  return `connection error: ${e.message ?? String(err)}`;
}
