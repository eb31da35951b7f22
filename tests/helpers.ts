import { createApp } from "../src/app.ts";
import { type Config, testConfig } from "../src/config.ts";
import { createDeps, type DepsInput, drainDeps } from "../src/deps.ts";
import type { AppDeps } from "../src/deps.ts";
import { createLogger } from "../src/lib/log.ts";
import { issueSession } from "../src/store/account/credentials.ts";
import { createUser, type NewUser } from "../src/store/account/users.ts";
import type { UserRecord } from "../src/domain/account/user.ts";

export interface TestContext extends AsyncDisposable {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  kv: Deno.Kv;
  config: Config;
  /** Log lines written during the test. */
  logs: string[];
  close(): Promise<void>;
}

/** A fresh app on an in-memory KV; `await using ctx = await testApp()` closes it. */
export async function testApp(
  env: Record<string, string> = {},
  options: {
    now?: () => number;
    deps?: Pick<DepsInput, "secrets" | "outbound" | "events" | "carriers">;
  } = {},
): Promise<TestContext> {
  const kv = await Deno.openKv(":memory:");
  const config = testConfig({ LOG_LEVEL: "debug", ...env });
  const logs: string[] = [];
  const deps = createDeps({
    kv,
    config,
    persistence: "memory",
    log: createLogger(config.logLevel, (line) => logs.push(line)),
    now: options.now,
    ...options.deps,
  });
  const app = createApp(deps);
  const close = async () => {
    await drainDeps(deps);
    kv.close();
  };
  return { app, deps, kv, config, logs, close, [Symbol.asyncDispose]: close };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is instead of JSON. */
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  /** The connection's address (`info.remoteAddr`), as `Deno.serve` would pass it. */
  remoteAddr?: string;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** One request through `app.request()`; the body is parsed as JSON when there is one. */
export async function call<T = Record<string, unknown>>(
  ctx: { app: TestContext["app"] },
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const info = options.remoteAddr === undefined ? undefined : {
    remoteAddr: { transport: "tcp", hostname: options.remoteAddr, port: 40000 },
  };
  const res = await ctx.app.request(path, { method, headers, body }, info);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : null) as T,
  };
}

let userCounter = 0;

/** An account with a session token, created through the store. */
export async function signUp(
  ctx: TestContext,
  input: Partial<NewUser> = {},
): Promise<{ user: UserRecord; token: string }> {
  const result = await createUser(ctx.kv, {
    email: input.email ?? `user${++userCounter}@example.com`,
    ...input,
  });
  if (!result.ok) throw new Error(`test user not created: ${result.taken} taken`);
  const token = await issueSession(ctx.kv, result.user.id);
  return { user: result.user, token };
}
