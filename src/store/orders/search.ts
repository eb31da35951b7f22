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
import {
  matchesQuery,
  type Order,
  ORDER_STATUSES,
  type OrderStatus,
  searchText,
} from "../../domain/orders/order.ts";
import { keys } from "../keys.ts";

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

const DEAD = 255;
/** Bits of a text's bigram signature, as 32-bit words. */
const SIG_WORDS = 4;

/**
 * Sets, in `out` at `at`, one of 128 bits per pair of adjacent characters of `text`. A query
 * can only be inside a text whose signature holds every bit of the query's, so most texts are
 * ruled out by four integer tests before any substring search.
 */
export function bigramSignature(text: string, out: Int32Array, at = 0): void {
  for (let i = 0; i + 1 < text.length; i++) {
    const h = (text.charCodeAt(i) * 31 + text.charCodeAt(i + 1)) & 127;
    out[at + (h >> 5)] |= 1 << (h & 31);
  }
}

/** The part of a query every matching text contains (a leading `#` may be absent). */
function requiredText(query: string): string {
  return query.startsWith("#") ? query.slice(1).trim() : query;
}

/**
 * One workspace's search entries in parallel arrays (slots), so a search is a tight loop over
 * typed arrays. Deleted entries leave dead slots, compacted away once they are a quarter.
 */
class WorkspaceIndex {
  ids: string[] = [];
  texts: string[] = [];
  versionstamps: string[] = [];
  ms = new Float64Array(1024);
  status = new Uint8Array(1024);
  sigs = new Int32Array(1024 * SIG_WORDS);
  slotOf = new Map<string, number>();
  /** Deleted ids with the versionstamp of their deletion, so a replayed older change is ignored. */
  deleted = new Map<string, string>();
  size = 0;
  dead = 0;
  revision: string | null = null;

  constructor(public syncedAt: number, public lastUsed: number) {}

  get entries(): number {
    return this.size - this.dead;
  }

  apply(id: string, change: ChangeEntry, versionstamp: string): void {
    const slot = this.slotOf.get(id);
    const held = slot === undefined ? this.deleted.get(id) : this.versionstamps[slot];
    if (held !== undefined && held >= versionstamp) return;
    if ("deleted" in change) {
      this.deleted.set(id, versionstamp);
      if (slot === undefined) return;
      this.slotOf.delete(id);
      this.status[slot] = DEAD;
      this.texts[slot] = "";
      if (++this.dead > 1000 && this.dead * 4 > this.size) this.#compact();
      return;
    }
    const at = slot ?? this.#append(id);
    this.versionstamps[at] = versionstamp;
    this.texts[at] = change.text;
    this.ms[at] = change.ms;
    this.status[at] = ORDER_STATUSES.indexOf(change.status);
    this.sigs.fill(0, at * SIG_WORDS, (at + 1) * SIG_WORDS);
    bigramSignature(change.text, this.sigs, at * SIG_WORDS);
  }

  find(filter: SearchFilter): SearchHit[] {
    const q = new Int32Array(SIG_WORDS);
    bigramSignature(requiredText(filter.query), q);
    const [q0, q1, q2, q3] = q;
    const wanted = filter.status ? ORDER_STATUSES.indexOf(filter.status) : -1;
    const from = filter.fromMs ?? -Infinity;
    const to = filter.toMs ?? Infinity;
    const { status, ms, sigs, texts } = this;
    const hits: number[] = [];
    const ranged = from !== -Infinity || to !== Infinity;
    for (let i = 0, size = this.size; i < size; i++) {
      const b = i * SIG_WORDS;
      // The signature test rules out most slots, so it goes first.
      if (
        (sigs[b] & q0) !== q0 || (sigs[b + 1] & q1) !== q1 || (sigs[b + 2] & q2) !== q2 ||
        (sigs[b + 3] & q3) !== q3
      ) continue;
      const s = status[i];
      if (s === DEAD || (wanted >= 0 && s !== wanted)) continue;
      if (ranged && (ms[i] < from || ms[i] >= to)) continue;
      if (matchesQuery(texts[i], filter.query)) hits.push(i);
    }
    const { ids } = this;
    hits.sort((a, b) => ms[b] - ms[a] || (ids[a] < ids[b] ? 1 : ids[a] > ids[b] ? -1 : 0));
    return hits.map((i) => ({ id: ids[i], ms: ms[i] }));
  }

