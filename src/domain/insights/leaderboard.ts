/**
 * The public leaderboard (CONTRACT.md): accounts with a public profile, public stats and a
 * username (`onLeaderboard`), ranked by
 * orders received in the timeframe, then the summed `costCents` of those orders, then username.
 * Timeframes are whole UTC days, so every account is measured on the same clock: `week` is
 * today and the 6 days before it, `month` today and the 29 before, `all` every day. Canceled
 * orders are left out, as in profitability.
 */
import type { Order } from "../orders/order.ts";
import { dayNumber, fromDayNumber } from "./recurring_costs.ts";
import type { Contribution } from "./sums.ts";
import type { UserRecord } from "../account/user.ts";

export const TIMEFRAMES = ["week", "month", "all"] as const;
export type Timeframe = typeof TIMEFRAMES[number];

export const LEADERBOARD_SIZE = 100;

/**
 * Who the leaderboard lists: an account that made its profile public and turned public stats
 * on, with a username. It shows the account's order count and spend, so a private profile is
 * never on it, whatever its stats setting.
 */
export function onLeaderboard(
  user: Pick<UserRecord, "publicProfile" | "publicStats" | "username">,
): boolean {
  return user.publicProfile && user.publicStats && !!user.username;
}
const WINDOW_DAYS: Record<Exclude<Timeframe, "all">, number> = { week: 7, month: 30 };

/** `["day", "YYYY-MM-DD" (UTC), metric]` or `["total", metric]`. */
export type LeaderboardPart =
  | readonly ["day", string, "orders" | "valueCents"]
  | readonly [
    "total",
    "orders" | "valueCents",
  ];

/** The per-account sums an order adds to: its UTC day's and the all-time ones. */
export function leaderboardContributions(order: Order): Contribution<LeaderboardPart>[] {
  if (order.status === "canceled") return [];
  const day = order.receivedAt.slice(0, 10);
  const value = order.costCents ?? 0;
  const out: Contribution<LeaderboardPart>[] = [
    { part: ["day", day, "orders"], amount: 1 },
    { part: ["total", "orders"], amount: 1 },
  ];
  if (value) {
    out.push({ part: ["day", day, "valueCents"], amount: value });
    out.push({ part: ["total", "valueCents"], amount: value });
  }
  return out;
}

/** The first UTC day of a windowed timeframe on `now`. */
export function windowStart(timeframe: Exclude<Timeframe, "all">, now: number): string {
  const today = new Date(now).toISOString().slice(0, 10);
  return fromDayNumber(dayNumber(today) - WINDOW_DAYS[timeframe] + 1);
}

export interface Contender {
  username: string;
  displayName?: string;
  orders: number;
  valueCents: number;
}

export interface LeaderboardEntry extends Contender {
  rank: number;
}

/** Ranks the accounts with at least one order; the first {@link LEADERBOARD_SIZE}. */
export function rank(contenders: Contender[]): LeaderboardEntry[] {
  return contenders
    .filter((c) => c.orders > 0)
    .sort((a, b) =>
      b.orders - a.orders || b.valueCents - a.valueCents ||
      (a.username < b.username ? -1 : a.username > b.username ? 1 : 0)
    )
    .slice(0, LEADERBOARD_SIZE)
    .map((c, i) => ({ rank: i + 1, ...c }));
}
