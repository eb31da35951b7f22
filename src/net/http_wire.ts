/**
 * HTTP/1.1 on a connection the caller opened (see `http.ts`): the request written by hand, the
 * response read with the framing rules of RFC 9112 (length, chunked, or up to the close), so
 * that whether a connection may carry another request is known exactly and nothing is ever
 * sent twice behind the caller's back.
 */

/** A response head larger than this is refused. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A chunk-size or trailer line longer than this is refused. */
const MAX_LINE_BYTES = 4096;
const READ_SIZE = 16 * 1024;

/** The response does not follow HTTP/1.1; the connection is dropped. */
export class ProtocolError extends Error {}

/** The connection ended before the response was complete. */
export class ClosedEarly extends Error {}

/** Bytes read from a connection and not consumed yet. */
export class ConnReader {
  #buf = new Uint8Array(READ_SIZE);
  #start = 0;
  #end = 0;
  #pending: Promise<void> | null = null;
  /** The peer closed its side. */
  eof = false;

  constructor(readonly conn: Deno.Conn) {}

  get buffered(): number {
    return this.#end - this.#start;
  }

  /**
   * Reads once more into the buffer. A read already under way (started while the connection
   * sat idle in a pool, to notice a close) is joined rather than doubled.
   */
  fill(): Promise<void> {
    this.#pending ??= this.#read().finally(() => this.#pending = null);
    return this.#pending;
  }

  async #read() {
    if (this.#buf.length - this.#end < READ_SIZE) {
      const size = Math.max(this.#buf.length, this.buffered + READ_SIZE);
      const next = size > this.#buf.length ? new Uint8Array(size) : this.#buf;
      next.set(this.#buf.subarray(this.#start, this.#end));
      this.#end -= this.#start;
      this.#start = 0;
      this.#buf = next;
    }
    const n = await this.conn.read(this.#buf.subarray(this.#end));
    if (n === null) this.eof = true;
    else this.#end += n;
  }

  /** The index of `pattern` in the buffered bytes at or after `from`, or -1. */
  indexOf(pattern: Uint8Array, from = 0): number {
    const buf = this.#buf;
    outer: for (let i = this.#start + from; i <= this.#end - pattern.length; i++) {
      for (let j = 0; j < pattern.length; j++) if (buf[i + j] !== pattern[j]) continue outer;
      return i - this.#start;
    }
    return -1;
  }

  /** Takes `n` buffered bytes (a view, valid until the next read). */
  take(n: number): Uint8Array {
    const out = this.#buf.subarray(this.#start, this.#start + n);
    this.#start += n;
    return out;
  }
}

const CRLF = new Uint8Array([13, 10]);
const CRLFCRLF = new Uint8Array([13, 10, 13, 10]);
const latin1 = new TextDecoder("latin1");
const encoder = new TextEncoder();

/** Methods sent without `Content-Length` when they have no body. */
const BODILESS_METHODS = new Set(["GET", "HEAD", "OPTIONS", "DELETE"]);

/** Headers the request line, the body and the connection handling own. */
const OWN_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

export interface WireRequest {
  method: string;
  /** Path and query, as the WHATWG URL serialises them. */
  target: string;
  /** The `Host` header: the URL's host (and port). */
  host: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Asks the receiver to close after the response (no pool to return the connection to). */
  close?: boolean;
}

/** The request's bytes: request line, headers, body. */
export function encodeRequest(req: WireRequest): Uint8Array {
  // Every part comes from the service and a parsed URL; still, nothing may break a line.
  const safe = (part: string) => {
    if (/[\0\r\n]/.test(part)) throw new ProtocolError("line break in the request head");
    return part;
  };
  const lines = [`${safe(req.method)} ${safe(req.target)} HTTP/1.1`, `Host: ${safe(req.host)}`];
  for (const [name, value] of Object.entries(req.headers)) {
    if (OWN_HEADERS.has(name.toLowerCase())) continue;
    lines.push(`${safe(name)}: ${safe(value)}`);
  }
  const bodied = req.body !== undefined || !BODILESS_METHODS.has(req.method);
  if (bodied) lines.push(`Content-Length: ${req.body?.byteLength ?? 0}`);
  if (req.close) lines.push("Connection: close");
  const headBytes = encoder.encode(lines.join("\r\n") + "\r\n\r\n");
  if (!req.body?.byteLength) return headBytes;
  const out = new Uint8Array(headBytes.byteLength + req.body.byteLength);
  out.set(headBytes);
  out.set(req.body, headBytes.byteLength);
  return out;
}

/** Writes every byte. */
export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.byteLength;) at += await conn.write(bytes.subarray(at));
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  /** The first `keepBody` bytes of the body; the rest was read and dropped. */
  body: Uint8Array;
  /**
   * How long the connection may sit idle before another request (0: close it): set only when
   * the response was framed, complete, HTTP/1.1, not `Connection: close`, with nothing extra.
   */
  reuseForMs: number;
}

/**
 * Reads one response (skipping 1xx interim responses) for a request with `method`. The whole
 * body is read, so a slow body runs into the caller's deadline too.
 */
