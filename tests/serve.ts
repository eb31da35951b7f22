/** A real HTTP server on a loopback port, for tests where the wire itself is under test. */

export interface Served extends AsyncDisposable {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

/** Serves `app.fetch` on 127.0.0.1 at a free port; `await using` shuts it down. */
export function serve(app: { fetch: Deno.ServeHandler }): Served {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  const { port } = server.addr;
  const close = () => server.shutdown();
  return { port, url: `http://127.0.0.1:${port}`, close, [Symbol.asyncDispose]: close };
}
