import { AddressList, formatIp, type Ip, parseIp } from "../lib/ip.ts";
import { refusedRange } from "./address.ts";
import { ConnectionPool, type Exchange, requestPinned } from "./http.ts";
import type { Resolver } from "./resolver.ts";

/** The spec's wording for a URL that reaches a refused address. */
export const PRIVATE_ADDRESS_MESSAGE = "URL cannot point at private or loopback addresses";

/** Deadline of one outbound exchange: resolution, connect, headers and body. */
export const OUTBOUND_TIMEOUT_MS = 5000;

export type UrlCheck =
  | { ok: true; url: URL; addresses: Ip[] }
  /**
   * `error` is safe to show the caller; `detail` (which address, which range) is for logs;
   * `address` is the refused address the URL resolved to, which the caller is told so a
   * developer knows what to allow (ALLOWED_PRIVATE_ADDRESSES).
   */
  | { ok: false; error: string; detail?: string; address?: string };

export interface OutboundOptions {
  resolver: Resolver;
  /** `ALLOWED_PRIVATE_ADDRESSES`: exempt from the rule, and the only hosts `http:` may use. */
  allowed: string[];
  timeoutMs?: number;
  /** Extra trusted root certificates (PEM) for https receivers. */
  ca?: string[];
}

export interface OutboundRequest {
  method?: string;
  body?: Uint8Array;
  headers?: Record<string, string>;
  /** Response body bytes to keep; 0 (the default) reads and drops the body. */
  keepBody?: number;
}

export type OutboundResult = Exchange & { durationMs: number };

/**
 * Every outbound request of the service goes through here: the private-address rule on the
 * URL and on every address its host resolves to, then a POST to exactly the address that was
 * checked, under one deadline. Connections are kept alive per checked address; `close()` ends
 * them.
 */
export class Outbound {
  readonly #resolver: Resolver;
  readonly #pool = new ConnectionPool();
  readonly #allowed: AddressList;
  readonly timeoutMs: number;
  readonly #ca?: string[];

  constructor(options: OutboundOptions) {
    this.#resolver = options.resolver;
    this.#allowed = new AddressList(options.allowed);
    this.timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
    this.#ca = options.ca;
  }

  /**
   * Checks a receiver URL: http(s) without credentials; an IP literal in any spelling, or a
   * host whose every A and AAAA answer is allowed (a host that does not resolve is refused);
   * `http:` only when every address is in the allowed list.
   */
  check(raw: string, signal?: AbortSignal): Promise<UrlCheck> {
    return signal ? this.#check(raw, signal) : this.#withDeadline((s) => this.#check(raw, s));
  }

  async #check(raw: string, signal: AbortSignal): Promise<UrlCheck> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, error: "must be a valid URL" };
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      return { ok: false, error: "must use https" };
    }
    if (url.username || url.password) return { ok: false, error: "must not contain credentials" };
    const literal = parseIp(url.hostname);
    const addresses = literal ? [literal] : await this.#resolve(url.hostname, signal);
    if (addresses.length === 0) return { ok: false, error: "host does not resolve" };
    for (const ip of addresses) {
      const range = this.#allowed.has(ip) ? null : refusedRange(ip);
      if (range) {
        const address = formatIp(ip);
        return {
          ok: false,
          error: PRIVATE_ADDRESS_MESSAGE,
          detail: `${address}: ${range}`,
          address,
        };
      }
    }
    if (url.protocol === "http:" && !addresses.every((ip) => this.#allowed.has(ip))) {
      return { ok: false, error: "must use https" };
    }
    return { ok: true, url, addresses };
  }

  async #withDeadline<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    try {
      return await run(deadline.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  async #resolve(host: string, signal: AbortSignal): Promise<Ip[]> {
    try {
      // A resolver that ignores the signal still loses the race against the deadline.
      const aborted = new Promise<never>((_, reject) =>
        signal.addEventListener("abort", () => reject(signal.reason), { once: true })
      );
      const answers = await Promise.race([this.#resolver.resolve(host, signal), aborted]);
      return answers.map(parseIp).filter((ip): ip is Ip => ip !== null);
    } catch {
      return [];
    }
  }

  /**
   * Sends a request to `raw`: checks the URL again (resolving once), sends to the first checked
   * address (over an idle kept-alive connection to it, or a new one), and gives up at the
   * deadline with `timeout`. Never throws.
   */
  request(raw: string, init: OutboundRequest = {}): Promise<OutboundResult> {
    const started = performance.now();
    return this.#withDeadline(async (signal) => {
      const checked = await this.#check(raw, signal);
      const result: Exchange = !checked.ok
        ? { error: signal.aborted ? "timeout" : checked.error }
        : await requestPinned({
          method: init.method ?? "POST",
          url: checked.url,
          address: checked.addresses[0],
          body: init.body,
          headers: init.headers ?? {},
          keepBody: init.keepBody,
          signal,
          ca: this.#ca,
          pool: this.#pool,
        });
      return { ...result, durationMs: Math.round(performance.now() - started) };
    });
  }

  /** The extra trusted roots (PEM), for other TLS connections to checked user hosts (IMAP). */
  get tlsRoots(): string[] | undefined {
    return this.#ca;
  }

  /** Closes the kept-alive connections; later requests open new ones. */
  close(): void {
    this.#pool.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
