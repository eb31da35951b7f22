/**
 * `q` search over a workspace's orders. A substring search cannot use a KV range, and scanning
 * 100,000 stored orders takes about half a second, so each process keeps a compact copy of
 * every order's searchable text in memory and brings it up to date before every search:
 *
 * - every order change also writes a short-lived change entry `(real time ms, id) -> search
 *   entry | tombstone` and bumps the workspace's revision key, in the same commit;
 * - a search reads the revision (one get); when it moved, it reads the change entries since its
 *   last sync minus a safety overlap and applies each one whose versionstamp is newer than what
 *   it holds (a commit's entries share one versionstamp, so replays are harmless);
 * - a workspace seen for the first time, or not synced for longer than change entries live, is
 *   rebuilt from a scan of its orders.
 *
 * So results and `total` reflect every commit made before the search started, from any process.
 */
import type { Order, OrderStatus } from "../domain/order.ts";
import { matchesQuery, searchText } from "../domain/order.ts";
import { keys } from "./keys.ts";

/** What a change entry holds: enough to filter without reading the order. */
export interface SearchEntry {
  ms: number;
  status: OrderStatus;
  text: string;
}

export type ChangeEntry = SearchEntry | { deleted: true };

/** How long change entries live. */
export const CHANGE_TTL_MS = 60 * 60 * 1000;
/** Change entries are read back this far before the last sync: a commit's clock reading and its
 *  commit are a few milliseconds apart, this leaves a wide margin. */
const SYNC_OVERLAP_MS = 60 * 1000;
/** A cache older than this is rebuilt: the change entries it would need may have expired. */
const MAX_SYNC_AGE_MS = CHANGE_TTL_MS - 10 * 60 * 1000;

export function searchEntry(order: Order): SearchEntry {
  return { ms: Date.parse(order.receivedAt), status: order.status, text: searchText(order) };
}

export interface SearchFilter {
  /** Normalised query (lowercase, trimmed, non-empty). */
  query: string;
  status?: OrderStatus;
  fromMs?: number;
  toMs?: number;
}

export interface SearchHit {
  id: string;
  ms: number;
}

interface Cached extends SearchEntry {
  id: string;
  versionstamp: string;
}

interface WorkspaceCache {
  entries: Map<string, Cached>;
  /** Deleted ids with the versionstamp of their deletion, so a replayed older change is ignored. */
  deleted: Map<string, string>;
  revision: string | null;
  syncedAt: number;
  lastUsed: number;
}

export class OrderSearch {
  #caches = new Map<string, WorkspaceCache>();
  #queues = new Map<string, Promise<unknown>>();

  /** `maxEntries` bounds memory: least recently searched workspaces are dropped beyond it. */
  constructor(private kv: Deno.Kv, private maxEntries = 300_000) {}

  /** Matching orders, newest `receivedAt` first (ties by id, newest first). */
  async find(userId: string, filter: SearchFilter): Promise<SearchHit[]> {
    const cache = await this.#synced(userId);
    const hits: SearchHit[] = [];
    for (const e of cache.entries.values()) {
      if (filter.status && e.status !== filter.status) continue;
      if (filter.fromMs !== undefined && e.ms < filter.fromMs) continue;
      if (filter.toMs !== undefined && e.ms >= filter.toMs) continue;
      if (matchesQuery(e.text, filter.query)) hits.push({ id: e.id, ms: e.ms });
    }
    return hits.sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  /** Forgets a workspace (account deletion). */
  drop(userId: string): void {
    this.#caches.delete(userId);
  }

  /** Syncs run one after another per workspace, each after the request that asked for it began. */
  #synced(userId: string): Promise<WorkspaceCache> {
    const run = (this.#queues.get(userId) ?? Promise.resolve()).then(() => this.#sync(userId));
    const tail = run.catch(() => {});
    this.#queues.set(userId, tail);
    tail.then(() => {
      if (this.#queues.get(userId) === tail) this.#queues.delete(userId);
    });
    return run;
  }

  async #sync(userId: string): Promise<WorkspaceCache> {
    const startedAt = Date.now();
    let cache = this.#caches.get(userId);
    if (!cache || startedAt - cache.syncedAt > MAX_SYNC_AGE_MS) {
      cache = await this.#build(userId, startedAt);
    }
    const revision = (await this.kv.get(keys.orderRevision(userId))).versionstamp;
    if (revision !== cache.revision) {
      const selector = {
        start: [...keys.orderChanges(userId), cache.syncedAt - SYNC_OVERLAP_MS],
        end: [...keys.orderChanges(userId), Number.MAX_SAFE_INTEGER],
      };
      for await (const e of this.kv.list<ChangeEntry>(selector, { batchSize: 500 })) {
        apply(cache, String(e.key.at(-1)), e.value, e.versionstamp);
      }
      cache.revision = revision;
    }
    cache.syncedAt = cache.lastUsed = startedAt;
    return cache;
  }

  async #build(userId: string, startedAt: number): Promise<WorkspaceCache> {
    const cache: WorkspaceCache = {
      entries: new Map(),
      deleted: new Map(),
      revision: null,
      syncedAt: startedAt,
      lastUsed: startedAt,
    };
    // The scan is consistent only per batch; changes it misses are in the change entries the
    // following sync reads (everything since `startedAt` minus the overlap).
    for await (
      const e of this.kv.list<Order>({ prefix: keys.orders(userId) }, { batchSize: 1000 })
    ) {
      apply(cache, e.value.id, searchEntry(e.value), e.versionstamp);
    }
    this.#caches.set(userId, cache);
    this.#evict(userId);
    return cache;
  }

  #evict(keep: string) {
    let total = 0;
    for (const c of this.#caches.values()) total += c.entries.size;
    const byAge = [...this.#caches].filter(([id]) => id !== keep)
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [id, c] of byAge) {
      if (total <= this.maxEntries) break;
      this.#caches.delete(id);
      total -= c.entries.size;
    }
  }
}

function apply(cache: WorkspaceCache, id: string, change: ChangeEntry, versionstamp: string) {
  const held = cache.entries.get(id)?.versionstamp ?? cache.deleted.get(id);
  if (held !== undefined && held >= versionstamp) return;
  if ("deleted" in change) {
    cache.entries.delete(id);
    cache.deleted.set(id, versionstamp);
  } else {
    cache.entries.set(id, { ...change, id, versionstamp });
  }
}
