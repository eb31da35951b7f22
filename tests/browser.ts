/**
 * A real browser for tests: Debian's headless Chromium, driven over the Chrome DevTools
 * Protocol. Tests that need it are skipped (with a warning) where Chromium is missing, except
 * in CI, which installs it.
 */
import { join } from "node:path";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--remote-debugging-port=0",
];

function findChromium(): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser"]) {
      const path = join(dir, name);
      try {
        if (Deno.statSync(path).isFile) return path;
      } catch {
        // Not in this directory.
      }
    }
  }
  return null;
}

export const chromium = findChromium();
/** Whether browser tests are skipped here: no Chromium, and not in CI. */
export const skipBrowser = !chromium && !Deno.env.get("CI");
if (skipBrowser) {
  console.warn(
    "browser tests: skipped, Chromium is not installed (apt-get install chromium); CI runs them.",
  );
}

export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
}

/** One DevTools WebSocket session: commands with replies, and every event received. */
export class Cdp {
  #nextId = 1;
  #pending = new Map<number, PromiseWithResolvers<Record<string, unknown>>>();
  readonly events: CdpEvent[] = [];
  readonly closed: Promise<void>;

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.addEventListener("close", () => resolve()));
    socket.addEventListener("message", (e) => {
      const msg = JSON.parse(e.data);
      if (msg.id === undefined) {
        this.events.push(msg);
        return;
      }
      const waiter = this.#pending.get(msg.id);
      this.#pending.delete(msg.id);
      if (msg.error) waiter?.reject(new Error(`${msg.error.message} (${msg.error.code})`));
      else waiter?.resolve(msg.result);
    });
  }

  static async connect(url: string): Promise<Cdp> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve, { once: true });
      socket.addEventListener("error", () => reject(new Error(`cannot open ${url}`)), {
        once: true,
      });
    });
    return new Cdp(socket);
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const waiter = Promise.withResolvers<Record<string, unknown>>();
    this.#pending.set(id, waiter);
    this.socket.send(JSON.stringify({ id, method, params }));
    return waiter.promise;
  }

  /** Evaluates an expression in the page and returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const reply = await this.send("Runtime.evaluate", { expression, returnByValue: true });
    return (reply.result as { value: T }).value;
  }

  async close() {
    this.socket.close();
    await this.closed;
  }
}

/** Messages of level error: console.error, uncaught exceptions, failed loads, CSP reports. */
export function errorsIn(events: CdpEvent[]): string[] {
  const out: string[] = [];
  for (const { method, params } of events) {
    if (
      method === "Runtime.consoleAPICalled" && ["error", "assert"].includes(String(params.type))
    ) {
      const args = params.args as { value?: unknown; description?: string }[];
      out.push(`console.${params.type}: ${args.map((a) => a.value ?? a.description).join(" ")}`);
    } else if (method === "Runtime.exceptionThrown") {
      const details = params.exceptionDetails as {
        text: string;
        exception?: { description?: string };
      };
      out.push(`exception: ${details.exception?.description ?? details.text}`);
    } else if (method === "Log.entryAdded") {
      const entry = params.entry as { level: string; text: string; url?: string };
      if (entry.level === "error") out.push(`log: ${entry.text} ${entry.url ?? ""}`.trim());
    }
  }
  return out;
}

export async function waitFor<T>(
  poll: () => T | null | Promise<T | null>,
  what: string,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await poll();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts Chromium on a fresh profile and resolves with its DevTools endpoint. */
async function launch(profile: string) {
  const child = new Deno.Command(chromium!, {
    args: [...FLAGS, `--user-data-dir=${profile}`, "about:blank"],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const endpoint = Promise.withResolvers<string>();
  let stderr = "";
  const drained = (async () => {
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) {
      stderr += text;
      const match = stderr.match(/DevTools listening on (ws:\/\/\S+)/);
      if (match) endpoint.resolve(match[1]);
    }
    endpoint.reject(new Error(`Chromium exited without a DevTools endpoint:\n${stderr}`));
  })();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Already exited.
    }
    await Promise.all([child.status, drained]);
  };
  try {
    return { browserUrl: await endpoint.promise, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Chromium on a fresh profile with its page target open; `close()` ends both. */
export async function openPage(): Promise<{ cdp: Cdp; close(): Promise<void> }> {
  const profile = await Deno.makeTempDir({ prefix: "chromium-profile-" });
  const browser = await launch(profile);
  let cdp: Cdp | undefined;
  const close = async () => {
    await cdp?.close();
    await browser.stop();
    await Deno.remove(profile, { recursive: true });
  };
  try {
    const debugBase = browser.browserUrl.replace(/^ws:/, "http:").replace(/\/devtools\/.*$/, "");
    const targets = await (await fetch(`${debugBase}/json/list`)).json() as {
      type: string;
      webSocketDebuggerUrl: string;
    }[];
    const page = targets.find((t) => t.type === "page");
    if (!page) throw new Error("Chromium has no page target");
    cdp = await Cdp.connect(page.webSocketDebuggerUrl);
    await cdp.send("Runtime.enable");
    await cdp.send("Log.enable");
    await cdp.send("Page.enable");
    return { cdp, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Navigates and waits for the load event. */
export async function navigate(cdp: Cdp, url: string): Promise<void> {
  const loads = cdp.events.filter((e) => e.method === "Page.loadEventFired").length;
  await cdp.send("Page.navigate", { url });
  await waitFor(
    () => cdp.events.filter((e) => e.method === "Page.loadEventFired").length > loads || null,
    `the load event of ${url}`,
  );
}
