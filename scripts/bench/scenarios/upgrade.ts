import { writeLegacyStore } from "../../legacy_fixture.ts";
import { createLogger } from "../../../src/lib/log.ts";
import { keys } from "../../../src/store/keys.ts";
import { MIGRATIONS } from "../../../src/store/migrations/index.ts";
import { migrateLayout } from "../../../src/store/migrations/run.ts";
import { verifyStore } from "../../../src/store/verify.ts";
import { type BenchContext, type Scenario, table } from "../context.ts";

const ORDERS_PER_ACCOUNT = 10_000;

/** The bare ceiling: every order of both accounts read once, in pages, nothing else. */
async function readEveryOrder(kv: Deno.Kv, userIds: string[]) {
  let n = 0;
  for (const id of userIds) {
    for await (const _ of kv.list({ prefix: keys.orders(id) }, { batchSize: 200 })) n++;
  }
  return n;
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await run();
  return [value, Math.round(performance.now() - started)];
}

/**
 * The start-up migrations on a 0.1.0 store of 20,000 orders (scripts/legacy_fixture.ts), then
 * `deno task verify` on the result, each against reading every order once on the same file.
 */
export const upgrade: Scenario = {
  name: "upgrade",
  title: "Upgrade: the start-up migrations and the verifier on 20,000 orders",
  async run(_ctx: BenchContext) {
    const dir = await Deno.makeTempDir();
    const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
    try {
      await writeLegacyStore(kv, { ordersPerAccount: ORDERS_PER_ACCOUNT });
      const users = (await Array.fromAsync(kv.list({ prefix: keys.users() })))
        .map((e) => String(e.key[1]));
      const [orders, ceiling] = await timed(() => readEveryOrder(kv, users));
      const log = createLogger("error");
      const [outcome, total] = await timed(() =>
        migrateLayout(kv, { log, now: Date.now, release: "bench" })
      );
      if (!outcome.ok) throw new Error(outcome.message);
      const [report, verify] = await timed(() => verifyStore(kv, { repair: false }));
      const differences = report.accounts.reduce((n, a) => n + a.differences.length, 0);
      const rows = outcome.ran.map((m) => [
        `migration \`${m.id}\``,
        Object.entries(m.counts).map(([k, v]) => `${k} ${v}`).join(", "),
        m.ms,
        m.counts.orders ? Math.round(orders / (m.ms / 1000)) : "",
      ]);
      rows.push([`all ${MIGRATIONS.length} (start-up)`, "", total, ""]);
      rows.push([
        "`deno task verify` (report)",
        `${differences} differences`,
        verify,
        Math.round(orders / (verify / 1000)),
      ]);
      rows.push([
        "ceiling: every order read once",
        `orders ${orders}`,
        ceiling,
        Math.round(orders / (ceiling / 1000)),
      ]);
      return [
        table(["Step", "Counts", "ms", "orders/s"], rows),
        "",
        "Each order migration reads every order once (the ceiling) and commits an account's " +
        "changes 50 orders at a time against its order revision; `shipped-at` also rewrites " +
        "each changed order's footprint (its copies, indexes and calendar sums). " +
        "The verifier reads every order and every key its footprint owns.",
      ].join("\n");
    } finally {
      kv.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
};
