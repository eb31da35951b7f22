import { z } from "@hono/zod-openapi";
import {
  afterAttempt,
  afterSkip,
  type Outcome,
  outcomeOfStatus,
  receives,
  ROTATE_SECRET_ERROR,
  type StoredSubscription,
} from "../domain/webhook.ts";
import type { AppDeps } from "../http/env.ts";
import type { SecretBox } from "../lib/secret_box.ts";
import { newId } from "../lib/ids.ts";
import type { Exchange } from "../net/http.ts";
import type { OutboundResult } from "../net/outbound.ts";
import { addWebhookLog, type WebhookLogEntry } from "../store/webhook_logs.ts";
import { recordOutcome } from "../store/webhook_outcomes.ts";
import { claimAttempts, MAX_DELIVERY_AGE_MS, unclaimed } from "../store/webhook_attempts.ts";
import { getSubscription, listSubscriptions } from "../store/webhook_subscriptions.ts";
import { enqueueAll, type QueueHandlers, type QueueMessage } from "./queue.ts";
import { type Attempt, deliveryHeaders } from "./headers.ts";
import { signatureHeader, signingKey } from "./signature.ts";
import {
  buildTestEvent,
  type EventEnvelope,
  EventEnvelopeSchema,
  type EventType,
} from "./types.ts";

/**
 * Up to this many matching subscriptions are sent from the event's own queue message, which
 * keeps the common case at one dequeue; more get one `delivery` message each. The hand-over
 * at commit, and the outbox drain, send to all of them at once (at most 25).
 */
export const INLINE_FANOUT_MAX = 5;

/** Event ids remembered as handed over at commit (see {@link webhookHandlers}). */
const DONE_AT_COMMIT_MAX = 10_000;

/** One subscription's share of a large fan-out. */
export interface DeliveryMessage extends QueueMessage {
  kind: "delivery";
  event: EventEnvelope;
  subscriptionId: string;
}

// Queue payloads are validated: a malformed message is logged and acknowledged.
const EventMessage = z.object({
  kind: z.literal("event"),
  event: EventEnvelopeSchema,
  atCommit: z.literal(true).optional(),
});
const DeliveryMessage = z.object({
  kind: z.literal("delivery"),
  event: EventEnvelopeSchema,
  subscriptionId: z.string(),
});

/** The queue handlers of webhook delivery: `event` fans out, `delivery` sends one. */
export function webhookHandlers(deps: AppDeps): QueueHandlers {
  const parsed = <T>(schema: z.ZodType<T>, raw: unknown): T | null => {
    const result = schema.safeParse(raw);
    if (!result.success) deps.log.warn("malformed webhook queue message");
    return result.success ? result.data : null;
  };
  // Events fully handed over at commit: their queue copies need no storage reads. Entries
  // leave when the copy arrives; the bound only matters if copies stop coming.
  const doneAtCommit = new Set<string>();
  return {
    event: async (raw) => {
      const m = parsed(EventMessage, raw);
      if (!m) return;
      if (!m.atCommit && doneAtCommit.delete(m.event.id)) return;
      await fanOut(deps, m.event, { inline: m.atCommit === true });
      // Only queue copies come after the hand-over (the outbox drain reads the claims).
      if (m.atCommit && deps.events.name === "queue") {
        if (doneAtCommit.size >= DONE_AT_COMMIT_MAX) doneAtCommit.clear();
        doneAtCommit.add(m.event.id);
      }
    },
    delivery: async (raw) => {
      const m = parsed(DeliveryMessage, raw);
      if (m) await deliverTo(deps, m.event, m.subscriptionId);
    },
  };
}

/** An event older than the attempt markers' lifetime is dropped rather than risk a repeat. */
function tooOld(deps: AppDeps, event: EventEnvelope): boolean {
  const old = deps.now() - Date.parse(event.createdAt) > MAX_DELIVERY_AGE_MS;
  if (old) deps.log.warn("webhook event too old to deliver", { eventId: event.id });
  return old;
}

/**
 * Sends an event to every active subscription of its workspace that wants its type, and ends
 * its hand-off once every pair is claimed. Throws only when storage fails; the transport then
 * delivers it again and the attempt markers keep every (event, subscription) pair at one
 * attempt.
 */
export async function fanOut(
  deps: AppDeps,
  event: EventEnvelope,
  options: { inline?: boolean } = {},
): Promise<void> {
  if (tooOld(deps, event)) return await deps.events.fannedOut(deps.kv, event.id);
  const wanted = (await listSubscriptions(deps.kv, event.userId))
    .filter((sub) => receives(sub, event.type));
  // A redelivered message (or the transport's copy of an event already sent at commit) skips
  // the pairs already claimed without a commit each; at commit time nothing is claimed yet.
  const open = options.inline
    ? null
    : new Set(await unclaimed(deps.kv, event, wanted.map((sub) => sub.id)));
  const subs = open ? wanted.filter((sub) => open.has(sub.id)) : wanted;
  if (!options.inline && deps.events.name === "queue" && subs.length > INLINE_FANOUT_MAX) {
    await enqueueAll(
      deps.kv,
      subs.map((sub): DeliveryMessage => ({ kind: "delivery", event, subscriptionId: sub.id })),
    );
    return;
  }
  await attemptAll(deps, event, subs, () => deps.events.fannedOut(deps.kv, event.id));
}

