/**
 * Insight sums read recently, kept in this process's memory and used while the workspace's
 * order revision (`["ws", userId, "order_rev"]`, set by every commit that changes an order and
 * so every commit that moves a sum) still has the versionstamp they were read under. One read
 * of that key then answers for the ranges a profitability or calendar request needs; a change
 * made by any process changes the versionstamp, and the next read goes to the counters again.
 */
import { keys } from "../keys.ts";

/** Ranges remembered at most, over all workspaces (least recently used go first). */
const MAX_ENTRIES = 5_000;

interface Entry {
  revision: string | null;
  sums: readonly unknown[];
}

export class InsightSumCache {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly kv: Deno.Kv, private readonly maxEntries = MAX_ENTRIES) {}

  /** The workspace's order revision now: what an entry must have been read under. */
  async revision(userId: string): Promise<string | null> {
    return (await this.kv.get(keys.orderRevision(userId))).versionstamp;
  }

  /**
   * The sums of `range` (any string naming it within the workspace) read under `revision`,
   * from memory when they were read under it before, else by `read`. The revision is read
   * before the sums, so a change landing in between only costs the next request a read.
   */
  async sums<T>(
    userId: string,
    range: string,
    revision: string | null,
    read: () => Promise<T[]>,
  ): Promise<T[]> {
    const id = `${userId} ${range}`;
    const hit = this.#entries.get(id);
    if (hit && hit.revision === revision) {
      // Most recently used last: eviction takes from the front.
      this.#entries.delete(id);
      this.#entries.set(id, hit);
      return hit.sums as T[];
    }
    const sums = await read();
    this.#entries.delete(id);
    this.#entries.set(id, { revision, sums });
    while (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    return sums;
  }

  /** Forgets a workspace (account deletion). */
  drop(userId: string): void {
    for (const id of [...this.#entries.keys()]) {
      if (id.startsWith(`${userId} `)) this.#entries.delete(id);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
