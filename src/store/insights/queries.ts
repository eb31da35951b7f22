/**
 * The insight answers read from the maintained sums (store/insights/sums.ts): profitability,
 * calendar and leaderboard. Each reads a handful of key ranges, whatever the number of orders.
 */
import { type CalendarKind, calendarMonth } from "../../domain/insights/sums.ts";
import {
  type Contender,
  onLeaderboard,
  rank,
  type Timeframe,
  windowStart,
} from "../../domain/insights/leaderboard.ts";
import {
  addSums,
  periodStart,
  type Profitability,
  profitability,
  type ProfitMetric,
  type ProfitRange,
  type ProfitReading,
  type ProfitSums,
  zeroSums,
} from "../../domain/insights/profitability.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { localDate, safeTimeZone } from "../../lib/timezone.ts";
import { InsightReader, type PartSum } from "./sums.ts";
import type { InsightSumCache } from "./cache.ts";
import { keys } from "../keys.ts";
import { getManyChunked } from "../kv.ts";
import { listRecurringCosts } from "./recurring_costs.ts";
import { orderAnalytics } from "../orders/list.ts";
import type { WorkspaceContext } from "../sections.ts";

/** Upper end of a `YYYY-MM` bucket's days (`YYYY-MM-DD` < `YYYY-MM-99`). */
const monthEnd = (month: string) => `${month}-99`;

function bySum(sums: PartSum[], into: Record<string, ProfitSums>) {
  for (const { part, amount } of sums) {
    const bucket = (into[part[1]] ??= zeroSums());
    addSums(bucket, { [part[2] as ProfitMetric]: amount });
  }
  return into;
}

/** The account's profitability for `range` on `now` (its timezone's today). */
export async function readProfitability(
  kv: Deno.Kv,
  user: UserRecord,
  range: ProfitRange,
  now: number,
  cache?: InsightSumCache,
): Promise<Profitability> {
  const reader = new InsightReader(kv, user, cache);
  const today = localDate(now, safeTimeZone(user.timezone));
  const thisMonth = today.slice(0, 7);
  const firstMonth = range === "all" ? "" : periodStart(range, today).slice(0, 7);
  const [months, later, costs, first] = await Promise.all([
    // Whole months, the current one included (usually nothing lies after today)...
    reader.read({ from: ["m", firstMonth], to: ["m", `${thisMonth}\uffff`] }),
    // ...less the days after today in it.
    reader.read({ from: ["d", `${today}\uffff`], to: ["d", monthEnd(thisMonth)] }),
    listRecurringCosts(kv, user.id),
    // For `all`, the first day with an order counted (up to today) starts the range; "orders"
    // sorts first among a day's sums, so this reads a handful of counters.
    range === "all"
      ? reader.first(
        { from: ["d", ""], to: ["d", `${today}\uffff`] },
        (s) => s.part[2] === "orders" && s.amount > 0,
        "orders",
      )
      : null,
  ]);
  const reading: ProfitReading = {
    months: bySum(months, {}),
    later: Object.values(bySum(later, {})).reduce(addSums, zeroSums()),
    firstDay: first ? first.part[1] : null,
  };
  return profitability(range, today, reading, costs);
}

/** The calendar of `month` (default: this month in the account's timezone). */
export async function readCalendar(
  kv: Deno.Kv,
  user: UserRecord,
  month: string | undefined,
  now: number,
  cache?: InsightSumCache,
) {
  const wanted = month ?? localDate(now, safeTimeZone(user.timezone)).slice(0, 7);
  const sums = await new InsightReader(kv, user, cache).read({
    from: ["cal", wanted],
    to: ["cal", monthEnd(wanted)],
  });
  const counts: Record<string, Partial<Record<CalendarKind, number>>> = {};
  for (const { part, amount } of sums) (counts[part[1]] ??= {})[part[2] as CalendarKind] = amount;
  return calendarMonth(wanted, counts);
}

/** An account's orders and value in a timeframe, from its leaderboard sums. */
async function contenderOf(kv: Deno.Kv, user: UserRecord, timeframe: Timeframe, now: number) {
  const reader = new InsightReader(kv, user);
  const sums = timeframe === "all"
    ? await reader.read({ from: ["lb", "total"], to: ["lb", "total", "\uffff"] })
    : await reader.read({
      from: ["lb", "day", windowStart(timeframe, now)],
      // Through today: orders received on a later day are not in any window yet.
      to: ["lb", "day", `${new Date(now).toISOString().slice(0, 10)}\uffff`],
    });
  const contender: Contender = {
    username: user.username!,
    displayName: user.displayName,
    orders: 0,
    valueCents: 0,
  };
  for (const { part, amount } of sums) contender[part.at(-1) as "orders" | "valueCents"] += amount;
  return { contender, rebuilding: reader.complete ? null : user.id };
}

/**
 * The leaderboard: the listed accounts (`onLeaderboard`, an index maintained by users.ts),
 * each account's sums read from its maintained counters. No email or id leaves this function.
 */
export async function readLeaderboard(kv: Deno.Kv, timeframe: Timeframe, now: number) {
  const ids: string[] = [];
  for await (const e of kv.list({ prefix: keys.leaderboardMembers() })) ids.push(String(e.key[1]));
  const users = (await getManyChunked<UserRecord>(kv, ids.map((id) => keys.user(id))))
    .flatMap((e) => e.value && onLeaderboard(e.value) ? [e.value] : []);
  const read = await Promise.all(users.map((u) => contenderOf(kv, u, timeframe, now)));
  return {
    timeframe,
    entries: rank(read.map((r) => r.contender)),
    /** Accounts whose sums are being rebuilt (read from a scan meanwhile). */
    rebuilding: read.flatMap((r) => r.rebuilding ? [r.rebuilding] : []),
  };
}

/** The snapshot's `analytics`: order counts (all, by status), their cost, and this month's profitability. */
export async function analyticsSection(ctx: WorkspaceContext) {
  const [counts, thisMonth] = await Promise.all([
    orderAnalytics(ctx),
    readProfitability(ctx.kv, ctx.user, "month", ctx.now),
  ]);
  return { ...counts, profitability: thisMonth };
}
