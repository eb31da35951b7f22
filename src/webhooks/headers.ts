import { z } from "@hono/zod-openapi";
import { VERSION } from "../version.ts";
import { type EventEnvelope, EventTypeSchema } from "../domain/events/envelope.ts";

export const USER_AGENT = `order-tracker-webhooks/${VERSION}`;

/**
 * The headers of a delivery (CONTRACT.md "Webhook delivery headers"). `sendEvent` builds them
 * through this type and the OpenAPI `webhooks` describe them from this schema.
 */
export const DeliveryHeadersSchema = z.object({
  "Content-Type": z.literal("application/json"),
  "User-Agent": z.string().openapi({
    description: "`order-tracker-webhooks/<version>`",
    example: USER_AGENT,
  }),
  "X-Service-Event": EventTypeSchema.openapi({ description: "The envelope's `type`" }),
  "X-Service-Event-Id": z.string().openapi({
    description: "The envelope's `id`",
    example: "evt_01jq4w5v2x8c9d0e1f2g3h4j5k",
  }),
  "X-Service-Signature": z.string().regex(/^sha256=[0-9a-f]{64}$/).openapi({
    description: "`sha256=` and the lowercase hex HMAC-SHA256 of the exact body bytes, keyed by " +
      "the whole signing secret (`whsec_...`, prefix included) as UTF-8",
    example: "sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  }),
  "X-Service-Delivery": z.string().optional().openapi({
    description: "A random id per attempt (absent on test events)",
    example: "3b241101-e2bb-4255-8caf-4136c566a962",
  }),
  "X-Service-Test": z.literal("true").optional().openapi({
    description: "Present, `true`, on test events only",
  }),
});

export type DeliveryHeaders = z.infer<typeof DeliveryHeadersSchema>;

/** A real attempt carries a delivery id; a test carries the test marker instead. */
export type Attempt = { deliveryId: string } | { test: true };

export function deliveryHeaders(
  event: EventEnvelope,
  signature: string,
  kind: Attempt,
): DeliveryHeaders {
  return {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    "X-Service-Event": event.type,
    "X-Service-Event-Id": event.id,
    "X-Service-Signature": signature,
    ...("test" in kind ? { "X-Service-Test": "true" } : { "X-Service-Delivery": kind.deliveryId }),
  };
}
