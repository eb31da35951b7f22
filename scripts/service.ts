/**
 * Runs a server script (main.ts, or the benchmark's bare server) as a child process and waits
 * for its JSON "listening" log line. Used by the benchmark and by the process-level tests.
 */

const ROOT = new URL("../", import.meta.url);

/**
 * The V8 flags `deno task start` gives the service (deno.json), so tests and benchmarks run it
 * as it is deployed.
 */
export const START_V8_FLAGS: string[] = (JSON.parse(
  Deno.readTextFileSync(new URL("deno.json", ROOT)),
).tasks.start as string).split(" ").filter((arg) => arg.startsWith("--v8-flags="));

export interface ServiceOptions {
  /** Script path relative to the project root. */
  script?: string;
  env?: Record<string, string>;
  /** How long to wait for the listening line. */
  startTimeoutMs?: number;
  /** Runs the script under `ulimit -n` of this many descriptors (soft and hard limit). */
  maxOpenFiles?: number;
  /**
   * The whole command instead of `deno run <start's V8 flags> --allow-all <script>` (a compiled
   * binary).
   */
  command?: string[];
  /** Working directory (default: the project root). */
  cwd?: string;
}

export interface ExitReport {
  code: number;
  /** Every stdout and stderr line the process wrote. */
  stdout: string[];
  stderr: string[];
}

export interface RunningService {
  pid: number;
  port: number;
  url: string;
  stdout: string[];
  stderr: string[];
  /** Sends `signal` and waits for the exit. */
  stop(signal?: Deno.Signal): Promise<ExitReport>;
}

function spawn(options: ServiceOptions): Deno.ChildProcess {
  const command = options.command ??
    [Deno.execPath(), "run", ...START_V8_FLAGS, "--allow-all", options.script ?? "main.ts"];
  // The shell sets the limit, then becomes the script's process (exec), so pid and signals hold.
  if (options.maxOpenFiles) {
    command.unshift("sh", "-c", `ulimit -n ${options.maxOpenFiles} && exec "$@"`, "sh");
  }
  return new Deno.Command(command[0], {
    args: command.slice(1),
    cwd: options.cwd ?? ROOT,
    env: { HOST: "127.0.0.1", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Collects a stream's lines until it ends, calling `onLine` for each. */
async function collect(
  stream: ReadableStream<Uint8Array>,
  into: string[],
  onLine?: (line: string) => void,
) {
  let rest = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    const parts = (rest + text).split("\n");
    rest = parts.pop()!;
    for (const line of parts) {
      into.push(line);
      onLine?.(line);
    }
  }
  if (rest) into.push(rest);
}

/** A port nobody listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function accepts(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    // A connection to a free port of the ephemeral range can be the socket connected to
    // itself (TCP simultaneous open, when the kernel picks that very port as the source):
    // nobody listens then.
    const self = (conn.localAddr as Deno.NetAddr).port === port;
    conn.close();
    return !self;
  } catch {
    return false;
  }
}

/** Runs a script that is expected to exit on its own (e.g. bad configuration). */
export async function runToExit(options: ServiceOptions): Promise<ExitReport> {
  const child = spawn(options);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const [status] = await Promise.all([
    child.status,
    collect(child.stdout, stdout),
    collect(child.stderr, stderr),
  ]);
  return { code: status.code, stdout, stderr };
}

/** A service process just spawned: its port may not accept connections yet. */
export interface SpawnedService extends RunningService {
  /** Whether the process has exited. */
  exited(): boolean;
}

/** Spawns the script on a free loopback port (unless `env.PORT` is given) without waiting. */
export function spawnService(options: ServiceOptions = {}): SpawnedService {
  const port = Number(options.env?.PORT ?? freePort());
  const child = spawn({ ...options, env: { ...options.env, PORT: String(port) } });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const streams = Promise.all([collect(child.stdout, stdout), collect(child.stderr, stderr)]);
  let exitCode: number | null = null;
  const exited = child.status.then((status) => {
    exitCode = status.code;
    return status;
  });
  const stop = async (signal: Deno.Signal = "SIGTERM"): Promise<ExitReport> => {
    if (exitCode === null) child.kill(signal);
    const [status] = await Promise.all([exited, streams]);
    return { code: status.code, stdout, stderr };
  };
  const url = `http://127.0.0.1:${port}`;
  return { pid: child.pid, port, url, stdout, stderr, stop, exited: () => exitCode !== null };
}

/**
 * Starts the script on a free loopback port (unless `env.PORT` is given) and resolves once the
 * port accepts connections, whatever the log level.
 */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const service = spawnService(options);
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  while (!await accepts(service.port)) {
    if (service.exited() || Date.now() > deadline) {
      const report = await service.stop("SIGKILL");
      throw new Error(
        `${options.script ?? "main.ts"} did not start (exit ${report.code}): ` +
          report.stderr.join("\n"),
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return service;
}
