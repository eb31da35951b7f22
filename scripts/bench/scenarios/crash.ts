/**
 * Webhook repeats after crashes (issue 20): 1,500 `POST /api/orders` at 16 connections on a KV
 * file, three `order.created` subscriptions whose receivers answer after 400 ms, the service
 * killed with SIGKILL five times mid-run and restarted on the same file
 * (tests/webhooks/crash_run.ts). Next to it, the same run without kills. What a receiver gets
 * twice is compared with what was on the wire at the kills: requests it had received (before
 * the restart) and not yet answered when the kill landed, which any at-least-once delivery has
 * to send again.
 */
import { crashRun, type CrashRunResult } from "../../../tests/webhooks/crash_run.ts";
import { type Scenario, table } from "../context.ts";

const SETUP = { orders: 1500, replyMs: 400, subscriptions: 3, clients: 16, settleMs: 90_000 };

function row(name: string, r: CrashRunResult): (string | number)[] {
  const onWire = r.onWire.reduce((a, b) => a + b, 0);
  return [
    name,
    r.created,
    r.pairs,
    r.missing,
    r.requests,
    r.duplicates,
    r.onWire.length ? `${onWire} (${r.onWire.join(", ")})` : "-",
    r.unexplained,
    `${(100 * r.duplicates / r.pairs).toFixed(1)}%`,
    r.seconds,
  ];
}

export const crash: Scenario = {
  name: "crash",
  title: "Webhook repeats after SIGKILL: 1,500 orders, 3 subscriptions, 400 ms receivers",
  async run() {
    const quiet = await crashRun({ ...SETUP, kills: 0 });
    const killed = await crashRun({ ...SETUP, kills: 5 });
    return [
      table(
        [
          "Run",
          "Orders (201)",
          "Pairs delivered",
          "Pairs missing",
          "Requests",
          "Repeats",
          "On the wire at the kills",
          "Repeats of answered pairs",
          "Repeats / pairs",
          "Seconds",
        ],
        [row("no kill", quiet), row("5 SIGKILLs, restart 5.5 s later", killed)],
      ),
      "",
      "A repeat is a request beyond the first for its (event, subscription) pair (same event " +
      "id). On the wire: requests a receiver had received before the restart and not answered " +
      "when the kill landed (per kill in brackets); they are the floor of any at-least-once " +
      "delivery. Repeats of answered pairs: repeats beyond that floor, pairs whose receiver had " +
      "answered before the kill.",
    ].join("\n");
  },
};
