/**
 * Broad `q` answers (search_index.ts: no rare cover) from this process's memory of the
 * workspace (search_memory.ts), kept fresh the way the insight cache is, and brought up to date
 * by change entries rather than read again:
 *
 * - every order commit writes, for each order it changes, a change entry `(real time ms, id) ->
 *   search entry | deletion` living an hour (footprint.ts), and rewrites the workspace's order
 *   revision;
 * - a broad search reads the revision (one get); when it moved since the copy was synced, it
 *   reads the change entries from the last sync's start less {@link SYNC_OVERLAP_MS} (a commit
 *   stamped before a sync began may land after it read) and applies each one newer than what the
 *   copy holds of its order (a commit's entries share its versionstamp, so replays are harmless);
 * - a workspace not held, or not searched broadly for longer than change entries live, is read
 *   whole from its orders (1.5 to 2 s at 100,000), then synced.
 *
 * So an answer reflects every commit made before the search began, from any process. Memory is
 * bounded: {@link MAX_MEMORY_ORDERS} orders over all workspaces, the least recently searched
 * dropped first; a workspace larger than that is answered by checking its orders in KV.
 */
import type { Order } from "../../domain/orders/order.ts";
import { keys } from "../keys.ts";
import type { Paging } from "../kv.ts";
import { ordersIn } from "./counts.ts";
import {
  CHANGE_TTL_MS,
  type ChangeEntry,
  changeEntryOf,
  WorkspaceMemory,
} from "./search_memory.ts";
import { type Result, scanned, type SearchFilter } from "./search_tally.ts";

/**
 * Change entries are read back this far before the last sync began: a commit's clock reading
 * and its landing are apart by its wait in the group commit and the disk (stalls of seconds
 * have been measured), never this long.
 */
export const SYNC_OVERLAP_MS = 30_000;
/** A copy not synced for longer is read again: the change entries it needs may have expired. */
const MAX_SYNC_AGE_MS = CHANGE_TTL_MS - 10 * 60 * 1000;
/** Orders held in memory at most, over all workspaces of a store. */
export const MAX_MEMORY_ORDERS = 300_000;

export class SearchMemory {
  /** Least recently searched first. */
  #workspaces = new Map<string, WorkspaceMemory>();
  #queues = new Map<string, Promise<unknown>>();

  constructor(private readonly kv: Deno.Kv, private readonly maxOrders = MAX_MEMORY_ORDERS) {}

