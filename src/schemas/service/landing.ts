/** The response body of `GET /api/landing-stats`. */
import { z } from "@hono/zod-openapi";

export const LandingStatsSchema = z.object({
  generatedAt: z.string().openapi({ description: "When the figures were taken" }),
  totalValueCents: z.number().int().openapi({
    description: "Total value of the orders tracked on the platform, in cents, rounded down " +
      "to two significant digits",
  }),
  ordersTracked: z.number().int().openapi({
    description: "Orders stored on the platform, rounded down to two significant digits",
  }),
  platformsSupported: z.number().int().openapi({
    description: "Shipping carriers whose tracking status the service looks up",
  }),
}).openapi("LandingStats");
