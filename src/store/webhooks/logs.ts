import type { EventType } from "../../domain/events/types.ts";
import { keys } from "../keys.ts";
import { listValues } from "../kv.ts";

/** Delivery log entries are kept 7 days (KV expiry; a lower bound, swept within a minute). */
export const WEBHOOK_LOG_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** One delivery attempt, test deliveries included. */
export interface WebhookLogEntry {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: EventType;
  /** True for a 2xx answer. */
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the attempt failed: `HTTP 500`, `timeout`, `connection refused`, ... */
  error?: string;
  durationMs: number;
  createdAt: string;
  /** The attempt's `X-Service-Delivery` id (absent on tests). */
  deliveryId?: string;
  /** Present on test deliveries. */
  test?: true;
}

/** Adds a log entry to a commit (ids sort by time, so the key order is the time order). */
export function addWebhookLog(op: Deno.AtomicOperation, userId: string, entry: WebhookLogEntry) {
  op.set(keys.webhookLog(userId, entry.id), entry, { expireIn: WEBHOOK_LOG_RETENTION_MS });
}

/** The newest `limit` entries, newest first. */
export function listWebhookLogs(kv: Deno.Kv, userId: string, limit: number) {
  return listValues<WebhookLogEntry>(kv, { prefix: keys.webhookLogs(userId) }, {
    reverse: true,
    limit,
  });
}
