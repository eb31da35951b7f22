import { createRoute, z } from "@hono/zod-openapi";
import { CARRIER_KEYS } from "../domain/carriers.ts";
import { jsonResponse } from "../http/openapi.ts";
import { createRouter } from "../http/router.ts";
import { platformCounts } from "../store/stats.ts";

const LandingStatsSchema = z.object({
  generatedAt: z.string(),
  totalValueCents: z.number().int().openapi({
    description: "Total value of the orders tracked on the platform, in cents",
  }),
  ordersTracked: z.number().int().openapi({ description: "Orders stored on the platform" }),
  platformsSupported: z.number().int().openapi({
    description: "Shipping carriers whose tracking status the service looks up",
  }),
}).openapi("LandingStats");

const route = createRoute({
  method: "get",
  path: "/landing-stats",
  tags: ["Public"],
  summary: "Platform-wide figures for the landing page",
  description: "Read from counters kept in the same commits as the changes they count; " +
    "cacheable for a minute.",
  responses: { 200: jsonResponse(LandingStatsSchema, "The figures") },
});

export const landingRoutes = createRouter().openapi(route, async (c) => {
  const { kv, now } = c.var.deps;
  const counts = await platformCounts(kv);
  c.header("Cache-Control", "public, max-age=60");
  return c.json({
    generatedAt: new Date(now()).toISOString(),
    totalValueCents: counts.valueCents,
    ordersTracked: counts.orders,
    platformsSupported: CARRIER_KEYS.length,
  }, 200);
});
