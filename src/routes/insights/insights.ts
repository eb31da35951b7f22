import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../../deps.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { currentUser } from "../../http/auth.ts";
import { authed, errors, jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { compact } from "../../lib/compact.ts";
import {
  CalendarQuery,
  CalendarSchema,
  LeaderboardQuery,
  LeaderboardSchema,
  ProfitabilitySchema,
  ProfitRangeQuery,
} from "../../schemas/insights/insights.ts";
import { readCalendar, readLeaderboard, readProfitability } from "../../store/insights/queries.ts";
import { ensureRebuilt, insightScope } from "../../store/insights/sums.ts";

const TAGS = ["Insights"];
const SUMS = "Answered from sums kept with every order change (docs/insights.md), whatever " +
  "the size of the workspace.";

const getProfitabilityRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "Money in and out over a period",
  description: "Orders count by the day of `receivedAt` in the account's timezone, up to " +
    "today; canceled orders are left out. `spentCents` sums `costCents`, `revenueCents` " +
    "`salePriceCents`, `soldCostCents` the `costCents` of orders with a sale price; " +
    "`recurringCents` counts each active recurring cost once per due date from `from` through " +
    `today. An unknown \`range\` is a 400. ${SUMS}`,
  request: { query: ProfitRangeQuery },
  responses: { 200: jsonResponse(ProfitabilitySchema, "The figures"), ...errors(400, 401) },
});

const getCalendarRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "Orders received, shipped, delivered and expected per day of a month",
  description: `A malformed \`month\` is a 400. ${SUMS}`,
  request: { query: CalendarQuery },
  responses: { 200: jsonResponse(CalendarSchema, "The month"), ...errors(400, 401) },
});

const getLeaderboardRoute = createRoute({
  ...authed,
  method: "get",
  path: "/",
  tags: TAGS,
  summary: "Accounts with public profiles and stats, ranked by orders",
  description: "Only accounts with a public profile, public stats on and a username; shows " +
    "their username, display name, orders and spend, never an email or id. An unknown " +
    "`timeframe` is a " +
    `400. ${SUMS}`,
  request: { query: LeaderboardQuery },
  responses: { 200: jsonResponse(LeaderboardSchema, "The ranking"), ...errors(400, 401) },
});

/** Finishes (in the background) the rebuild of sums a timezone change started. */
export function rebuildIfNeeded(deps: AppDeps, user: UserRecord) {
  if (insightScope(user).state.upTo === undefined) return;
  deps.background.run("insights rebuild", () => ensureRebuilt(deps.kv, user.id));
}

export const getProfitability: AppRouteHandler<typeof getProfitabilityRoute> = async (c) => {
  const { deps } = c.var;
  const user = await currentUser(c);
  rebuildIfNeeded(deps, user);
  const { range } = c.req.valid("query");
  return c.json(
    await readProfitability(deps.kv, user, range, deps.now(), deps.insightSums),
    200,
  );
};

export const getCalendar: AppRouteHandler<typeof getCalendarRoute> = async (c) => {
  const { deps } = c.var;
  const user = await currentUser(c);
  rebuildIfNeeded(deps, user);
  const { month } = c.req.valid("query");
  return c.json(await readCalendar(deps.kv, user, month, deps.now(), deps.insightSums), 200);
};

export const getLeaderboard: AppRouteHandler<typeof getLeaderboardRoute> = async (c) => {
  const { deps } = c.var;
  const board = await readLeaderboard(deps.kv, c.req.valid("query").timeframe, deps.now());
  for (const id of board.rebuilding) {
    deps.background.run("insights rebuild", () => ensureRebuilt(deps.kv, id));
  }
  return c.json({ timeframe: board.timeframe, entries: board.entries.map(compact) }, 200);
};

/** `/profitability`: money in and out over a period. */
export const profitabilityRoutes = createRouter()
  .openapi(getProfitabilityRoute, getProfitability);

/** `/calendar`: orders received, shipped, delivered and expected per day of a month. */
export const calendarRoutes = createRouter().openapi(getCalendarRoute, getCalendar);

/** `/leaderboard`: accounts with public profiles and stats, ranked by orders. */
export const leaderboardRoutes = createRouter().openapi(getLeaderboardRoute, getLeaderboard);
