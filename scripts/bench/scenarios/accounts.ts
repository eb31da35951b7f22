import { createApiKey } from "../../../src/store/api_keys.ts";
import { issueSession } from "../../../src/store/credentials.ts";
import { createUser } from "../../../src/store/users.ts";
import {
  type BenchContext,
  type BenchServer,
  type Measurement,
  MEASUREMENT_COLUMNS,
  measurementRow,
  type Scenario,
  table,
} from "../context.ts";

/** An API key's `lastUsedAt` write must not halve throughput against a session (issue 3). */
const KEY_TARGET = 0.5;

interface Credentials {
  session: string;
  apiKey: string;
}

/** One account with a session and an API key, written through the store. */
async function seedAccount(kv: Deno.Kv, out: Credentials) {
  const user = await createUser(kv, { email: "bench@example.com" });
  if (!user.ok) throw new Error("bench account not created");
  out.session = await issueSession(kv, user.user.id);
  const key = await createApiKey(kv, user.user.id, "bench");
  if (!key.ok) throw new Error("bench API key not created");
  out.apiKey = key.key;
}

/**
 * Authenticated `GET /api/auth/me` (token lookup, account read, workspace snapshot) with a
 * session and with an API key, next to the unauthenticated ceiling (`GET /api/healthz` on the
 * service and on a bare Deno.serve). The API key row includes its `lastUsedAt` recording.
 */
export const accounts: Scenario = {
  name: "accounts",
  title: "Accounts: authenticated requests with a session and with an API key",
  async run(ctx: BenchContext) {
    const credentials: Credentials = { session: "", apiKey: "" };
    const service = await ctx.startService({ seed: (kv) => seedAccount(kv, credentials) });
    const bare = await ctx.startBare();
    const runs: [string, BenchServer, string, Record<string, string>][] = [
      ["`GET /api/healthz` (no token)", bare, "/api/healthz", {}],
      ["`GET /api/healthz` (no token)", service, "/api/healthz", {}],
      ["`GET /api/auth/me`, session token", service, "/api/auth/me", {
        authorization: `Bearer ${credentials.session}`,
      }],
      ["`GET /api/auth/me`, API key", service, "/api/auth/me", {
        authorization: `Bearer ${credentials.apiKey}`,
      }],
    ];
    const rows: (string | number)[][] = [];
    const measured: Measurement[] = [];
    for (const [label, server, path, headers] of runs) {
      const m = await ctx.measure(server, { path, headers });
      measured.push(m);
      rows.push(measurementRow(label, server, m));
    }
    const [, healthz, session, apiKey] = measured;
    const keyRatio = apiKey.rps / session.rps;
    const lastUsed = await keyListing(service, credentials);
    return [
      table(["Request", ...MEASUREMENT_COLUMNS], rows),
      "",
      table(["Comparison", "Ratio", "Target"], [
        ["session `/api/auth/me` / service `/api/healthz`", pct(session.rps / healthz.rps), "-"],
        [
          "API key `/api/auth/me` / session `/api/auth/me`",
          pct(keyRatio),
          keyRatio >= KEY_TARGET ? "met (at least 50%)" : "**not met** (at least 50%)",
        ],
      ]),
      "",
      `After the run the key list showed \`lastUsedAt\` ${lastUsed}.`,
    ].join("\n");
  },
};

const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;

/** How recent the key's `lastUsedAt` is once the load has stopped. */
async function keyListing(service: BenchServer, credentials: Credentials): Promise<string> {
  const res = await fetch(`${service.url}/api/account/api-keys`, {
    headers: { authorization: `Bearer ${credentials.session}` },
  });
  const body = await res.json() as { items: { lastUsedAt?: string }[] };
  const at = body.items[0]?.lastUsedAt;
  if (!at) return "missing";
  return `${Math.round(Date.now() - Date.parse(at))} ms before the listing`;
}
