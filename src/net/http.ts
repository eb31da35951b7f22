import { formatIp, type Ip, parseIp } from "../lib/ip.ts";
import {
  ClosedEarly,
  ConnReader,
  encodeRequest,
  ProtocolError,
  readResponse,
  writeAll,
} from "./http_wire.ts";

/** A request to a URL whose host was checked and resolved to `address`. */
export interface PinnedRequest {
  method: string;
  url: URL;
  /** The checked address: the connection goes here and nowhere else. */
  address: Ip;
  body?: Uint8Array;
  headers: Record<string, string>;
  /** Aborts the whole exchange (connect, TLS, headers and body). */
  signal: AbortSignal;
  /** Response body bytes to keep (the rest is read and dropped); 0 keeps none. */
  keepBody?: number;
  /** Extra trusted root certificates (PEM), for receivers with a private CA. */
  ca?: string[];
  /** Keep-alive connections to take from and return to; without it, one connection per request. */
  pool?: ConnectionPool;
}

/** What came back once the whole response was read, or why nothing did. */
export type Exchange =
  | { status: number; headers: Record<string, string>; body: Uint8Array }
  | { error: string };

/** How long an idle kept-alive connection stays open: below the usual receiver timeouts (5 s). */
export const IDLE_CONNECTION_MS = 2000;
/** Idle connections kept per address (and TLS name); more are closed after their response. */
const MAX_IDLE_PER_ADDRESS = 64;

/** The TLS handshake failed (certificate, name, protocol). */
class TlsError extends Error {}

/** An open connection to one checked address, with its unread bytes. */
class PinnedConn {
  readonly reader: ConnReader;
  #idle: { timer: ReturnType<typeof setTimeout>; pool: ConnectionPool } | null = null;
  closed = false;

  constructor(readonly conn: Deno.Conn, readonly key: string) {
    this.reader = new ConnReader(conn);
  }

  close() {
    this.#leaveIdle();
    if (this.closed) return;
    this.closed = true;
    try {
      this.conn.close();
    } catch {
      // Already closed by the runtime.
    }
  }

  /** Parks the connection in `pool` for `ms`; a read runs meanwhile, so a close is noticed. */
  park(pool: ConnectionPool, ms: number) {
    const timer = setTimeout(() => pool.drop(this), ms);
    Deno.unrefTimer(timer);
    this.#idle = { timer, pool };
    this.conn.unref();
    this.reader.fill().then(
      () => this.#idle && pool.drop(this),
      () => this.#idle && pool.drop(this),
    );
  }

  /** Takes the connection out of its pool; false when it cannot carry a request any more. */
  unpark(): boolean {
    this.#leaveIdle();
    this.conn.ref();
    return !this.closed && !this.reader.eof && this.reader.buffered === 0;
  }

  #leaveIdle() {
    if (!this.#idle) return;
    clearTimeout(this.#idle.timer);
    this.#idle = null;
  }
}

/**
 * Idle keep-alive connections, each filed under the exact address it is connected to (and, for
 * https, the TLS name it was verified for): a request only ever takes a connection to the
 * address checked for it. A connection is returned only after a complete, well-framed response
 * that allows reuse; one the receiver closes, or that idles past {@link IDLE_CONNECTION_MS} (or
 * the receiver's `Keep-Alive: timeout`, less a second), is closed. A request is never sent
 * again on another connection: a receiver that closes a connection at the very moment a
 * request is written to it gets `connection reset`.
 */
export class ConnectionPool {
  readonly #idle = new Map<string, PinnedConn[]>();

  take(key: string): PinnedConn | undefined {
    const list = this.#idle.get(key);
    while (list?.length) {
      const conn = list.pop()!;
      if (list.length === 0) this.#idle.delete(key);
      if (conn.unpark()) return conn;
      conn.close();
    }
    return undefined;
  }

  put(conn: PinnedConn, ms: number) {
    let list = this.#idle.get(conn.key);
    if (!list) this.#idle.set(conn.key, list = []);
    if (list.length >= MAX_IDLE_PER_ADDRESS) return conn.close();
    list.push(conn);
    conn.park(this, ms);
  }

