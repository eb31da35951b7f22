/**
 * An HTTP/1.1 load generator: N keep-alive connections, each sending one request at a time
 * for a fixed duration. It speaks HTTP over `Deno.connect` directly instead of `fetch`, because
 * on a 2-core machine the generator shares the CPU with the server and `fetch`'s client stack
 * costs several times more per request than these few byte comparisons (docs/benchmarks.md).
 */

export interface LoadOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** The same body for every request. */
  body?: string | Uint8Array;
  /** A body per request (`i` counts requests across all connections). */
  makeBody?: (i: number) => string | Uint8Array;
  /** A path (with query), extra headers and body per request, where `makeBody` is not enough. */
  makeRequest?: (i: number) => {
    path?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
  };
  connections?: number;
  durationMs?: number;
  /** Stop after this many requests (across all connections), even before `durationMs`. */
  maxRequests?: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection failures and malformed responses. */
  errors: number;
  /** Responses per status code. */
  statuses: Record<number, number>;
}

const encoder = new TextEncoder();
const latin1 = new TextDecoder("latin1");
const CRLFCRLF = [13, 10, 13, 10];

function requestBytes(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body?: string | Uint8Array,
): Uint8Array {
  const payload = typeof body === "string" ? encoder.encode(body) : body;
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  if (payload) head += `content-length: ${payload.byteLength}\r\n`;
  const headBytes = encoder.encode(head + "\r\n");
  if (!payload) return headBytes;
  const out = new Uint8Array(headBytes.byteLength + payload.byteLength);
  out.set(headBytes);
  out.set(payload, headBytes.byteLength);
  return out;
}

function indexOf(haystack: Uint8Array, needle: number[], from: number, to: number): number {
  outer: for (let i = from; i <= to - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Bytes read from one connection, consumed response by response. */
class Reader {
  buf = new Uint8Array(64 * 1024);
  start = 0;
  end = 0;

  constructor(readonly conn: Deno.Conn) {}

  /** Reads more bytes; false at end of stream. */
  async fill(): Promise<boolean> {
    if (this.start === this.end) this.start = this.end = 0;
    if (this.end === this.buf.byteLength) {
      const size = this.end - this.start;
      const bigger = new Uint8Array(
        size * 2 > this.buf.byteLength ? size * 2 : this.buf.byteLength,
      );
      bigger.set(this.buf.subarray(this.start, this.end));
      this.buf = bigger;
      this.start = 0;
      this.end = size;
    }
    const n = await this.conn.read(this.buf.subarray(this.end));
    if (n === null) return false;
    this.end += n;
    return true;
  }

  async skip(n: number) {
    while (this.end - this.start < n) {
      n -= this.end - this.start;
      this.start = this.end;
      if (!await this.fill()) throw new Error("connection closed mid-body");
    }
    this.start += n;
  }

  async line(): Promise<string> {
    for (;;) {
      const at = indexOf(this.buf, [13, 10], this.start, this.end);
      if (at >= 0) {
        const text = latin1.decode(this.buf.subarray(this.start, at));
        this.start = at + 2;
        return text;
      }
      if (!await this.fill()) throw new Error("connection closed mid-line");
    }
  }

  /** One response: its status and whether the server will close the connection. */
  async response(): Promise<{ status: number; close: boolean }> {
    let at: number;
    while ((at = indexOf(this.buf, CRLFCRLF, this.start, this.end)) < 0) {
      if (!await this.fill()) throw new Error("connection closed before a response");
    }
    const head = latin1.decode(this.buf.subarray(this.start, at)).toLowerCase();
    this.start = at + 4;
    const status = Number(head.slice(9, 12));
    const close = /\r\nconnection: *close/.test(head);
    const length = head.match(/\r\ncontent-length: *(\d+)/);
    if (length) {
      await this.skip(Number(length[1]));
    } else if (/\r\ntransfer-encoding: *chunked/.test(head)) {
      for (;;) {
        const size = parseInt(await this.line(), 16);
        await this.skip(size + 2);
        if (size === 0) break;
      }
    } else if (status !== 204 && status !== 304) {
      // Delimited by the end of the connection.
      while (await this.fill()) this.start = this.end;
      return { status, close: true };
    }
    return { status, close };
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array) {
  for (let at = 0; at < bytes.byteLength;) at += await conn.write(bytes.subarray(at));
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Runs the load and reports throughput, latency percentiles and statuses. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const method = options.method ?? "GET";
  const headers = options.headers ?? {};
  const perRequest = (i: number) => {
    if (options.makeBody) return requestBytes(url, method, headers, options.makeBody(i));
    const r = options.makeRequest!(i);
    const target = r.path ? new URL(r.path, url) : url;
    return requestBytes(target, method, { ...headers, ...r.headers }, r.body);
  };
  const fixed = options.makeBody || options.makeRequest
    ? null
    : requestBytes(url, method, headers, options.body);
  const connections = options.connections ?? 50;
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  let counter = 0;
  const started = performance.now();
  const deadline = started + (options.durationMs ?? 5000);

  const connect = async () => {
    const conn = await Deno.connect({
      hostname: url.hostname,
      port: Number(url.port || 80),
    });
    conn.setNoDelay(true);
    return { conn, reader: new Reader(conn) };
  };

  const worker = async () => {
    let link: Awaited<ReturnType<typeof connect>> | null = null;
    while (performance.now() < deadline && counter < (options.maxRequests ?? Infinity)) {
      try {
        link ??= await connect();
        const bytes = fixed ?? perRequest(counter);
        counter++;
        const sent = performance.now();
        await writeAll(link.conn, bytes);
        const { status, close } = await link.reader.response();
        latencies.push(performance.now() - sent);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (close) {
          link.conn.close();
          link = null;
        }
      } catch {
        errors++;
        link?.conn.close();
        link = null;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    link?.conn.close();
  };

  await Promise.all(Array.from({ length: connections }, worker));
  const elapsedMs = performance.now() - started;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    rps: Math.round(latencies.length / (elapsedMs / 1000)),
    p50Ms: round(percentile(sorted, 0.5), 2),
    p99Ms: round(percentile(sorted, 0.99), 2),
    errors,
    statuses,
  };
}
