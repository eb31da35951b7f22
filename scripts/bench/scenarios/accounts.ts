import { createApiKey } from "../../../src/store/account/api_keys.ts";
import { issueSession } from "../../../src/store/account/credentials.ts";
import { createUser } from "../../../src/store/account/users.ts";
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
 * Authenticated `GET /api/auth/me` (token lookup, account read, workspace snapshot) and the
 * token check alone, each with a session and with an API key, next to the unauthenticated
 * ceiling (`GET /api/healthz` on the service and on a bare Deno.serve). The API key rows include
 * its `lastUsedAt` recording, the only difference from the session rows.
 */
export const accounts: Scenario = {
  name: "accounts",
  title: "Accounts: authenticated requests with a session and with an API key",
  async run(ctx: BenchContext) {
    const credentials: Credentials = { session: "", apiKey: "" };
    const service = await ctx.startService({ seed: (kv) => seedAccount(kv, credentials) });
    const bare = await ctx.startBare();
    const session = { authorization: `Bearer ${credentials.session}` };
    const apiKey = { authorization: `Bearer ${credentials.apiKey}` };
    const runs: [string, BenchServer, string, Record<string, string>][] = [
      ["`GET /api/healthz` (no token)", bare, "/api/healthz", {}],
      ["`GET /api/healthz` (no token)", service, "/api/healthz", {}],
      ["`GET /api/auth/me`, session token", service, "/api/auth/me", session],
      ["`GET /api/auth/me`, API key", service, "/api/auth/me", apiKey],
      [`${AUTH_ONLY_LABEL}, session token`, service, AUTH_ONLY, session],
      [`${AUTH_ONLY_LABEL}, API key`, service, AUTH_ONLY, apiKey],
    ];
    const rows: (string | number)[][] = [];
    const measured: Measurement[] = [];
    for (const [label, server, path, headers] of runs) {
      const m = await ctx.measure(server, { path, headers });
      measured.push(m);
      rows.push(measurementRow(label, server, m));
    }
    const [, healthz, meSession, meKey, onlySession, onlyKey] = measured;
    const lastUsed = await keyListing(service, credentials);
    return [
      table(["Request", ...MEASUREMENT_COLUMNS], rows),
      "",
      table(["Comparison", "Requests/s ratio", "Target"], [
        [
          "`/api/auth/me` with a session / service `/api/healthz`",
          pct(meSession.rps / healthz.rps),
          "-",
        ],
        [
          "token check alone with a session / service `/api/healthz`",
          pct(onlySession.rps / healthz.rps),
          "-",
        ],
        keyRow("`/api/auth/me`: API key / session", meKey, meSession),
        keyRow("token check alone: API key / session", onlyKey, onlySession),
      ]),
      "",
      "The API key rows differ from the session rows only by the `lastUsedAt` recording (an " +
      "in-memory update per request, at most one KV write in flight per key). `/api/auth/me` " +
      "reads the token, the account and every snapshot section (about eight KV reads for an " +
      "empty workspace); the token check alone is one SHA-256 and one KV read.",
      "",
      `After the run the key list showed \`lastUsedAt\` ${lastUsed}.`,
    ].join("\n");
  },
};

/**
 * An authenticated request that does nothing after the token check (the username fails its
 * rules before any storage read): what authentication itself costs.
 */
const AUTH_ONLY = "/api/account/username/available?u=ab";
const AUTH_ONLY_LABEL = "`GET /api/account/username/available?u=ab` (token check alone)";

const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;

function keyRow(label: string, key: Measurement, session: Measurement) {
  const ratio = key.rps / session.rps;
  return [
    label,
    pct(ratio),
    ratio >= KEY_TARGET ? "met (at least 50%)" : "**not met** (at least 50%)",
  ];
}

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
