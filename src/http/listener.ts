import type { Logger } from "../lib/log.ts";

/**
 * `Deno.serve`, kept listening. Two gaps of Deno 2.9.6 are closed here (docs/architecture.md,
 * Operations):
 *
 * - An accept error (EMFILE once every descriptor is taken) ends `Deno.serve`'s accept loop for
 *   good: `finished` rejects and the listener is closed, while the connections it accepted stay
 *   open. Unhandled, that rejection ends the process. Here the failed server is retired and a new
 *   one is bound on the same address.
 * - `Deno.serve` has no header-read or idle timeout. The one way to close idle, silent and
 *   half-sent connections is `shutdown()`, which does so at once while running requests finish.
 *   So retiring a server sheds a connection flood, and with `recycleMs` every server is retired
 *   after that long.
 */
export interface ListenerOptions {
  hostname: string;
  /** 0 picks a free port; later servers bind the port the first one got. */
  port: number;
  handler: Deno.ServeHandler<Deno.NetAddr>;
  log: Logger;
  /** Replace the server this often, closing its idle and half-sent connections; 0 never. */
  recycleMs?: number;
  /** Called once, when the first server listens. */
  onListen?: (addr: Deno.NetAddr) => void;
}

export interface Listener {
  readonly addr: Deno.NetAddr;
  /** Stops accepting and restarting; resolves when every server's running requests are done. */
  shutdown(): Promise<void>;
}

/**
 * Waits between binds: from 1 ms (a retired listener frees its port within milliseconds)
 * doubling to 1 s (descriptors still short).
 */
const RETRY_MIN_MS = 1;
const RETRY_MAX_MS = 1000;

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Serves `handler` and replaces the server whenever its accept loop fails. */
export function listen(options: ListenerOptions): Listener {
  const { hostname, handler, log, recycleMs = 0 } = options;
  let port = options.port;
  let current: Deno.HttpServer<Deno.NetAddr> | undefined;
  let stopped = false;
  let bindTimer: ReturnType<typeof setTimeout> | undefined;
  let recycleTimer: ReturnType<typeof setTimeout> | undefined;
  let retryMs = RETRY_MIN_MS;
  const retiring = new Set<Promise<void>>();

  /** Graceful shutdown: idle, silent and half-sent connections close now, running requests finish. */
  const retire = (server: Deno.HttpServer<Deno.NetAddr>) => {
    const done: Promise<void> = server.shutdown()
      .catch((err) => log.warn("retired listener did not close cleanly", { error: message(err) }))
      .finally(() => retiring.delete(done));
    retiring.add(done);
  };

  const bind = () => {
    const server = Deno.serve({ hostname, port, onListen: () => {} }, handler);
    const startedAt = Date.now();
    port = server.addr.port;
    current = server;
    server.finished.catch((err) => {
      if (server !== current) return;
      current = undefined;
      clearTimeout(recycleTimer);
      log.warn("listener failed; shedding its idle connections and listening again", {
        error: message(err),
      });
      retire(server);
      // A server that fails as soon as it starts (descriptors still short) backs off.
      const quick = Date.now() - startedAt < RETRY_MAX_MS;
      retryMs = quick ? Math.min(retryMs * 2, RETRY_MAX_MS) : RETRY_MIN_MS;
      rebind(quick ? retryMs : 0, true);
    });
    if (recycleMs > 0) recycleTimer = setTimeout(recycle, recycleMs);
    return server;
  };

  const rebind = (delayMs: number, afterFailure: boolean, since = Date.now()) => {
    bindTimer = setTimeout(() => {
      bindTimer = undefined;
      if (stopped) return;
      try {
        bind();
        if (afterFailure) log.info("listening again", { hostname, port });
        else log.debug("listener recycled", { hostname, port });
      } catch (err) {
        // A retired listener holds the port for a few milliseconds more: retry at once for a
        // while. Anything else (EMFILE) backs off.
        const closing = err instanceof Deno.errors.AddrInUse && Date.now() - since < RETRY_MAX_MS;
        if (!closing) retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        const fields = { error: message(err), retryMs };
        if (retryMs === RETRY_MAX_MS) log.warn("cannot listen; retrying", fields);
        else log.debug("cannot listen yet; retrying", fields);
        rebind(closing ? RETRY_MIN_MS : retryMs, afterFailure, since);
      }
    }, delayMs);
  };

  const recycle = () => {
    if (stopped || !current) return;
    const old = current;
    current = undefined;
    retire(old);
    retryMs = RETRY_MIN_MS;
    rebind(0, false);
  };

  const first = bind();
  options.onListen?.(first.addr);

  return {
    addr: first.addr,
    async shutdown() {
      stopped = true;
      clearTimeout(bindTimer);
      clearTimeout(recycleTimer);
      if (current) retire(current);
      current = undefined;
      while (retiring.size > 0) await Promise.all([...retiring]);
    },
  };
}
