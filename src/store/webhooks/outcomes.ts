import type { StoredSubscription } from "../../domain/webhooks/subscription.ts";
import { Batcher } from "../../lib/batcher.ts";
import { keys } from "../keys.ts";
import { commit, MAX_CHECKS, withRetry } from "../kv.ts";
import { type EventRef, markAttemptDone } from "./attempts.ts";
import { addWebhookLog, type WebhookLogEntry } from "./logs.ts";

/** At most this many outcomes (and their log entries) go into one commit. */
const MAX_BATCH = 100;
/**
 * Outcome commits under way at once per KV. A subscription is in one commit at a time, so
 * this is how many subscriptions' outcomes can be stored at once with nothing ahead of them.
 */
const PARALLEL_OUTCOME_COMMITS = 4;
/** Subscription records whose last committed version this writer remembers. */
const KNOWN_MAX = 10_000;

interface Pending {
  userId: string;
  subId: string;
  /** `userId` and `subId`: outcomes of one subscription are applied in this order. */
  sub: string;
  change: (sub: StoredSubscription) => StoredSubscription;
  log?: WebhookLogEntry;
  /** The attempt this outcome ends: its pair is marked done in the same commit. */
  done?: { event: EventRef; at: number };
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Records delivery outcomes. Concurrent deliveries would otherwise each read, change and
 * commit a subscription record, racing and retrying on the same record; here outcomes of up
 * to ten subscriptions (one check each) share a commit, and a subscription's outcomes are
 * applied in arrival order by one commit at a time, those arriving meanwhile together in the
 * next. Each commit checks every record it changes, so a change by another process (or a
 * PATCH) makes it read and apply again: no count is ever lost.
 */
export class OutcomeWriter {
  /** Subscriptions whose outcomes are in a commit now. */
  readonly #busy = new Set<string>();
  /**
   * Each subscription record as this writer last committed it: the next commit checks that
   * version without reading it first, so an outcome is stored in one round trip (its pair is
   * done sooner after the answer, and a crash re-sends less). A change made elsewhere fails
   * the check, and the commit reads and applies again.
   */
  readonly #known = new Map<string, Deno.KvEntry<StoredSubscription>>();
  readonly #batcher: Batcher<Pending>;

  constructor(readonly kv: Deno.Kv) {
    this.#batcher = new Batcher<Pending>({
      parallel: PARALLEL_OUTCOME_COMMITS,
      take: (waiting) => this.#take(waiting),
      run: (batch) => this.#commit(batch),
    });
  }

  record(userId: string, subId: string, change: Pending["change"], extra: OutcomeExtra) {
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const sub = `${userId}\n${subId}`;
    this.#batcher.add({ userId, subId, sub, change, ...extra, resolve, reject });
    return promise;
  }

  /** The waiting outcomes of up to ten subscriptions not in a commit now, oldest first. */
  #take(waiting: Pending[]): Pending[] {
    const subs = new Set<string>();
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const p of waiting) {
      const fits = subs.has(p.sub) || (subs.size < MAX_CHECKS && !this.#busy.has(p.sub));
      if (fits && batch.length < MAX_BATCH) {
        subs.add(p.sub);
        batch.push(p);
      } else {
        rest.push(p);
      }
    }
    waiting.splice(0, waiting.length, ...rest);
    for (const sub of subs) this.#busy.add(sub);
    return batch;
  }

  async #commit(batch: Pending[]) {
    const bySub = Map.groupBy(batch, (p) => p.sub);
    const groups = [...bySub.entries()];
    try {
      await withRetry(async () => {
        const entries = await this.#entries(groups.map(([sub, [p]]) => [sub, p]));
        const op = this.kv.atomic();
        const written: [string, Deno.KvEntry<StoredSubscription>][] = [];
        groups.forEach(([sub, group], i) => {
          const entry = entries[i];
          // A deleted subscription gets no outcome and no log entry.
          if (!entry.value) return;
          const next = group.reduce((current, p) => p.change(current), entry.value);
          op.check(entry).set(entry.key, next);
          for (const p of group) {
            if (p.log) addWebhookLog(op, p.userId, p.log);
            if (p.done) markAttemptDone(op, p.done.event, p.subId, p.done.at);
          }
          written.push([sub, { key: entry.key, value: next, versionstamp: entry.versionstamp }]);
        });
        const result = written.length ? await commit(op) : null;
        for (const [sub] of groups) this.#known.delete(sub);
        if (result?.ok) {
          if (this.#known.size >= KNOWN_MAX) this.#known.clear();
          for (const [sub, entry] of written) {
            this.#known.set(sub, { ...entry, versionstamp: result.versionstamp });
          }
        }
        return { commit: result, value: null };
      });
      for (const p of batch) p.resolve();
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      for (const sub of bySub.keys()) this.#busy.delete(sub);
    }
  }

  /** The records of the subscriptions, as last committed here, else as stored. */
  async #entries(subs: [string, Pending][]): Promise<Deno.KvEntryMaybe<StoredSubscription>[]> {
    const unknown = subs.filter(([sub]) => !this.#known.has(sub));
    const read = unknown.length
      ? await this.kv.getMany<StoredSubscription[]>(
        unknown.map(([, { userId, subId }]) => keys.webhookSub(userId, subId)),
      )
      : [];
    const fresh = new Map(unknown.map(([sub], i) => [sub, read[i]]));
    return subs.map(([sub]) => this.#known.get(sub) ?? fresh.get(sub)!);
  }
}

/** What an outcome's commit writes besides the subscription. */
export type OutcomeExtra = Pick<Pending, "log" | "done">;

/**
 * Applies `change` to the subscription (nothing when it was deleted) with the log entry and the
 * attempt's done marker in the same commit; resolves once that commit is stored.
 */
export function recordOutcome(
  outcomes: OutcomeWriter,
  userId: string,
  subId: string,
  change: Pending["change"],
  extra: OutcomeExtra = {},
): Promise<void> {
  return outcomes.record(userId, subId, change, extra);
}
