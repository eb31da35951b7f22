import type { AttemptMarker } from "../../domain/webhooks/attempt.ts";
import { Batcher } from "../../lib/batcher.ts";
import { keys } from "../keys.ts";
import { commit, getManyChunked, MAX_CHECKS } from "../kv.ts";

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

/** One pair as its marker stands: `versionstamp` is what a claim of it must find. */
export interface PairMarker {
  subId: string;
  /** Null when nobody claimed the pair; a bare number is a marker from before states. */
  marker: AttemptMarker | number | null;
  versionstamp: string | null;
  /** This process claimed the pair and its attempt has not ended. */
  mine: boolean;
}

/** What a claim must find: no marker (null), or the stale marker that was read. */
export interface ClaimRequest {
  subId: string;
  versionstamp: string | null;
}

const pairId = (event: EventRef, subId: string) => `${event.id}\n${subId}`;

interface Claim {
  key: Deno.KvKey;
  expected: string | null;
  at: number;
  settle: (won: boolean) => void;
  fail: (err: unknown) => void;
}

/**
 * Claims of one process, ten to a commit whatever event they belong to: each pair's marker is
 * checked (absent, or the stale claim that was read) and set in the commit. When a commit fails
 * (some pair is taken), its pairs are claimed one by one, so each claim's answer is exact.
 */
export class ClaimWriter {
  /** Pairs being claimed here now, so two claims of one pair never share a commit. */
  readonly #open = new Map<string, Promise<boolean>>();
  /** Pairs won here whose attempt has not ended: never stale to this process. */
  readonly mine = new Set<string>();
  readonly #batcher: Batcher<Claim>;

  constructor(readonly kv: Deno.Kv) {
    this.#batcher = new Batcher<Claim>({
      parallel: PARALLEL_CLAIM_COMMITS,
      take: (waiting) => waiting.splice(0, MAX_CHECKS),
      run: (batch) => this.#commit(batch),
    });
  }

  claim(event: EventRef, request: ClaimRequest, at: number): Promise<boolean> {
    const id = pairId(event, request.subId);
    const running = this.#open.get(id);
    // The same pair claimed again meanwhile loses, whoever wins; if the first claim fails
    // (storage error), so does this one, and its queue message comes back.
    if (running) return running.then(() => false);
    const { promise, resolve, reject } = Promise.withResolvers<boolean>();
    this.#open.set(id, promise);
    const done = () => this.#open.delete(id);
    promise.then(done, done);
    this.#batcher.add({
      key: keys.webhookAttempt(event.userId, event.id, request.subId),
      expected: request.versionstamp,
      at,
      settle: (won) => {
        if (won) this.mine.add(id);
        resolve(won);
      },
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
    for (const { key, expected, at } of claims) {
      const marker: AttemptMarker = { state: "claimed", at };
      op.check({ key, versionstamp: expected }).set(key, marker, {
        expireIn: ATTEMPT_MARKER_TTL_MS,
      });
    }
    return (await commit(op)).ok;
  }
}

/** The markers of the pairs of `event` with `subIds`, in that order. */
export async function attemptMarkers(
  claims: ClaimWriter,
  event: EventRef,
  subIds: string[],
): Promise<PairMarker[]> {
  const { kv, mine } = claims;
  const entries = await getManyChunked<AttemptMarker | number>(
    kv,
    subIds.map((id) => keys.webhookAttempt(event.userId, event.id, id)),
  );
  return subIds.map((subId, i) => ({
    subId,
    marker: entries[i].value,
    versionstamp: entries[i].versionstamp,
    mine: mine.has(pairId(event, subId)),
  }));
}

/**
 * Claims the attempt of each requested pair, each against the marker its caller read (none,
 * or a stale claim): returns the subscriptions this caller won. Whoever loses (another
 * handler got there first) does nothing. Concurrent claims of the process share commits.
 */
export async function claimAttempts(
  claims: ClaimWriter,
  event: EventRef,
  requests: ClaimRequest[],
  now: number,
): Promise<string[]> {
  const writer = claims;
  const results = await Promise.allSettled(requests.map((r) => writer.claim(event, r, now)));
  const won = requests.filter((_, i) => {
    const result = results[i];
    return result.status === "fulfilled" && result.value;
  }).map((r) => r.subId);
  const failed = results.find((r) => r.status === "rejected");
  if (failed) {
    // Nothing is sent: the pairs won are given up here, and go stale for the redelivery.
    for (const subId of won) endAttempt(claims, event, subId);
    throw failed.reason;
  }
  return won;
}

/** The attempt this process claimed is over (its outcome recorded, or it failed). */
export function endAttempt(claims: ClaimWriter, event: EventRef, subId: string): void {
  claims.mine.delete(pairId(event, subId));
}

/** Marks the pair done in the commit that records its outcome: it is never sent again. */
export function markAttemptDone(
  op: Deno.AtomicOperation,
  event: EventRef,
  subId: string,
  at: number,
): void {
  const marker: AttemptMarker = { state: "done", at };
  op.set(keys.webhookAttempt(event.userId, event.id, subId), marker, {
    expireIn: ATTEMPT_MARKER_TTL_MS,
  });
}
