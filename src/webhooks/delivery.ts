import { z } from "@hono/zod-openapi";
import {
  afterAttempt,
  afterSkip,
  type Outcome,
  receives,
  ROTATE_SECRET_ERROR,
  type StoredSubscription,
} from "../domain/webhooks/subscription.ts";
import { attemptStep } from "../domain/webhooks/attempt.ts";
import { recordOutcome } from "../store/webhooks/outcomes.ts";
import {
  attemptMarkers,
  claimAttempts,
  endAttempt,
  MAX_DELIVERY_AGE_MS,
} from "../store/webhooks/attempts.ts";
import { getSubscription, listSubscriptions } from "../store/webhooks/subscriptions.ts";
import {
  enqueueAll,
  type Outgoing,
  type QueueHandlers,
  type QueueMessage,
} from "../events/queue.ts";
import { logEntry, outcomeOf, sendEvent, signingKeyOf, type WebhookDeps } from "./send.ts";
import type { WebhookLogEntry } from "../store/webhooks/logs.ts";
import { type EventEnvelope, EventEnvelopeSchema } from "../domain/events/envelope.ts";
import { metrics } from "../lib/metrics.ts";
import { annotate, withSpan } from "../lib/tracing.ts";

/**
 * Up to this many matching subscriptions are sent from the event's own queue message, which
 * keeps the common case at one dequeue; more get one `delivery` message each. The hand-over
 * at commit, and the outbox drain, send to all of them at once (at most 25).
 */
export const INLINE_FANOUT_MAX = 5;

/** Hand-overs at commit remembered for their queue copies (see {@link webhookHandlers}). */
const HANDED_OVER_MAX = 10_000;
/**
 * How long a queue copy waits for its event's hand-over in this process before reading the
 * markers itself (a slow receiver must not hold the queue's 100 running messages).
 */
const HANDOVER_WAIT_MS = 1000;

/** One subscription's share of a large fan-out, or a pair looked at again later. */
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
export function webhookHandlers(deps: WebhookDeps): QueueHandlers {
  const parsed = <T>(schema: z.ZodType<T>, raw: unknown): T | null => {
    const result = schema.safeParse(raw);
    if (!result.success) deps.log.warn("malformed webhook queue message");
    return result.success ? result.data : null;
  };
  // Hand-overs at commit under way or complete (every pair sent and recorded), by event id:
  // their queue copies need no storage reads. An entry leaves when its copy arrives, or when
  // its hand-over did not complete; the bound only matters if copies stop coming.
  const handedOver = new Map<string, Promise<boolean>>();
  const remember = (eventId: string, handing: Promise<boolean>) => {
    if (handedOver.size >= HANDED_OVER_MAX) handedOver.clear();
    const complete = handing.catch(() => false);
    handedOver.set(eventId, complete);
    complete.then((ok) => {
      if (!ok && handedOver.get(eventId) === complete) handedOver.delete(eventId);
    });
  };
  return {
    event: async (raw) => {
      const m = parsed(EventMessage, raw);
      if (!m) return;
      if (m.atCommit) {
        const handing = fanOut(deps, m.event, { atCommit: true });
        // Only queue copies come after the hand-over (the outbox drain reads the markers).
        if (deps.events.transport.name === "queue") remember(m.event.id, handing);
        await handing;
        return;
      }
      const handing = handedOver.get(m.event.id);
      handedOver.delete(m.event.id);
      if (handing && await within(handing, HANDOVER_WAIT_MS)) return;
      await fanOut(deps, m.event);
    },
    delivery: async (raw) => {
      const m = parsed(DeliveryMessage, raw);
      if (m) await deliverTo(deps, m.event, m.subscriptionId);
    },
  };
}