/** Sends an event to one subscription, as it stands now. */
export async function deliverTo(deps: AppDeps, event: EventEnvelope, subId: string) {
  if (tooOld(deps, event)) return;
  const sub = await getSubscription(deps.kv, event.userId, subId);
  if (sub && receives(sub, event.type)) await attemptAll(deps, event, [sub]);
}

/**
 * The one attempt of each (event, subscription): claim them first (a redelivered message or a
 * restarted process finds the claims and stops), then send, then record the outcomes.
 * `afterClaims` runs once the pairs are claimed, before any send.
 */
async function attemptAll(
  deps: AppDeps,
  event: EventEnvelope,
  subs: StoredSubscription[],
  afterClaims?: () => Promise<void>,
) {
  const claimed = new Set(
    await claimAttempts(deps.kv, event, subs.map((sub) => sub.id), deps.now()),
  );
  await afterClaims?.();
  const results = await Promise.allSettled(
    subs.filter((sub) => claimed.has(sub.id)).map((sub) => attempt(deps, event, sub)),
  );
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}

async function attempt(deps: AppDeps, event: EventEnvelope, sub: StoredSubscription) {
  const { kv, log } = deps;
  const key = await signingKeyOf(deps, sub);
  if (key === null) {
    // Skipped, not queued, and not a failure toward auto-pause.
    await recordOutcome(kv, sub.userId, sub.id, (s) => afterSkip(s, ROTATE_SECRET_ERROR));
    log.warn("webhook skipped: no usable signing secret", { subscriptionId: sub.id });
    return;
  }
  const deliveryId = crypto.randomUUID();
  const result = await sendEvent(deps, sub.url, event, key, { deliveryId });
  const outcome = outcomeOf(result);
  const entry = logEntry(deps, sub.id, event, result, { deliveryId });
  await recordOutcome(
    kv,
    sub.userId,
    sub.id,
    (s) => afterAttempt(s, outcome, entry.createdAt),
    entry,
  );
  log.debug("webhook delivered", { ...entry });
}

const signingKeys = new WeakMap<SecretBox, Map<string, Promise<CryptoKey | null>>>();
const SIGNING_KEY_CACHE_MAX = 10_000;

/**
 * The subscription's signing key, or null when its secret is missing or does not decrypt under
 * the deployment's key. Keys (non-extractable, never the plain secret) are cached per sealed
 * secret and SecretBox: a rotation seals a new secret, so the old key is never used again.
 */
export function signingKeyOf(deps: AppDeps, sub: StoredSubscription): Promise<CryptoKey | null> {
  const box = deps.secrets;
  if (sub.needsSecretRotation || !sub.sealedSecret || !box) return Promise.resolve(null);
  let cache = signingKeys.get(box);
  if (!cache) signingKeys.set(box, cache = new Map());
  let key = cache.get(sub.sealedSecret);
  if (!key) {
    if (cache.size >= SIGNING_KEY_CACHE_MAX) cache.clear();
    key = box.open(sub.sealedSecret, sub.id).then((secret) =>
      secret === null ? null : signingKey(secret)
    );
    cache.set(sub.sealedSecret, key);
  }
  return key;
}

/** POSTs the envelope, signed, with the headers of CONTRACT.md. Never throws. */
export async function sendEvent(
  deps: AppDeps,
  url: string,
  event: EventEnvelope,
  key: CryptoKey,
  kind: Attempt,
): Promise<OutboundResult> {
  const body = new TextEncoder().encode(JSON.stringify(event));
  const headers = deliveryHeaders(event, await signatureHeader(key, body), kind);
  return await deps.outbound.request(url, { body, headers });
}

export function outcomeOf(result: Exchange): Outcome {
  return "status" in result ? outcomeOfStatus(result.status) : { ok: false, error: result.error };
}

function logEntry(
  deps: AppDeps,
  subscriptionId: string,
  event: EventEnvelope,
  result: OutboundResult,
  kind: Attempt,
): WebhookLogEntry {
  const now = deps.now();
  const outcome = outcomeOf(result);
  return {
    id: newId("log", now),
    subscriptionId,
    eventId: event.id,
    eventType: event.type,
    ok: outcome.ok,
    ...("status" in result ? { status: result.status } : {}),
    ...(outcome.ok ? {} : { error: outcome.error }),
    durationMs: result.durationMs,
    createdAt: new Date(now).toISOString(),
    ...kind,
  };
}

/** The answer of `POST .../test`. */
export type TestResult = { ok: true; status: number } | {
  ok: false;
  status?: number;
  error: string;
};

/**
 * Sends a test event (`evt_test_` id, `data: {test: true}`, `X-Service-Test: true`, no
 * delivery id) now. It is logged, and leaves the subscription's state untouched.
 */
export async function sendTestEvent(
  deps: AppDeps,
  sub: StoredSubscription,
  type: EventType,
): Promise<TestResult> {
  const key = await signingKeyOf(deps, sub);
  if (key === null) return { ok: false, error: ROTATE_SECRET_ERROR };
  const event = buildTestEvent(type, sub.userId, deps.now());
  const result = await sendEvent(deps, sub.url, event, key, { test: true });
  const entry = logEntry(deps, sub.id, event, result, { test: true });
  const op = deps.kv.atomic();
  addWebhookLog(op, sub.userId, entry);
  await op.commit();
  if (entry.ok) return { ok: true, status: entry.status! };
  return entry.status === undefined
    ? { ok: false, error: entry.error! }
    : { ok: false, status: entry.status, error: entry.error! };
}
