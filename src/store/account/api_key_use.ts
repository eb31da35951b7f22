import { keys } from "../keys.ts";
import { commit, writerOf } from "../kv.ts";

interface Use {
  userId: string;
  at: number;
}

/**
 * Records `lastUsedAt` for API keys without a KV write on the request's path: each use
 * replaces the pending time of its key, and one write per key is in flight at a time, so a
 * burst of requests costs a handful of writes and the stored value ends at the latest use.
 * A write only lands while the key still exists, so a use racing its revocation (or the
 * account's deletion) leaves nothing behind.
 */
export class ApiKeyUseRecorder {
  #pending = new Map<string, Use>();
  #inFlight = new Map<string, Promise<void>>();

  constructor(private kv: Deno.Kv) {}

  record(userId: string, keyId: string, at: number): void {
    const previous = this.#pending.get(keyId)?.at ?? 0;
    this.#pending.set(keyId, { userId, at: Math.max(at, previous) });
    if (!this.#inFlight.has(keyId)) this.#start(keyId);
  }

  /** The newest use not yet written, so reads can show it at once. */
  pending(keyId: string): number | undefined {
    return this.#pending.get(keyId)?.at;
  }

  /** Waits until every recorded use is stored. */
  async flush(): Promise<void> {
    while (this.#inFlight.size) await Promise.all(this.#inFlight.values());
  }

  #start(keyId: string) {
    const run = (async () => {
      while (this.#pending.has(keyId)) {
        const use = this.#pending.get(keyId)!;
        await this.#write(keyId, use).catch(() => {});
        if (this.#pending.get(keyId) === use) this.#pending.delete(keyId);
      }
    })().finally(() => this.#inFlight.delete(keyId));
    this.#inFlight.set(keyId, run);
  }

  async #write(keyId: string, use: Use) {
    const record = await this.kv.get(keys.apiKey(use.userId, keyId));
    if (!record.versionstamp) return;
    // Through the store's writing connection: a steady stream of these writes under load would
    // otherwise hold up the reads of requests on the store's own connection.
    await commit(
      writerOf(this.kv).atomic().check(record).set(keys.apiKeyLastUsed(use.userId, keyId), use.at),
    );
  }
}