/** What `promise` resolves to, or false once `ms` have passed. */
async function within(promise: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An event older than the attempt markers' lifetime is dropped rather than risk a repeat. */
function tooOld(deps: WebhookDeps, event: EventEnvelope): boolean {
  const old = deps.now() - Date.parse(event.createdAt) > MAX_DELIVERY_AGE_MS;
  if (old) deps.log.warn("webhook event too old to deliver", { eventId: event.id });
  return old;
}

/** The pairs of an event still to attempt, as their markers say. */
interface Plan {
  /** To claim (against the marker read: none, or a stale claim) and send now. */
  send: { sub: StoredSubscription; versionstamp: string | null }[];
  /** Claimed and under way (here or elsewhere): looked at again at `until`. */
  waiting: { sub: StoredSubscription; until: number }[];
}

async function plan(deps: WebhookDeps, event: EventEnvelope, subs: StoredSubscription[]) {
  const markers = await attemptMarkers(deps.events.claims, event, subs.map((sub) => sub.id));
  const now = deps.now();
  const out: Plan = { send: [], waiting: [] };
  subs.forEach((sub, i) => {
    const { marker, versionstamp, mine } = markers[i];
    const next = attemptStep(marker, now, deps.outbound.timeoutMs, mine);
    if (next.step === "claim") out.send.push({ sub, versionstamp });
    else if (next.step === "wait") out.waiting.push({ sub, until: next.until });
  });
  return out;
}

/** A `delivery` message for the pair, held back until `until` when given. */
function deliveryMessage(
  deps: WebhookDeps,
  event: EventEnvelope,
  sub: StoredSubscription,
  until?: number,
): Outgoing {
  const message: DeliveryMessage = { kind: "delivery", event, subscriptionId: sub.id };
  return until === undefined ? { message } : { message, delay: Math.max(0, until - deps.now()) };
}

/**
 * Sends an event to every active subscription of its workspace that wants its type, and ends
 * its hand-off once every pair is done. At commit nothing is claimed yet, so every pair is
 * claimed without reading its marker; the transport's copy (a redelivery, a restart after a
 * crash) reads the markers: it sends the unclaimed and the stale pairs, leaves the done ones,
 * and looks again later at the ones under way (a delayed `delivery` message; with the outbox,
 * the entry stays for the next drain). Resolves to whether every pair is done. Throws only
 * when storage fails; the transport then delivers the event again.
 */
export async function fanOut(
  deps: WebhookDeps,
  event: EventEnvelope,
  options: { atCommit?: boolean } = {},
): Promise<boolean> {
  if (tooOld(deps, event)) {
    await deps.events.transport.settled(deps.kv, event.id);
    return true;
  }
  const wanted = (await listSubscriptions(deps.kv, event.userId))
    .filter((sub) => receives(sub, event.type));
  const { send, waiting } = options.atCommit
    ? { send: wanted.map((sub) => ({ sub, versionstamp: null })), waiting: [] }
    : await plan(deps, event, wanted);
  if (!options.atCommit && deps.events.transport.name === "queue") {
    const split = send.length > INLINE_FANOUT_MAX;
    await enqueueAll(deps.kv, [
      ...(split ? send.map(({ sub }) => deliveryMessage(deps, event, sub)) : []),
      ...waiting.map(({ sub, until }) => deliveryMessage(deps, event, sub, until)),
    ]);
    if (split) return false;
  }
  const all = await attemptAll(deps, event, send);
  if (!all || waiting.length) return false;
  await deps.events.transport.settled(deps.kv, event.id);
  return true;
}

/** Sends an event to one subscription, as it stands now, unless its pair is done. */
export async function deliverTo(deps: WebhookDeps, event: EventEnvelope, subId: string) {
  if (tooOld(deps, event)) return;
  const sub = await getSubscription(deps.kv, event.userId, subId);
  if (!sub || !receives(sub, event.type)) return;
  const { send, waiting } = await plan(deps, event, [sub]);
  await enqueueAll(
    deps.kv,
    waiting.map(({ sub, until }) => deliveryMessage(deps, event, sub, until)),
  );
  await attemptAll(deps, event, send);
}

/**
 * The attempts of an event's pairs: claim them first (whoever loses a claim does nothing),
 * then send, then record each outcome, which marks its pair done. Resolves to whether this
 * caller won every pair; throws when storage failed for any.
 */
async function attemptAll(deps: WebhookDeps, event: EventEnvelope, send: Plan["send"]) {
  const won = new Set(
    await claimAttempts(
      deps.events.claims,
      event,
      send.map(({ sub, versionstamp }) => ({ subId: sub.id, versionstamp })),
      deps.now(),
    ),
  );
  const results = await Promise.allSettled(
    send.filter(({ sub }) => won.has(sub.id)).map(({ sub, versionstamp }) =>
      // A stale claim (versionstamp) is a claimer that died: its answer may have been noted.
      attempt(deps, event, sub, versionstamp !== null)
    ),
  );
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  return won.size === send.length;
}

/** One delivery attempt, in a `webhook.attempt` span (event type and outcome; no URL). */
function attempt(
  deps: WebhookDeps,
  event: EventEnvelope,
  sub: StoredSubscription,
  reclaimed: boolean,
) {
  return withSpan(
    "webhook.attempt",
    { "webhook.event_type": event.type },
    () => attemptOnce(deps, event, sub, reclaimed),
  );
}

async function attemptOnce(
  deps: WebhookDeps,
  event: EventEnvelope,
  sub: StoredSubscription,
  reclaimed: boolean,
) {
  const { log, events: { answers } } = deps;
  try {
    // The dead claimer's receiver answered, but its outcome was not committed: record that
    // answer instead of sending again.
    const noted = reclaimed ? answers.recall(event, sub.id) : null;
    if (noted) {
      await record(deps, event, sub, noted.entry);
      log.info("webhook answer recovered after a crash", {
        eventId: event.id,
        subscriptionId: sub.id,
      });
      return;
    }
    const key = await signingKeyOf(deps, sub);
    if (key === null) {
      // Skipped, not queued, and not a failure toward auto-pause.
      await recordOutcome(
        deps.events.outcomes,
        sub.userId,
        sub.id,
        (s) => afterSkip(s, ROTATE_SECRET_ERROR),
        {
          done: { event, at: deps.now() },
        },
      );
      metrics.webhookAttempt("skipped", 0);
      log.warn("webhook skipped: no usable signing secret", { subscriptionId: sub.id });
      return;
    }
    const deliveryId = crypto.randomUUID();
    const result = await sendEvent(deps, sub.url, event, key, { deliveryId });
    const kind = outcomeOf(result).ok
      ? "delivered"
      : "status" in result
      ? "http_error"
      : "network_error";
    metrics.webhookAttempt(kind, result.durationMs / 1000);
    annotate({
      "webhook.outcome": kind,
      ...("status" in result ? { "http.response.status_code": result.status } : {}),
    });
    const entry = logEntry(deps, sub.id, event, result, { deliveryId });
    // Off the wire: noted at once, so a crash before the outcome's commit does not send again.
    answers.note(event, { userId: sub.userId, entry });
    await record(deps, event, sub, entry);
    answers.settled(event, sub.id);
    log.debug("webhook delivered", { ...entry });
  } finally {
    endAttempt(deps.events.claims, event, sub.id);
  }
}

/** Commits an attempt's outcome (as its log entry says) with the entry and the done marker. */
function record(
  deps: WebhookDeps,
  event: EventEnvelope,
  sub: StoredSubscription,
  entry: WebhookLogEntry,
) {
  const outcome: Outcome = entry.ok ? { ok: true } : { ok: false, error: entry.error ?? "" };
  return recordOutcome(
    deps.events.outcomes,
    sub.userId,
    sub.id,
    (s) => afterAttempt(s, outcome, entry.createdAt),
    { log: entry, done: { event, at: deps.now() } },
  );
}
