import {
  type Measurement,
  pair,
  type Row,
  rowsTable,
  type Scenario,
  seedAccount,
  table,
  verdict,
} from "../context.ts";
import { seedOrders } from "./orders.ts";

/** Issue 28: `q` p50 and p99 at 10 connections, whatever the account's size. */
const P50_TARGET_MS = 20;
const P99_TARGET_MS = 60;
const LIGHT_CONNECTIONS = 10;
const SIZES = [10_000, 100_000];
const TIMEZONE = "America/New_York";

const QUERIES = [
  // 100 matches in both accounts (112-0000400 to 112-0000499).
  { label: "`q=112-00004` (order number)", query: "?limit=50&q=112-00004" },
  // One order in 81: 124 matches in 10,000, 1,235 in 100,000.
  { label: "`q=desk%20lamp`", query: "?limit=50&q=desk%20lamp" },
  // One match in both (order 100's tracking number).
  { label: "`q=1z0000791` (tracking number)", query: "?limit=50&q=1z0000791" },
  // Broad: a letter in 96% of the orders (its words' postings outnumber the orders, so every
  // order is checked), and two digits in every order number (inside too many words to look up).
  { label: "`q=e` (broad)", query: "?limit=50&q=e" },
  { label: "`q=12` (broad)", query: "?limit=50&q=12" },
];

export const search: Scenario = {
  name: "search",
  title: "Search: `q` on workspaces of 10,000 and 100,000 orders",
  async run(ctx) {
    const apiKeys: string[] = [];
    const seedStarted = performance.now();
    const service = await ctx.startService({
      seed: async (kv) => {
        for (const [i, size] of SIZES.entries()) {
          const email = `search${i}@example.com`;
          const user = await seedAccount(kv, (k) => apiKeys.push(k), TIMEZONE, email);
          await seedOrders(kv, user.id, size);
        }
      },
    });
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;
    const bare = await ctx.startBare({
      script: "scripts/bench/bare_orders.ts",
      kvPath: service.kvPath,
    });
    const rows: Row[] = [];
    const verdicts: (string | number)[][] = [];
    for (const { label, query } of QUERIES) {
      for (const [i, size] of SIZES.entries()) {
        const headers = { authorization: `Bearer ${apiKeys[i]}` };
        const named = `${label}, ${size.toLocaleString("en")} orders`;
        const path = `/api/orders${query}`;
        const [b, s] = await pair(ctx, [bare, service], named, { path, headers });
        const light = await ctx.measure(service, {
          path,
          headers,
          connections: LIGHT_CONNECTIONS,
        });
        rows.push(b, s, {
          label: named,
          server: service,
          connections: LIGHT_CONNECTIONS,
          m: light,
        });
        const met = (m: Measurement) => m.p50Ms < P50_TARGET_MS && m.p99Ms < P99_TARGET_MS;
        verdicts.push([
          named,
          `${light.p50Ms} / ${light.p99Ms} ms`,
          `${s.m.p50Ms} / ${s.m.p99Ms} ms`,
          `${b.m.p50Ms} / ${b.m.p99Ms} ms`,
          verdict(met(light)),
        ]);
      }
    }
    return [
      "Two accounts in one KV file, 10,000 and 100,000 orders (the orders scenario's generator: " +
      "one every 5 minutes from 2025-01-01), seeded through the storage layer (`importOrders`, " +
      `six orders per commit) in ${seedSeconds} s. Both servers read the same file; the bare ` +
      "ceiling (`scripts/bench/bare_orders.ts`) calls the same `listOrders` without the " +
      "framework.",
      "",
      rowsTable(rows),
      "",
      table([
        "Request",
        `Service p50 / p99, ${LIGHT_CONNECTIONS} conn.`,
        `Service p50 / p99, ${ctx.connections} conn.`,
        `Ceiling p50 / p99, ${ctx.connections} conn.`,
        `p50 < ${P50_TARGET_MS} ms and p99 < ${P99_TARGET_MS} ms at ${LIGHT_CONNECTIONS} conn.`,
      ], verdicts),
    ].join("\n");
  },
};
