import { createRoute } from "@hono/zod-openapi";
import { CARRIER_KEYS } from "../../domain/tracking/carriers.ts";
import { jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { landingSnapshot } from "../../store/service/stats.ts";
import { LandingStatsSchema } from "../../schemas/service/landing.ts";

const getLandingStatsRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Public"],
  summary: "Platform-wide figures for the landing page",
  description: "A snapshot of the platform counters taken at most once per UTC hour, order " +
    "count and value rounded down to two significant digits, so no one order's cost shows " +
    "in it; cacheable for a minute.",
  responses: { 200: jsonResponse(LandingStatsSchema, "The figures") },
});

export const getLandingStats: AppRouteHandler<typeof getLandingStatsRoute> = async (c) => {
  const { kv, now } = c.var.deps;
  const snapshot = await landingSnapshot(kv, now());
  c.header("Cache-Control", "public, max-age=60");
  return c.json({
    generatedAt: new Date(snapshot.takenAt).toISOString(),
    totalValueCents: snapshot.valueCents,
    ordersTracked: snapshot.orders,
    platformsSupported: CARRIER_KEYS.length,
  }, 200);
};

export const landingRoutes = createRouter().openapi(getLandingStatsRoute, getLandingStats);
