import type { StoredSubscription } from "../domain/webhook.ts";
import { addWebhookLog, type WebhookLogEntry } from "./webhook_logs.ts";
import { changeSubscription } from "./webhook_subscriptions.ts";

/** At most this many outcomes (and their log entries) go into one commit. */
const MAX_BATCH = 100;

interface Pending {
  change: (sub: StoredSubscription) => StoredSubscription;
  log?: WebhookLogEntry;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Records delivery outcomes. Concurrent deliveries to one subscription would otherwise race
 * on its record and retry their commits; here a subscription's outcomes are applied one commit
 * at a time, in arrival order, and those that arrive during a commit go together into the
 * next one. Other processes writing the same record are still handled by the commit's check.
 */
class OutcomeWriter {
  readonly #pending = new Map<string, Pending[]>();

  constructor(readonly kv: Deno.Kv) {}

  record(
    userId: string,
    subId: string,
    change: Pending["change"],
    log?: WebhookLogEntry,
  ): Promise<void> {
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const key = `${userId}\n${subId}`;
    const queue = this.#pending.get(key);
    if (queue) {
      queue.push({ change, log, resolve, reject });
    } else {
      const fresh = [{ change, log, resolve, reject }];
      this.#pending.set(key, fresh);
      void this.#flush(key, userId, subId, fresh);
    }
    return promise;
  }

  async #flush(key: string, userId: string, subId: string, queue: Pending[]) {
    while (queue.length) {
      const batch = queue.splice(0, MAX_BATCH);
      try {
        await changeSubscription(
          this.kv,
          userId,
          subId,
          (sub) => batch.reduce((current, p) => p.change(current), sub),
          (op) => {
            for (const p of batch) if (p.log) addWebhookLog(op, userId, p.log);
          },
        );
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    this.#pending.delete(key);
  }
}

const writers = new WeakMap<Deno.Kv, OutcomeWriter>();

/**
 * Applies `change` to the subscription (nothing when it was deleted) with `log` in the same
 * commit; resolves once that commit is stored.
 */
export function recordOutcome(
  kv: Deno.Kv,
  userId: string,
  subId: string,
  change: Pending["change"],
  log?: WebhookLogEntry,
): Promise<void> {
  let writer = writers.get(kv);
  if (!writer) writers.set(kv, writer = new OutcomeWriter(kv));
  return writer.record(userId, subId, change, log);
}
