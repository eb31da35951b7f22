/** Request and response bodies of the carrier endpoints (`/api/carriers`, `/api/carrier-status`). */
import { z } from "@hono/zod-openapi";
import { CARRIER_KEYS } from "../../domain/tracking/carriers.ts";
import { TRACKING_STATUSES } from "../../domain/tracking/answer.ts";
import { MAX_RAW_LENGTH } from "../../domain/tracking/number.ts";

export const CarrierKeySchema = z.enum(CARRIER_KEYS).openapi("CarrierKey", {
  description: "`dhl` is DHL eCommerce / Paket, `dhl-express` DHL's air waybills",
});

export const TrackingNumberParam = z.string().max(MAX_RAW_LENGTH).openapi({
  description: "As printed or pasted: spaces and dashes are ignored, case too",
  example: "1Z5R89390357567127",
});

export const CarrierListSchema = z.object({
  carriers: z.array(z.object({
    key: CarrierKeySchema,
    name: z.string().openapi({ example: "UPS" }),
    configured: z.boolean().openapi({
      description: "Whether this deployment has the carrier's API credentials; " +
        "`GET /api/carrier-status` answers 503 for a carrier without them",
    }),
  })),
}).openapi("CarrierList");

export const DetectionSchema = z.object({
  valid: z.boolean(),
  carrier: CarrierKeySchema.optional().openapi({ description: "Omitted when not valid" }),
  trackingNumber: z.string().optional().openapi({
    description: "The number normalised (upper case, no spaces or dashes); omitted when not valid",
    example: "1Z5R89390357567127",
  }),
}).openapi("CarrierDetection");

export const TrackingEventSchema = z.object({
  time: z.string().optional().openapi({
    description: "ISO 8601: UTC (`Z`) when the carrier gave the time zone, else the local " +
      "time of the scan's place without zone (`2024-11-22T13:58:00`), or a date",
  }),
  location: z.string().optional().openapi({ example: "PARAMUS, NJ, US" }),
  description: z.string().openapi({ example: "Out For Delivery Today" }),
}).openapi("TrackingEvent");

export const CarrierStatusSchema = z.object({
  trackingNumber: z.string().openapi({ example: "1Z5R89390357567127" }),
  carrier: CarrierKeySchema,
  status: z.enum(TRACKING_STATUSES).openapi({
    description: "`unknown` also when the carrier does not know the number; `pre_transit` is a " +
      "label not yet scanned",
  }),
  delivered: z.boolean(),
  estimatedDelivery: z.string().optional().openapi({
    description: "Calendar date (account timezone where the carrier gave an instant)",
    example: "2024-03-12",
  }),
  actualDelivery: z.string().optional().openapi({
    description: "Calendar date of delivery in the account's timezone, when delivered",
  }),
  eventCount: z.number().int().openapi({ description: "Scans the carrier reported" }),
  events: z.array(TrackingEventSchema).openapi({ description: "Newest first, at most 50" }),
  checkedAt: z.string().openapi({ description: "When the carrier was asked" }),
  cached: z.boolean().openapi({ description: "True when served from the workspace's cache" }),
}).openapi("CarrierStatus");
