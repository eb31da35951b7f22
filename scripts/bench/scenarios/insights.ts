import type { RecurringCost } from "../../../src/domain/insights/recurring_costs.ts";
import { createItem } from "../../../src/store/insights/collection.ts";
import { RECURRING_COSTS } from "../../../src/store/insights/recurring_costs.ts";
import {
  type BenchContext,
  type BenchServer,
  type Measurement,
  MEASUREMENT_COLUMNS,
  measurementRow,
  type Scenario,
  seedAccount,
  table,
} from "../context.ts";
import { seedOrders } from "./orders.ts";

const P50_TARGET_MS = 50;
const LIGHT_CONNECTIONS = 10;
const FREQUENCIES = ["weekly", "monthly", "quarterly", "yearly"] as const;

/** Ten recurring costs of every frequency, from the start of the seeded year. */
async function seedCosts(kv: Deno.Kv, userId: string) {
  for (let i = 0; i < 10; i++) {
    const cost: RecurringCost = {
      id: `sub_bench${i}`,
      name: `Cost ${i}`,
      costCents: 100 * (i + 1),
      frequency: FREQUENCIES[i % 4],
      startDate: `2025-01-${String(i + 10).padStart(2, "0")}`,
      active: true,
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-01T00:00:00.000Z",
    };
    await createItem(kv, RECURRING_COSTS, userId, cost.id, cost);
  }
}

interface Row {
  label: string;
  server: BenchServer;
  connections: number;
  m: Measurement;
}

const verdict = (ok: boolean) => ok ? "met" : "**not met**";

export const insights: Scenario = {
  name: "insights",
  title: "Insights: profitability and calendar on a workspace of 100,000 orders",
  async run(ctx: BenchContext) {
    let key = "";
    const started = performance.now();
    const service = await ctx.startService({
      seed: async (kv) => {
        const userId = (await seedAccount(kv, (k) => key = k, "America/New_York")).id;
        await seedOrders(kv, userId);
        await seedCosts(kv, userId);
      },
    });
    const seedSeconds = Math.round((performance.now() - started) / 100) / 10;
    const bare = await ctx.startBare({
      script: "scripts/bench/bare_orders.ts",
      kvPath: service.kvPath,
    });
    const headers = { authorization: `Bearer ${key}` };
    const rows: Row[] = [];
    const verdicts: (string | number)[][] = [];
    const list = "`GET /api/orders?limit=50` (bare list ceiling)";
    for (const connections of [ctx.connections, LIGHT_CONNECTIONS]) {
      const m = await ctx.measure(bare, { path: "/api/orders?limit=50", headers, connections });
      rows.push({ label: list, server: bare, connections, m });
    }
    const requests = [
      ["`GET /api/profitability?range=all`", "/api/profitability?range=all"],
      ["`GET /api/profitability` (month)", "/api/profitability"],
      ["`GET /api/calendar?month=2025-06`", "/api/calendar?month=2025-06"],
    ];
    for (const [label, path] of requests) {
      const heavy = await ctx.measure(service, { path, headers });
      const light = await ctx.measure(service, { path, headers, connections: LIGHT_CONNECTIONS });
      rows.push({ label, server: service, connections: ctx.connections, m: heavy });
      rows.push({ label, server: service, connections: LIGHT_CONNECTIONS, m: light });
      verdicts.push([
        label,
        `p50 < ${P50_TARGET_MS} ms`,
        `${heavy.p50Ms} ms`,
        `${light.p50Ms} ms`,
        verdict(heavy.p50Ms < P50_TARGET_MS),
      ]);
    }
    const [bareHeavy, bareLight] = rows;
    return [
      "The workspace of the orders scenario (100,000 orders, one every 5 minutes through 2025, " +
      "account timezone America/New_York) plus ten recurring costs of every frequency, seeded " +
      `through the storage layer in ${seedSeconds} s. Profitability and the calendar read the ` +
      "insight sums kept with every order change (four per month for profitability, at most " +
      "124 for a calendar month), never the orders. The ceiling is the bare list of the orders " +
      "scenario (`scripts/bench/bare_orders.ts`, no framework) on the same KV file: the " +
      "cheapest read of this workspace. No order changes during a measurement, so after the " +
      "first request the sums come from the process's insight cache (one read of the order " +
      "revision); the recurring costs are listed and counted on every request.",
      "",
      table(
        ["Request", "Connections", ...MEASUREMENT_COLUMNS],
        rows.map(({ label, server, connections, m }) => {
          const [, ...cells] = measurementRow(label, server, m);
          return [label, connections, ...cells];
        }),
      ),
      "",
      table([
        "Request",
        "Target",
        `Service, ${ctx.connections} conn.`,
        `Service, ${LIGHT_CONNECTIONS} conn.`,
        `Result (${ctx.connections} conn.)`,
      ], verdicts),
      "",
      `Bare list ceiling: p50 ${bareHeavy.m.p50Ms} ms at ${ctx.connections} connections, ` +
      `${bareLight.m.p50Ms} ms at ${LIGHT_CONNECTIONS}. The machine (2 cores) is shared with ` +
      "other work, so absolute figures move between runs; the load average above says how " +
      "busy it was.",
    ].join("\n");
  },
};
