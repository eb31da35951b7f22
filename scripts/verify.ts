/**
 * `deno task verify <kv file or KV Connect URL> [--repair]`: recomputes from the orders every
 * maintained sum, counter and index (src/store/verify.ts), prints one JSON line per account
 * with differences and a summary, and with `--repair` writes the expected values in bounded
 * commits while the service keeps running. On Deno Deploy, run it from anywhere against the
 * database's KV Connect URL with `DENO_KV_ACCESS_TOKEN` set (docs/deploy.md, Upgrading).
 * Exit status: 0 when nothing differs (or everything found was repaired), 1 when differences
 * remain, 2 on a usage error.
 */
import { openStore } from "../src/store/kv.ts";
import { type Difference, verifyStore } from "../src/store/verify.ts";

/** Differences printed per account; the rest are counted. */
const SHOWN = 20;

const text = (value: unknown) =>
  JSON.stringify(value, (_, v) => typeof v === "bigint" ? Number(v) : v);

const shown = (diffs: Difference[]) =>
  diffs.slice(0, SHOWN).map((d) => ({
    ...d,
    // A copy of an order is named by its id rather than printed whole.
    expected: typeof d.expected === "object" && d.expected ? "(order copy)" : d.expected,
    actual: typeof d.actual === "object" && d.actual ? "(order copy)" : d.actual,
  }));

if (import.meta.main) {
  const repair = Deno.args.includes("--repair");
  const [path, ...rest] = Deno.args.filter((a) => a !== "--repair");
  if (!path || rest.length) {
    console.error("usage: deno task verify <kv file or KV Connect URL> [--repair]");
    Deno.exit(2);
  }
  const store = await openStore(path);
  const { kv } = store;
  const report = await verifyStore(kv, {
    repair,
    onAccount: (a) => {
      if (!a.differences.length && !a.busy && !a.skipped) return;
      console.log(text({
        account: a.userId,
        orders: a.orders,
        differences: a.differences.length,
        repaired: a.repaired,
        skippedOrders: a.skipped,
        ...(a.busy ? { busy: true } : {}),
        first: shown(a.differences),
      }));
    },
  });
  store.close();
  const differing = report.accounts.filter((a) => a.differences.length);
  const summary = {
    accounts: report.accounts.length,
    orders: report.accounts.reduce((n, a) => n + a.orders, 0),
    accountsDiffering: differing.length,
    differences: differing.reduce((n, a) => n + a.differences.length, 0),
    repaired: report.accounts.reduce((n, a) => n + a.repaired, 0),
    busy: report.accounts.filter((a) => a.busy).length + (report.platformBusy ? 1 : 0),
    skippedAccounts: report.skippedAccounts,
    skippedOrders: report.accounts.reduce((n, a) => n + a.skipped, 0),
    unknownKeys: report.unknownKeys,
    platform: shown(report.platform),
    platformRepaired: report.platformRepaired,
  };
  console.log(text({ summary }));
  const left = !repair && (summary.differences > 0 || report.platform.length > 0);
  Deno.exit(left || summary.busy ? 1 : 0);
}