  #append(id: string): number {
    if (this.size === this.ms.length) this.#resize(this.size * 2);
    const at = this.size++;
    this.ids[at] = id;
    this.slotOf.set(id, at);
    return at;
  }

  #resize(capacity: number) {
    const grow = <T extends Float64Array | Uint8Array | Int32Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a.subarray(0, Math.min(a.length, n)));
      return b;
    };
    this.ms = grow(this.ms, capacity);
    this.status = grow(this.status, capacity);
    this.sigs = grow(this.sigs, capacity * SIG_WORDS);
  }

  /** Moves live slots down over dead ones. */
  #compact() {
    let to = 0;
    for (let from = 0; from < this.size; from++) {
      if (this.status[from] === DEAD) continue;
      if (to !== from) {
        this.ids[to] = this.ids[from];
        this.texts[to] = this.texts[from];
        this.versionstamps[to] = this.versionstamps[from];
        this.ms[to] = this.ms[from];
        this.status[to] = this.status[from];
        this.sigs.copyWithin(to * SIG_WORDS, from * SIG_WORDS, (from + 1) * SIG_WORDS);
        this.slotOf.set(this.ids[to], to);
      }
      to++;
    }
    for (const a of [this.ids, this.texts, this.versionstamps]) a.length = to;
    this.size = to;
    this.dead = 0;
  }
}

export class OrderSearch {
  #indexes = new Map<string, WorkspaceIndex>();
  #queues = new Map<string, Promise<unknown>>();

  /** `maxEntries` bounds memory: least recently searched workspaces are dropped beyond it. */
  constructor(private kv: Deno.Kv, private maxEntries = 300_000) {}

  /** Matching orders, newest `receivedAt` first (ties by id, newest first). */
  async find(userId: string, filter: SearchFilter): Promise<SearchHit[]> {
    return (await this.#synced(userId)).find(filter);
  }

  /** Forgets a workspace (account deletion). */
  drop(userId: string): void {
    this.#indexes.delete(userId);
  }

  /** Syncs run one after another per workspace, each after the request that asked for it began. */
  #synced(userId: string): Promise<WorkspaceIndex> {
    const run = (this.#queues.get(userId) ?? Promise.resolve()).then(() => this.#sync(userId));
    const tail = run.catch(() => {});
    this.#queues.set(userId, tail);
    tail.then(() => {
      if (this.#queues.get(userId) === tail) this.#queues.delete(userId);
    });
    return run;
  }

  async #sync(userId: string): Promise<WorkspaceIndex> {
    const startedAt = Date.now();
    let index = this.#indexes.get(userId);
    if (!index || startedAt - index.syncedAt > MAX_SYNC_AGE_MS) {
      index = await this.#build(userId, startedAt);
    }
    const revision = (await this.kv.get(keys.orderRevision(userId))).versionstamp;
    if (revision !== index.revision) {
      const selector = {
        start: [...keys.orderChanges(userId), index.syncedAt - SYNC_OVERLAP_MS],
        end: [...keys.orderChanges(userId), Number.MAX_SAFE_INTEGER],
      };
      for await (const e of this.kv.list<ChangeEntry>(selector, { batchSize: 500 })) {
        index.apply(String(e.key.at(-1)), e.value, e.versionstamp);
      }
      index.revision = revision;
    }
    index.syncedAt = index.lastUsed = startedAt;
    return index;
  }

  async #build(userId: string, startedAt: number): Promise<WorkspaceIndex> {
    const index = new WorkspaceIndex(startedAt, startedAt);
    // The scan is consistent only per batch; changes it misses are in the change entries the
    // following sync reads (everything since `startedAt` minus the overlap).
    const orders = this.kv.list<Order>({ prefix: keys.orders(userId) }, { batchSize: 1000 });
    for await (const e of orders) index.apply(e.value.id, searchEntry(e.value), e.versionstamp);
    this.#indexes.set(userId, index);
    this.#evict(userId);
    return index;
  }

  #evict(keep: string) {
    let total = 0;
    for (const index of this.#indexes.values()) total += index.entries;
    const byAge = [...this.#indexes].filter(([id]) => id !== keep)
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [id, index] of byAge) {
      if (total <= this.maxEntries) break;
      this.#indexes.delete(id);
      total -= index.entries;
    }
  }
}
