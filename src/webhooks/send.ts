/**
 * One request to a receiver: the signing key of a subscription, the signed POST with the
 * contract's headers, its outcome and log entry; and test events, which are only that.
 */
import {
  type Outcome,
  outcomeOfStatus,
  ROTATE_SECRET_ERROR,
  type StoredSubscription,
} from "../domain/webhooks/subscription.ts";
import type { Events } from "../events/events.ts";
import type { Logger } from "../lib/log.ts";
import type { SecretBox } from "../lib/secret_box.ts";
import { newId } from "../lib/ids.ts";
import type { Exchange } from "../net/http.ts";
import type { Outbound, OutboundResult } from "../net/outbound.ts";
import { addWebhookLog, type WebhookLogEntry } from "../store/webhooks/logs.ts";
import { signatureHeader, signingKey } from "./signature.ts";
import type { EventType } from "../domain/events/types.ts";
import { buildTestEvent, type EventEnvelope } from "../domain/events/envelope.ts";
import { commit } from "../store/kv.ts";
import { type Attempt, deliveryHeaders } from "./headers.ts";

/** What outbound webhook delivery uses of the app's services. */
export interface WebhookDeps {
  kv: Deno.Kv;
  log: Logger;
  now: () => number;
  secrets: SecretBox | null;
  outbound: Outbound;
  events: Events;
}

const signingKeys = new WeakMap<SecretBox, Map<string, Promise<CryptoKey | null>>>();
const SIGNING_KEY_CACHE_MAX = 10_000;

/**
 * The subscription's signing key, or null when its secret is missing or does not decrypt under
 * the deployment's key. Keys (non-extractable, never the plain secret) are cached per sealed
 * secret and SecretBox: a rotation seals a new secret, so the old key is never used again.
 */
export function signingKeyOf(
  deps: WebhookDeps,
  sub: StoredSubscription,
): Promise<CryptoKey | null> {
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
  deps: WebhookDeps,
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

export function logEntry(
  deps: WebhookDeps,
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
  deps: WebhookDeps,
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
  await commit(op);
  if (entry.ok) return { ok: true, status: entry.status! };
  return entry.status === undefined
    ? { ok: false, error: entry.error! }
    : { ok: false, status: entry.status, error: entry.error! };
}
