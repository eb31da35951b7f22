import { Batcher } from "../lib/batcher.ts";
import { keys } from "./keys.ts";
import { getManyChunked, MAX_CHECKS } from "./kv.ts";

/**
 * How long an (event, subscription) attempt marker is kept. Queue redeliveries come within
 * minutes of a crash; events older than {@link MAX_DELIVERY_AGE_MS} are never sent, so a
 * marker outlives every event that could still be sent.
 */
export const ATTEMPT_MARKER_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const MAX_DELIVERY_AGE_MS = 6 * 24 * 60 * 60 * 1000;

/** Claim commits under way at once per KV (more claims wait and share the next commits). */
const PARALLEL_CLAIM_COMMITS = 2;

/** The event an attempt belongs to: markers live in its workspace, so account deletion ends them. */
export interface EventRef {
  id: string;
  userId: string;
}

/** The subscriptions among `subIds` whose attempt at `event` nobody has claimed yet. */
export async function unclaimed(kv: Deno.Kv, event: EventRef, subIds: string[]) {
  const markers = await getManyChunked(
    kv,
    subIds.map((id) => keys.webhookAttempt(event.userId, event.id, id)),
  );
  return subIds.filter((_, i) => markers[i].versionstamp === null);
}

interface Claim {
  key: Deno.KvKey;
  at: number;
  settle: (won: boolean) => void;
  fail: (err: unknown) => void;
}

/**
 * Claims of one process, ten to a commit whatever event they belong to: each pair's marker is
 * checked absent and set in the commit. When a commit fails (some pair is taken), its pairs
 * are claimed one by one, so each claim's answer is exact.
 */
class ClaimWriter {
  /** Pairs being claimed here now, so two claims of one pair never share a commit. */
  readonly #open = new Map<string, Promise<boolean>>();
  readonly #batcher: Batcher<Claim>;

  constructor(readonly kv: Deno.Kv) {
    this.#batcher = new Batcher<Claim>({
      parallel: PARALLEL_CLAIM_COMMITS,
      take: (waiting) => waiting.splice(0, MAX_CHECKS),
      run: (batch) => this.#commit(batch),
    });
  }

  claim(event: EventRef, subId: string, at: number): Promise<boolean> {
    const id = `${event.id}\n${subId}`;
    const running = this.#open.get(id);
    // The same pair claimed again meanwhile loses, whoever wins; if the first claim fails
    // (storage error), so does this one, and its queue message comes back.
    if (running) return running.then(() => false);
    const { promise, resolve, reject } = Promise.withResolvers<boolean>();
    this.#open.set(id, promise);
    const done = () => this.#open.delete(id);
    promise.then(done, done);
    this.#batcher.add({
      key: keys.webhookAttempt(event.userId, event.id, subId),
      at,
      settle: resolve,
      fail: reject,
    });
    return promise;
  }

  async #commit(batch: Claim[]) {
    try {
      if (await this.#tryClaim(batch)) {
        for (const claim of batch) claim.settle(true);
        return;
      }
      for (const claim of batch) claim.settle(await this.#tryClaim([claim]));
    } catch (err) {
      for (const claim of batch) claim.fail(err);
    }
  }

  async #tryClaim(claims: Claim[]): Promise<boolean> {
    const op = this.kv.atomic();
    for (const { key, at } of claims) {
      op.check({ key, versionstamp: null }).set(key, at, { expireIn: ATTEMPT_MARKER_TTL_MS });
    }
    return (await op.commit()).ok;
  }
}

const writers = new WeakMap<Deno.Kv, ClaimWriter>();

/**
 * Claims the one attempt of each (event, subscription) pair: returns the subscriptions this
 * caller won; later callers (a queue redelivery, a restart after a crash mid-way) win none.
 * Concurrent claims of the process share commits.
 */
export async function claimAttempts(
  kv: Deno.Kv,
  event: EventRef,
  subIds: string[],
  now: number,
): Promise<string[]> {
  let writer = writers.get(kv);
  if (!writer) writers.set(kv, writer = new ClaimWriter(kv));
  const won = await Promise.all(subIds.map((id) => writer.claim(event, id, now)));
  return subIds.filter((_, i) => won[i]);
}
