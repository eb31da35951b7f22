import { keys } from "./keys.ts";

/**
 * Records `lastUsedAt` for API keys without a KV write on the request's path: each use
 * replaces the pending time of its key, and one write per key is in flight at a time, so a
 * burst of requests costs a handful of writes and the stored value ends at the latest use.
 */
export class ApiKeyUseRecorder {
  #pending = new Map<string, number>();
  #inFlight = new Map<string, Promise<void>>();

  constructor(private kv: Deno.Kv) {}

  record(keyId: string, at: number): void {
    this.#pending.set(keyId, Math.max(at, this.#pending.get(keyId) ?? 0));
    if (!this.#inFlight.has(keyId)) this.#start(keyId);
  }

  /** The newest use not yet written, so reads can show it at once. */
  pending(keyId: string): number | undefined {
    return this.#pending.get(keyId);
  }

  /** Waits until every recorded use is stored. */
  async flush(): Promise<void> {
    while (this.#inFlight.size) await Promise.all(this.#inFlight.values());
  }

  #start(keyId: string) {
    const run = (async () => {
      while (this.#pending.has(keyId)) {
        const at = this.#pending.get(keyId)!;
        await this.kv.set(keys.apiKeyLastUsed(keyId), at).catch(() => {});
        if (this.#pending.get(keyId) === at) this.#pending.delete(keyId);
      }
    })().finally(() => this.#inFlight.delete(keyId));
    this.#inFlight.set(keyId, run);
  }
}
