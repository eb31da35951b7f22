/**
 * Carriers: detection rate, and tracker passes over 10,000 shipped orders against the carriers'
 * fakes (tests/tracking/fakes.ts, in this process, on loopback), on a KV file like the
 * service's. Passes are run by calling the tracker's handler, as the cron job does.
 */
import { join } from "node:path";
import { testConfig } from "../../../src/config.ts";
import { createDeps } from "../../../src/deps.ts";
import { type CarrierKey } from "../../../src/domain/tracking/carriers.ts";
import { newOrder } from "../../../src/domain/orders/order.ts";
import { budgetDay, budgetShares } from "../../../src/domain/tracking/tracker.ts";
import { detectCarrier } from "../../../src/domain/tracking/number.ts";
import { newId } from "../../../src/lib/ids.ts";
import { createLogger } from "../../../src/lib/log.ts";
import { runTracker, type TrackerReport } from "../../../src/tracking/tracker.ts";
import { callsSpent } from "../../../src/store/tracking/carrier_budget.ts";
import { openStore } from "../../../src/store/kv.ts";
import { importOrders } from "../../../src/store/orders/orders.ts";
import { createUser } from "../../../src/store/account/users.ts";
import {
  dhlAnswer,
  dhlExpressNumber,
  dhlNumber,
  fedexAnswer,
  fedexNumber,
  journey,
  type Stage,
  upsAnswer,
  upsNumber,
  uspsAnswer,
  uspsNumber,
} from "../../../tests/tracking/answers.ts";
import { NO_PACING, startFakes } from "../../../tests/tracking/fakes.ts";
import { type BenchContext, type Scenario, table } from "../context.ts";
import { cpuSeconds } from "../proc.ts";

const ORDERS = 10_000;
const WORKSPACES = 100;
const DETECTION_NUMBERS = 200_000;

const NUMBER_OF: Record<CarrierKey, (i: number) => string> = {
  ups: upsNumber,
  fedex: fedexNumber,
  usps: uspsNumber,
  dhl: dhlNumber,
  "dhl-express": dhlExpressNumber,
};
const CARRIER_ORDER: CarrierKey[] = ["ups", "fedex", "usps", "dhl", "dhl-express"];

/** Valid numbers of every carrier (some with spaces), and as many that are not numbers. */
function detectionInput(): string[] {
  const out: string[] = [];
  for (let i = 0; i < DETECTION_NUMBERS / 2; i++) {
    const n = NUMBER_OF[CARRIER_ORDER[i % 5]](i);
    out.push(i % 4 === 0 ? `${n.slice(0, 4)} ${n.slice(4, 8)} ${n.slice(8)}` : n);
    // Same lengths, one digit off (a wrong check digit), or random letters and digits.
    const wrong = n.slice(0, -1) + ((Number(n.at(-1)) + 1) % 10);
    out.push(i % 2 ? wrong : Math.random().toString(36).slice(2, 14).toUpperCase());
  }
  return out;
}

function measureDetection(): (string | number)[][] {
  const input = detectionInput();
  const rows: (string | number)[][] = [];
  for (const [label, list] of [["mixed (half valid)", input]] as const) {
    let valid = 0;
    for (const n of list.slice(0, 10_000)) detectCarrier(n); // warm-up
    const started = performance.now();
    for (const n of list) if (detectCarrier(n).valid) valid++;
    const seconds = (performance.now() - started) / 1000;
    rows.push([
      label,
      list.length,
      valid,
      Math.round(list.length / seconds),
      (seconds * 1000).toFixed(0),
    ]);
  }
  return rows;
}

/** A parcel's journey from its number: a third delivered, the rest at some stage under way. */
function journeyOf(n: string) {
  let h = 0;
  for (const ch of n) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const stages: Stage[][] = [
    ["label", "transit"],
    ["label", "transit", "transit", "out"],
    ["label", "transit", "out", "delivered"],
  ];
  return journey("2025-03-08T10:00:00Z", stages[h % 3], 5, "2025-03-12");
}

async function seed(kv: Deno.Kv): Promise<void> {
  const perWorkspace = ORDERS / WORKSPACES;
  const base = Date.parse("2025-03-08T00:00:00Z");
  for (let w = 0; w < WORKSPACES; w++) {
    const created = await createUser(kv, { email: `tracker${w}@example.com` });
    if (!created.ok) throw new Error("seed user not created");
    const orders = [];
    for (let k = 0; k < perWorkspace; k++) {
      const i = w * perWorkspace + k;
      const ms = base + i * 7_000;
      const carrier = CARRIER_ORDER[i % 5];
      orders.push(newOrder(
        newId("ord", ms),
        {
          itemSummary: `Parcel ${i}`,
          trackingNumber: NUMBER_OF[carrier](i),
          carrier,
          status: "shipped",
          receivedAt: new Date(ms).toISOString(),
        },
        {},
        "email",
        ms,
      ));
    }
    await importOrders(kv, created.user.id, orders);
  }
}

interface PassRun {
  label: string;
  report: TrackerReport;
  wallMs: number;
  cpuS: number;
  spent: Record<string, number>;
  shares: { tracker: number; lookup: number };
}