  /** Orders held, over all workspaces. */
  get size(): number {
    let size = 0;
    for (const memory of this.#workspaces.values()) size += memory.size;
    return size;
  }

  /** The workspace's copy with every change committed before the call; null if too large. */
  async memoryOf(userId: string): Promise<WorkspaceMemory | null> {
    const held = this.#workspaces.get(userId);
    if (held && !this.#queues.has(userId)) {
      const readAt = Date.now();
      const { versionstamp } = await this.kv.get(keys.orderRevision(userId));
      if (versionstamp !== null && versionstamp === held.revision && this.#workspaces.has(userId)) {
        // Nothing landed since the last sync: the copy is as good as one synced now.
        held.syncedAt = Math.max(held.syncedAt, readAt);
        return this.#touch(userId, held);
      }
    }
    // Syncs of one workspace run one after another, each begun after the request asked.
    const run = (this.#queues.get(userId) ?? Promise.resolve()).then(() => this.#sync(userId));
    const tail = run.catch(() => {});
    this.#queues.set(userId, tail);
    tail.then(() => {
      if (this.#queues.get(userId) === tail) this.#queues.delete(userId);
    });
    return await run;
  }

  async #sync(userId: string): Promise<WorkspaceMemory | null> {
    const startedAt = Date.now();
    const { versionstamp: revision } = await this.kv.get(keys.orderRevision(userId));
    let memory = this.#workspaces.get(userId);
    // No revision: no order was ever committed (or the account is gone): nothing to hold.
    if (revision === null) {
      this.#workspaces.delete(userId);
      return null;
    }
    if (memory?.revision === revision) return this.#touch(userId, memory);
    if (!memory || startedAt - memory.syncedAt > MAX_SYNC_AGE_MS) {
      this.#workspaces.delete(userId);
      if (await ordersIn(this.kv, userId, {}) > this.maxOrders) return null;
      memory = await this.#read(userId, startedAt);
    }
    const changes = keys.orderChanges(userId);
    const selector = {
      start: [...changes, memory.syncedAt - SYNC_OVERLAP_MS],
      end: [...changes, Number.MAX_SAFE_INTEGER],
    };
    for await (const e of this.kv.list<ChangeEntry>(selector, { batchSize: 1000 })) {
      memory.apply(String(e.key.at(-1)), e.value, e.versionstamp, Number(e.key.at(-2)));
    }
    memory.forgetDeletionsBefore(startedAt - CHANGE_TTL_MS);
    memory.revision = revision;
    memory.syncedAt = startedAt;
    this.#touch(userId, memory);
    this.#evict();
    return this.#workspaces.get(userId) ?? null;
  }

  /**
   * Every order of the workspace, in the list's order. The read is consistent only per batch;
   * what it misses is in the change entries the sync reads next (from `startedAt` less the
   * overlap).
   */
  async #read(userId: string, startedAt: number): Promise<WorkspaceMemory> {
    const memory = new WorkspaceMemory(startedAt);
    const orders = this.kv.list<Order>({ prefix: keys.ordersByReceived(userId) }, {
      batchSize: 1000,
    });
    for await (const e of orders) memory.apply(e.value.id, changeEntryOf(e.value), e.versionstamp);
    return memory;
  }

  #touch(userId: string, memory: WorkspaceMemory): WorkspaceMemory {
    this.#workspaces.delete(userId);
    this.#workspaces.set(userId, memory);
    return memory;
  }

  /** Drops the least recently searched workspaces (the one just synced last) past the bound. */
  #evict(): void {
    let size = this.size;
    for (const [userId, memory] of this.#workspaces) {
      if (size <= this.maxOrders) return;
      this.#workspaces.delete(userId);
      size -= memory.size;
    }
  }
}

const memories = new WeakMap<Deno.Kv, SearchMemory>();

/** The store's search memory (one per KV handle, like its group commit). */
export function searchMemoryOf(kv: Deno.Kv): SearchMemory {
  let memory = memories.get(kv);
  if (!memory) memories.set(kv, memory = new SearchMemory(kv));
  return memory;
}

/**
 * A broad `q` answer: from the store's search memory (or `memories`), or, for a workspace too
 * large for it, every order of the filters' range checked in KV.
 */
export async function broadSearch(
  kv: Deno.Kv,
  userId: string,
  filter: SearchFilter,
  paging: Paging,
  memories = searchMemoryOf(kv),
): Promise<Result> {
  const memory = await memories.memoryOf(userId);
  if (!memory) return await scanned(kv, userId, filter, paging);
  const result = memory.answer(filter, paging);
  // A broad query's page lies close together in the time-ordered index: one range read brings
  // its orders (not one lookup each). One that moved since is read by id (list.ts).
  const wanted = result.ids.length;
  const span = memory.spanOf(result.ids, 2 * wanted + 16);
  if (span) {
    const { oldest, newest } = span;
    const selector = {
      start: keys.orderByReceived(userId, oldest.ms, oldest.id),
      end: keys.orderByReceived(userId, newest.ms, `${newest.id}\0`),
    };
    const limit = 4 * wanted + 32;
    const read = new Map<string, Order>();
    for await (const e of kv.list<Order>(selector, { limit, batchSize: limit })) {
      read.set(e.value.id, e.value);
    }
    result.orders = result.ids.map((id) => read.get(id));
  }
  return result;
}
