/**
 * A webhook receiver on loopback for tests: records every request and answers as the test
 * says (status, delay, slow body, redirect).
 */
export interface Received {
  method: string;
  path: string;
  headers: Headers;
  body: string;
  at: number;
  /** The client's port: requests over one kept-alive connection share it. */
  remotePort: number;
  /** Aborts when the receiver closes, so slow replies end with it. */
  signal: AbortSignal;
}

export type Reply = (req: Received) => Response | Promise<Response>;

export interface Receiver extends AsyncDisposable {
  port: number;
  /** `http://127.0.0.1:<port><path>` */
  url(path?: string): string;
  requests: Received[];
  /** Changes how later requests are answered. */
  reply(fn: Reply): void;
  /** Resolves once `count` requests have arrived (rejects after `ms`). */
  waitFor(count: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** The root that signed the receiver's certificate (for `receiver.test`): trust it to connect. */
export const TLS_CA = Deno.readTextFileSync(new URL("./fixtures/test_ca.crt", import.meta.url));
const TLS_CERT = Deno.readTextFileSync(new URL("./fixtures/receiver.test.crt", import.meta.url));
const TLS_KEY = Deno.readTextFileSync(new URL("./fixtures/receiver.test.key", import.meta.url));

export function startReceiver(
  options: { reply?: Reply; tls?: boolean; hostname?: string; port?: number } = {},
): Receiver {
  let reply: Reply = options.reply ?? (() => new Response("ok"));
  const requests: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const aborter = new AbortController();
  const handler = async (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => {
    const received: Received = {
      method: req.method,
      path: new URL(req.url).pathname,
      headers: req.headers,
      body: await req.text(),
      at: performance.now(),
      remotePort: info.remoteAddr.port,
      signal: aborter.signal,
    };
    requests.push(received);
    for (const w of waiters.filter((w) => requests.length >= w.count)) w.resolve();
    return await reply(received);
  };
  const server = Deno.serve({
    port: options.port ?? 0,
    hostname: options.hostname ?? "127.0.0.1",
    signal: aborter.signal,
    onListen: () => {},
    ...(options.tls ? { cert: TLS_CERT, key: TLS_KEY } : {}),
  }, handler);
  const port = server.addr.port;
  const close = async () => {
    aborter.abort();
    await server.finished;
  };
  return {
    port,
    url: (path = "/hook") => `http://${options.hostname ?? "127.0.0.1"}:${port}${path}`,
    requests,
    reply: (fn) => reply = fn,
    waitFor(count, ms = 5000) {
      if (requests.length >= count) return Promise.resolve(requests);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} requests, got ${requests.length}`)),
          ms,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests);
          },
        });
      });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Waits `ms`; with `signal`, stops early when it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** A response whose body trickles in over `ms` (for the whole-exchange deadline). */
export function slowBody(ms: number): Response {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("partial"));
      timer = setTimeout(() => controller.close(), ms);
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return new Response(body);
}

/** A port on loopback where nothing listens. */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