  drop(conn: PinnedConn) {
    const list = this.#idle.get(conn.key);
    const at = list?.indexOf(conn) ?? -1;
    if (at >= 0) list!.splice(at, 1);
    if (list?.length === 0) this.#idle.delete(conn.key);
    conn.close();
  }

  /** Closes every idle connection (shutdown, tests). */
  close(): void {
    for (const list of this.#idle.values()) for (const conn of list) conn.close();
    this.#idle.clear();
  }
}

/**
 * Sends the request to the checked address itself (an IP literal, so there is no second DNS
 * lookup a rebinding server could answer differently); `Host` and, for https, the TLS server
 * name and certificate check use the URL's host name. Redirects are never followed. The
 * response body is read to the end, so a slow body runs into the deadline too; at the
 * deadline the connection is closed. Never throws.
 */
export async function requestPinned(req: PinnedRequest): Promise<Exchange> {
  const { url, signal } = req;
  const secure = url.protocol === "https:";
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  const address = formatIp(req.address);
  // An IP-literal URL is verified against the IP itself (and sends no SNI).
  const tlsName = parseIp(url.hostname) === null ? url.hostname : address;
  const key = secure ? `https ${address} ${port} ${tlsName}` : `http ${address} ${port}`;
  let conn: PinnedConn | undefined;
  const abort = () => conn?.close();
  signal.addEventListener("abort", abort, { once: true });
  try {
    conn = req.pool?.take(key) ?? await connect(address, port, secure ? tlsName : null, key, req);
    if (signal.aborted) throw signal.reason;
    await writeAll(
      conn.conn,
      encodeRequest({
        method: req.method,
        target: url.pathname + url.search,
        host: url.host,
        headers: req.headers,
        body: req.body,
        close: !req.pool,
      }),
    );
    const res = await readResponse(conn.reader, req.method, {
      keepBody: req.keepBody,
      idleMs: IDLE_CONNECTION_MS,
    });
    if (req.pool && res.reuseForMs > 0 && !signal.aborted) req.pool.put(conn, res.reuseForMs);
    else conn.close();
    return { status: res.status, headers: res.headers, body: res.body };
  } catch (err) {
    conn?.close();
    return { error: describeError(err, signal) };
  } finally {
    signal.removeEventListener("abort", abort);
  }
}

async function connect(
  address: string,
  port: number,
  tlsName: string | null,
  key: string,
  req: PinnedRequest,
): Promise<PinnedConn> {
  const tcp = await Deno.connect({ hostname: address, port, signal: req.signal });
  if (!tlsName) return new PinnedConn(tcp, key);
  let conn: PinnedConn | undefined;
  const abort = () => conn?.close();
  req.signal.addEventListener("abort", abort, { once: true });
  try {
    const tls = await Deno.startTls(tcp, { hostname: tlsName, caCerts: req.ca });
    conn = new PinnedConn(tls, key);
    await tls.handshake();
    return conn;
  } catch (err) {
    if (conn) conn.close();
    else tcp.close();
    if (req.signal.aborted) throw err;
    throw new TlsError((err as Error).message);
  } finally {
    req.signal.removeEventListener("abort", abort);
  }
}

/** A short `lastError` for a transport failure: `timeout`, `connection refused`, `TLS error: ...`. */
export function describeError(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return "timeout";
  if (err instanceof TlsError) return `TLS error: ${err.message}`;
  if (err instanceof ProtocolError) return `connection error: ${err.message}`;
  if (
    err instanceof ClosedEarly || err instanceof Deno.errors.ConnectionReset ||
    err instanceof Deno.errors.BrokenPipe || err instanceof Deno.errors.ConnectionAborted ||
    err instanceof Deno.errors.UnexpectedEof
  ) return "connection reset";
  if (err instanceof Deno.errors.ConnectionRefused) return "connection refused";
  if (err instanceof Deno.errors.TimedOut) return "timeout";
  const message = (err as Error)?.message ?? String(err);
  if (/os error 113|no route to host/i.test(message)) return "host unreachable";
  if (/os error 101|network is unreachable/i.test(message)) return "network unreachable";
  return `connection error: ${message}`;
}