async function trackerPasses(): Promise<PassRun[]> {
  const dir = await Deno.makeTempDir({ prefix: "bench-carriers-" });
  const fakes = startFakes();
  for (const fake of [fakes.ups, fakes.fedex, fakes.usps, fakes.dhl]) {
    fake.answer = (n) => {
      const j = journeyOf(n);
      if (fake.api === "ups") return upsAnswer(n, j);
      if (fake.api === "fedex") return fedexAnswer(n, j);
      if (fake.api === "usps") return uspsAnswer(n, j);
      return dhlAnswer(n, j, n.startsWith("GM") ? "ecommerce" : "express");
    };
  }
  const runs: PassRun[] = [];
  try {
    const path = join(dir, "kv.sqlite3");
    const store = await openStore(path);
    const { kv, persistence } = store;
    await seed(kv);
    // Noon UTC: 24 half-hour passes are left in the day.
    let clock = Date.parse("2025-03-10T12:00:00Z");
    const pass = async (label: string, budget: number, pacing: boolean) => {
      const config = testConfig({
        ...fakes.env,
        KV_PATH: path,
        TRACKING_DAILY_BUDGET: String(budget),
      });
      const deps = createDeps({
        kv,
        config,
        persistence,
        log: createLogger("error"),
        now: () => clock,
        carriers: pacing ? {} : NO_PACING,
      });
      const cpu = await cpuSeconds(Deno.pid);
      const started = performance.now();
      const report = await runTracker(deps);
      const wallMs = performance.now() - started;
      if (!report) throw new Error("the tracker did not run");
      const spent: Record<string, number> = {};
      for (const api of ["ups", "fedex", "usps", "dhl"]) {
        spent[api] = await callsSpent(kv, api, budgetDay(clock), "tracker");
      }
      runs.push({
        label,
        report,
        wallMs,
        cpuS: await cpuSeconds(Deno.pid) - cpu,
        spent,
        shares: budgetShares(budget),
      });
    };
    await pass("default budget (1,000/day) and pacing", 1000, true);
    clock += 24 * 3_600_000; // a new day, a fresh budget
    await pass("budget 1,000,000/day, no pacing: every due number", 1_000_000, false);
    clock += 30 * 60_000;
    await pass("next pass, nothing due (discovery only)", 1_000_000, false);
    store.close();
  } finally {
    await fakes.close();
    await Deno.remove(dir, { recursive: true });
  }
  return runs;
}

function passRows(runs: PassRun[]) {
  return runs.map(({ label, report, wallMs, cpuS, spent, shares }) => {
    const apis = Object.entries(report.apis);
    const looked = apis.reduce((a, [, r]) => a + r.looked, 0);
    const calls = apis.reduce((a, [, r]) => a + r.calls, 0);
    const perApi = apis.map(([api, r]) => `${api} ${r.calls}/${r.allowance}`).join(", ") || "none";
    const respected = apis.every(([api, r]) =>
      spent[api] <= shares.tracker && r.calls <= r.allowance + 1
    );
    return [
      label,
      report.tracked,
      looked,
      report.ordersUpdated,
      calls,
      perApi,
      (wallMs / 1000).toFixed(1),
      looked ? Math.round(looked / (wallMs / 1000)) : 0,
      cpuS.toFixed(1),
      looked ? (cpuS * 1000 / looked).toFixed(1) : "-",
      respected ? "yes" : "**no**",
    ];
  });
}

export const carriers: Scenario = {
  name: "carriers",
  title: "Carriers: detection, and tracker passes over 10,000 shipped orders",
  async run(_ctx: BenchContext) {
    const detection = measureDetection();
    const runs = await trackerPasses();
    return [
      "Detection (`detectCarrier`, pure, one core): numbers of all five carriers (a quarter with " +
      "spaces) mixed with as many that are not valid (a wrong check digit, or random letters " +
      "and digits).",
      "",
      table(["Input", "Numbers", "Valid", "Numbers/s", "Total ms"], detection),
      "",
      `Tracker passes: ${ORDERS.toLocaleString("en")} shipped orders in ${WORKSPACES} ` +
      "workspaces on a KV file, 2,000 per carrier key (DHL's API serves `dhl` and " +
      "`dhl-express`: 4,000), against the four fakes in this process (their work is in the " +
      "wall time and CPU). Pass clock: 12:00 UTC, 30-minute passes (24 left in the day). " +
      '"Calls/allowance": requests made (token requests included) against the pass ' +
      'allowance; "Budget respected": no API\'s tracker counter over its share of the day ' +
      "and no pass over its allowance by more than one token request. The machine is shared " +
      "with other work (see the load average above): wall times stretch with it, while CPU " +
      "per lookup (tracker, KV commits and the fakes together) does not.",
      "",
      table(
        [
          "Pass",
          "Numbers tracked",
          "Looked up",
          "Orders updated",
          "Calls",
          "Calls/allowance per API",
          "Wall s",
          "Lookups/s",
          "Process CPU s",
          "CPU ms per lookup",
          "Budget respected",
        ],
        passRows(runs),
      ),
    ].join("\n");
  },
};
