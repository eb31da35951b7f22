import { z } from "@hono/zod-openapi";
import { EventTypeSchema } from "../../domain/events/envelope.ts";
import {
  AUTO_PAUSE_FAILURES,
  MAX_SUBSCRIPTIONS,
  SECRET_PREFIX_LENGTH,
} from "../../domain/webhooks/subscription.ts";

const URL_RULE = "Must be `https:` and must not resolve to a private or internal address " +
  "(every A and AAAA answer is checked, and again at send time). `http:` is accepted only " +
  "for addresses listed in the deployment's `ALLOWED_PRIVATE_ADDRESSES`. Stored normalised.";

/** A receiver URL as a request carries it. */
export const ReceiverUrl = z.string().trim().min(1).max(2048);

export const WebhookSubscriptionSchema = z.object({
  id: z.string().openapi({ example: "whsub_01j9z3k8q2m4n6p8r0t2v4x6z8" }),
  userId: z.string(),
  url: z.string().openapi({ example: "https://example.com/hooks/orders" }),
  prefix: z.string().optional().openapi({
    description: `First ${SECRET_PREFIX_LENGTH} characters of the signing secret`,
    example: "whsec_AbCdEfGh",
  }),
  eventTypes: z.array(EventTypeSchema),
  active: z.boolean(),
  failureCount: z.number().int().openapi({
    description: `Consecutive failed deliveries; the ${AUTO_PAUSE_FAILURES}th sets ` +
      "`active: false`. Reset by a success, by PATCH `active: true` and by secret rotation.",
  }),
  lastFiredAt: z.string().optional().openapi({
    description: "Latest delivery attempt, successful or not (tests excluded)",
  }),
  lastError: z.string().optional().openapi({
    description: "Error of the latest failure or skip: `timeout`, `HTTP 500`, " +
      "`connection refused`, or a request to rotate the secret",
    example: "HTTP 301",
  }),
  createdAt: z.string(),
  needsSecretRotation: z.boolean().openapi({
    description: "True when no signing secret is stored; events are skipped until rotation",
  }),
}).openapi("WebhookSubscription");

export const WebhookSubscriptionWithSecretSchema = WebhookSubscriptionSchema.extend({
  secret: z.string().openapi({
    description: "The signing secret (`whsec_...`); shown only in this response",
  }),
}).openapi("WebhookSubscriptionWithSecret");

const EventTypes = z.array(EventTypeSchema).min(1, "must list at least one event type").max(
  50,
).openapi({ description: "Event types to receive; duplicates are removed" });

export const CreateSubscriptionBody = z.object({
  url: ReceiverUrl.openapi({ description: URL_RULE }),
  eventTypes: EventTypes,
  active: z.boolean().optional().openapi({
    description: "Default `true`: a new subscription receives events at once",
  }),
}).openapi("CreateWebhookSubscription", {
  description: `At most ${MAX_SUBSCRIPTIONS} subscriptions per account.`,
});

export const PatchSubscriptionBody = z.object({
  url: ReceiverUrl.optional().openapi({ description: URL_RULE }),
  eventTypes: EventTypes.optional(),
  active: z.boolean().optional().openapi({
    description: "`true` also resets `failureCount` to 0; `false` pauses",
  }),
}).openapi("PatchWebhookSubscription");

export const TestBody = z.object({
  eventType: EventTypeSchema.optional().openapi({
    description: "Type of the test event; default the subscription's first event type",
  }),
}).openapi("WebhookTest");

export const TestResultSchema = z.object({
  ok: z.boolean(),
  status: z.number().int().optional().openapi({ description: "The receiver's HTTP status" }),
  error: z.string().optional().openapi({
    description: "Why the test failed: `HTTP <code>`, `timeout`, a connection error, or a " +
      "request to rotate the secret",
  }),
}).openapi("WebhookTestResult");

export const WebhookLogSchema = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  eventId: z.string(),
  eventType: EventTypeSchema,
  ok: z.boolean(),
  status: z.number().int().optional(),
  error: z.string().optional(),
  durationMs: z.number().int(),
  createdAt: z.string(),
  deliveryId: z.string().optional().openapi({
    description: "The attempt's `X-Service-Delivery` header",
  }),
  test: z.literal(true).optional(),
}).openapi("WebhookLogEntry");