export async function readResponse(
  reader: ConnReader,
  method: string,
  options: { keepBody?: number; idleMs: number },
): Promise<WireResponse> {
  let head = await readHead(reader);
  while (head.status >= 100 && head.status < 200 && head.status !== 101) {
    head = await readHead(reader);
  }
  const keep = new Kept(options.keepBody ?? 0);
  const { headers, status } = head;
  const connection = tokens(headers["connection"]);
  let framed = true;
  if (method === "HEAD" || status === 204 || status === 304 || status < 200) {
    // No body.
  } else if (headers["transfer-encoding"] !== undefined) {
    if (tokens(headers["transfer-encoding"]).at(-1) === "chunked") await readChunked(reader, keep);
    else framed = await readToClose(reader, keep);
  } else if (headers["content-length"] !== undefined) {
    await readLength(reader, contentLength(headers["content-length"]), keep);
  } else {
    framed = await readToClose(reader, keep);
  }
  const reusable = framed && head.minor === 1 && status >= 200 && !connection.includes("close") &&
    reader.buffered === 0 && !reader.eof;
  return {
    status,
    headers,
    body: keep.bytes(),
    reuseForMs: reusable ? idleTime(headers["keep-alive"], options.idleMs) : 0,
  };
}

interface Head {
  minor: number;
  status: number;
  headers: Record<string, string>;
}

async function readHead(reader: ConnReader): Promise<Head> {
  let end: number;
  let searched = 0;
  while ((end = reader.indexOf(CRLFCRLF, searched)) < 0) {
    if (reader.buffered > MAX_HEAD_BYTES) throw new ProtocolError("response head too large");
    searched = Math.max(0, reader.buffered - 3);
    await more(reader);
  }
  if (end > MAX_HEAD_BYTES) throw new ProtocolError("response head too large");
  const [statusLine, ...fields] = latin1.decode(reader.take(end + 4)).slice(0, -4).split("\r\n");
  const match = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: [^\r\n]*)?$/.exec(statusLine);
  if (!match) throw new ProtocolError("invalid status line");
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(":");
    const name = field.slice(0, colon).toLowerCase();
    if (colon <= 0 || !/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(name)) {
      throw new ProtocolError("invalid header line");
    }
    const value = field.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { minor: Number(match[1]), status: Number(match[2]), headers };
}

/** One more read; the end of the stream here means the response was cut short. */
async function more(reader: ConnReader) {
  if (reader.eof) throw new ClosedEarly("connection closed before the response was complete");
  await reader.fill();
  if (reader.eof) throw new ClosedEarly("connection closed before the response was complete");
}

function contentLength(raw: string): number {
  // Repeated equal values are allowed (RFC 9110 8.6); anything else is refused.
  const values = new Set(raw.split(",").map((v) => v.trim()));
  const [value] = values;
  if (values.size !== 1 || !/^\d{1,15}$/.test(value)) {
    throw new ProtocolError("invalid Content-Length");
  }
  return Number(value);
}

async function readLength(reader: ConnReader, length: number, keep: Kept) {
  let left = length;
  while (left > 0) {
    if (reader.buffered === 0) await more(reader);
    const n = Math.min(left, reader.buffered);
    keep.add(reader.take(n));
    left -= n;
  }
}

async function readLine(reader: ConnReader): Promise<string> {
  let end: number;
  while ((end = reader.indexOf(CRLF)) < 0) {
    if (reader.buffered > MAX_LINE_BYTES) throw new ProtocolError("chunk line too long");
    await more(reader);
  }
  if (end > MAX_LINE_BYTES) throw new ProtocolError("chunk line too long");
  return latin1.decode(reader.take(end + 2)).slice(0, -2);
}

async function readChunked(reader: ConnReader, keep: Kept) {
  while (true) {
    const size = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(await readLine(reader));
    if (!size) throw new ProtocolError("invalid chunk size");
    const length = parseInt(size[1], 16);
    if (length === 0) break;
    await readLength(reader, length, keep);
    if ((await readLine(reader)) !== "") throw new ProtocolError("invalid chunk end");
  }
  while ((await readLine(reader)) !== "") {
    // Trailer fields are read and dropped.
  }
}

/** A body that ends when the connection does: never reusable. */
async function readToClose(reader: ConnReader, keep: Kept): Promise<false> {
  while (true) {
    keep.add(reader.take(reader.buffered));
    if (reader.eof) return false;
    await reader.fill();
  }
}

function tokens(raw: string | undefined): string[] {
  return raw ? raw.toLowerCase().split(",").map((t) => t.trim()) : [];
}

/**
 * The idle time to allow: ours, or a second less than the receiver's `Keep-Alive: timeout`
 * (so it is never the receiver that closes a connection we are about to use).
 */
function idleTime(keepAlive: string | undefined, idleMs: number): number {
  const hint = /(?:^|[,;\s])timeout\s*=\s*"?(\d+)/i.exec(keepAlive ?? "");
  return hint ? Math.max(0, Math.min(idleMs, Number(hint[1]) * 1000 - 1000)) : idleMs;
}

/** The first `limit` bytes of a body, copied out of the reader's buffer. */
class Kept {
  #chunks: Uint8Array[] = [];
  #length = 0;

  constructor(readonly limit: number) {}

  add(bytes: Uint8Array) {
    const n = Math.min(bytes.byteLength, this.limit - this.#length);
    if (n <= 0) return;
    this.#chunks.push(bytes.slice(0, n));
    this.#length += n;
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.#length);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
}
