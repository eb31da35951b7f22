/** Raw-socket helpers for the wire and process tests: what crosses the wire, exactly. */

const encoder = new TextEncoder();

export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** An HTTP/1.1 client over a raw TCP socket, so the test sees exactly what crosses the wire. */
export class RawClient {
  #buf = new Uint8Array(0);

  private constructor(readonly conn: Deno.TcpConn) {}

  static async connect(port: number) {
    return new RawClient(await Deno.connect({ hostname: "127.0.0.1", port }));
  }

  async write(data: string | Uint8Array) {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    for (let at = 0; at < bytes.byteLength;) at += await this.conn.write(bytes.subarray(at));
  }

  /** More bytes, or false at the end of the stream (a reset counts as the end). */
  async #fill(): Promise<boolean> {
    const chunk = new Uint8Array(64 * 1024);
    let n: number | null;
    try {
      n = await this.conn.read(chunk);
    } catch (err) {
      if (err instanceof Deno.errors.ConnectionReset) return false;
      throw err;
    }
    if (n === null) return false;
    const next = new Uint8Array(this.#buf.byteLength + n);
    next.set(this.#buf);
    next.set(chunk.subarray(0, n), this.#buf.byteLength);
    this.#buf = next;
    return true;
  }

  /** One response with a Content-Length body. */
  async response(): Promise<RawResponse> {
    let end: number;
    while ((end = new TextDecoder().decode(this.#buf).indexOf("\r\n\r\n")) < 0) {
      if (!await this.#fill()) throw new Error("connection ended before a response");
    }
    const [statusLine, ...lines] = new TextDecoder().decode(this.#buf.subarray(0, end)).split(
      "\r\n",
    );
    const headers = new Headers(lines.map((l) => {
      const i = l.indexOf(":");
      return [l.slice(0, i).trim(), l.slice(i + 1).trim()] as [string, string];
    }));
    const length = Number(headers.get("content-length") ?? 0);
    while (this.#buf.byteLength < end + 4 + length) {
      if (!await this.#fill()) throw new Error("connection ended inside a response body");
    }
    const body = new TextDecoder().decode(this.#buf.subarray(end + 4, end + 4 + length));
    this.#buf = this.#buf.slice(end + 4 + length);
    return { status: Number(statusLine.split(" ")[1]), headers, body };
  }

  /** Resolves true if the server ends the connection within `ms`. */
  async closedWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((r) => timer = setTimeout(() => r(false), ms));
    const ended = (async () => {
      while (await this.#fill()) this.#buf = new Uint8Array(0);
      return true;
    })();
    const result = await Promise.race([ended, timeout]);
    clearTimeout(timer);
    if (!result) {
      this.close();
      await ended.catch(() => {});
    }
    return result;
  }

  close() {
    try {
      this.conn.close();
    } catch {
      // Already closed.
    }
  }
}

/** The JSON log lines among a process's output lines. */
export function logLines(lines: string[]): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

/** Polls `check` every 20 ms until it holds; throws naming `what` after `ms`. */
export async function waitFor(check: () => boolean, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
