/**
 * One workspace's orders in memory, for the `q` answers the index has no rare cover for (a
 * letter or two inside thousands of words): each order's search text, status and time in a
 * slot, slots handed out in the list's order, and for every gram of the texts (domain
 * `gramsOf`) and every status the set of slots that hold it (lib/slot_set.ts). A query of one
 * or two UTF-16 units is one gram: its set ANDed with the status's, within the slots of the time
 * range, is the matches, counted word by word and read from the newest down. A longer query (or
 * a `#` one) also checks the text of each slot in its sets. No KV read: search_changes.ts keeps
 * the copy fresh from the change entries every order commit writes.
 */
import { type Order, ORDER_STATUSES, type OrderStatus } from "../../domain/orders/order.ts";
import {
  gramsOf,
  matchesQuery,
  queryGrams,
  queryVariants,
  searchText,
} from "../../domain/orders/search_terms.ts";
import { common, SlotSet } from "../../lib/slot_set.ts";
import type { Paging } from "../kv.ts";
import { Newest, type Result, resultOf, type SearchFilter } from "./search_tally.ts";

/** What an order change tells the copies in memory: the order's search entry, or its deletion. */
export type ChangeEntry = { ms: number; status: OrderStatus; text: string } | { deleted: true };

/** How long change entries live in KV. */
export const CHANGE_TTL_MS = 60 * 60 * 1000;

export function changeEntryOf(order: Order | null): ChangeEntry {
  if (!order) return { deleted: true };
  return { ms: Date.parse(order.receivedAt), status: order.status, text: searchText(order) };
}

const DEAD = 255;

/** An order's place in the time-ordered index. */
export interface Span {
  ms: number;
  id: string;
}

export class WorkspaceMemory {
  #ids: string[] = [];
  #texts: string[] = [];
  /** The versionstamp of what each slot holds: an older change replayed is ignored. */
  #stamps: string[] = [];
  #ms: number[] = [];
  #status: number[] = [];
  #slotOf = new Map<string, number>();
  /** Deleted orders: the versionstamp of the deletion and the time its change entry names. */
  #deleted = new Map<string, { stamp: string; at: number }>();
  #grams = new Map<number, SlotSet>();
  #byStatus = ORDER_STATUSES.map(() => new SlotSet());
  #dead = 0;
  /** The greatest order appended, in the list's order: while each new one is newer, slots are. */
  #last = { ms: -Infinity, id: "" };
  #sorted = true;
  /** The workspace's order revision this copy has every change of. */
  revision: string | null = null;

  /** `syncedAt`: the real time before the last reading of changes (or of the orders) began. */
  constructor(public syncedAt: number) {}

  /** Orders held. */
  get size(): number {
    return this.#ids.length - this.#dead;
  }

  /** Applies a change of order `id` committed under `versionstamp`, at real time `at`. */
  apply(id: string, change: ChangeEntry, versionstamp: string, at = 0): void {
    const slot = this.#slotOf.get(id);
    const held = slot === undefined ? this.#deleted.get(id)?.stamp : this.#stamps[slot];
    if (held !== undefined && held >= versionstamp) return;
    if ("deleted" in change) {
      this.#deleted.set(id, { stamp: versionstamp, at });
      if (slot !== undefined) this.#remove(slot);
      return;
    }
    this.#deleted.delete(id);
    const status = ORDER_STATUSES.indexOf(change.status);
    if (slot !== undefined && this.#ms[slot] === change.ms) {
      this.#stamps[slot] = versionstamp;
      this.#byStatus[this.#status[slot]].delete(slot);
      this.#byStatus[status].add(slot);
      this.#status[slot] = status;
      if (this.#texts[slot] !== change.text) {
        this.#ungram(slot);
        this.#texts[slot] = change.text;
        this.#gram(slot);
      }
      return;
    }
    if (slot !== undefined) this.#remove(slot);
    this.#append(id, change.ms, status, change.text, versionstamp);
  }

  /** Forgets deletions named by change entries before `at` (no entry can replay them now). */
  forgetDeletionsBefore(at: number): void {
    for (const [id, d] of this.#deleted) if (d.at < at) this.#deleted.delete(id);
  }

  /** The page (ids, newest first) and number of the orders that match `filter`. */
  answer(filter: SearchFilter, paging: Paging): Result {
    const variants = queryVariants(filter.q);
    // Every match holds the query without its `#` (the order number may lack it).
    const core = variants[variants.length - 1];
    const sets: SlotSet[] = [];
    for (const gram of queryGrams(core)) {
      const set = this.#grams.get(gram);
      if (!set) return resultOf([], 0);
      sets.push(set);
    }
    if (filter.status !== undefined) {
      sets.push(this.#byStatus[ORDER_STATUSES.indexOf(filter.status)]);
    }
    const check = variants.length > 1 || core.length > 2;
    const from = filter.fromMs ?? -Infinity;
    const to = filter.toMs ?? Infinity;
    const ranged = from !== -Infinity || to !== Infinity;
    const newest = new Newest(paging.offset + paging.limit);
    const ids = this.#ids;
    const ms = this.#ms;
    if (!check && (this.#sorted || !ranged)) {
      // The sets are the matches; in the list's order, the time range is a range of slots and
      // the newest members are the page.
      const sorted = this.#sorted;
      const lo = ranged ? this.#firstFrom(from) : 0;
      const hi = ranged ? this.#firstFrom(to) : ids.length;
      const total = common(sets, lo, hi, (slot) => {
        newest.add({ id: ids[slot], ms: ms[slot] });
        return !sorted || newest.hits.length < newest.want;
      });
      return resultOf(newest.page(paging), total);
    }
    const texts = this.#texts;
    let total = 0;
    common(sets, 0, ids.length, (slot) => {
      const t = ms[slot];
      if (t < from || t >= to) return;
      if (check && !matchesQuery(texts[slot], filter.q)) return;
      total++;
      newest.add({ id: ids[slot], ms: t });
    });
    return resultOf(newest.page(paging), total);
  }

  /**
   * Where the page's orders lie in the time-ordered index when they are close together there
   * (a broad query's page): its oldest and newest order, with at most `most` orders from one to
   * the other as this copy has them; null when they are further apart (or slots are not in the
   * list's order).
   */
  spanOf(ids: string[], most: number): { oldest: Span; newest: Span } | null {
    if (!this.#sorted || !ids.length) return null;
    const newest = this.#slotOf.get(ids[0]);
    const oldest = this.#slotOf.get(ids[ids.length - 1]);
    if (newest === undefined || oldest === undefined || newest - oldest >= most) return null;
    const at = (slot: number) => ({ ms: this.#ms[slot], id: this.#ids[slot] });
    return { oldest: at(oldest), newest: at(newest) };
  }

  /** The first slot whose time is `ms` or later (slots in the list's order). */
  #firstFrom(ms: number): number {
    let lo = 0;
    let hi = this.#ms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#ms[mid] < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #append(id: string, ms: number, status: number, text: string, stamp: string): void {
    const slot = this.#ids.length;
    const last = this.#last;
    if (ms < last.ms || (ms === last.ms && id < last.id)) this.#sorted = false;
    else this.#last = { ms, id };
    this.#ids.push(id);
    this.#ms.push(ms);
    this.#status.push(status);
    this.#texts.push(text);
    this.#stamps.push(stamp);
    this.#slotOf.set(id, slot);
    this.#byStatus[status].add(slot);
    this.#gram(slot);
  }

  #remove(slot: number): void {
    this.#ungram(slot);
    this.#byStatus[this.#status[slot]].delete(slot);
    this.#slotOf.delete(this.#ids[slot]);
    this.#status[slot] = DEAD;
    this.#texts[slot] = "";
    this.#stamps[slot] = "";
    // Dead slots are a quarter (and many): hand out slots again, in the list's order.
    if (++this.#dead > 1_000 && this.#dead * 4 > this.#ids.length) this.#compact();
  }

  #gram(slot: number): void {
    for (const gram of gramsOf(this.#texts[slot])) {
      let set = this.#grams.get(gram);
      if (!set) this.#grams.set(gram, set = new SlotSet());
      set.add(slot);
    }
  }

  #ungram(slot: number): void {
    for (const gram of gramsOf(this.#texts[slot])) {
      const set = this.#grams.get(gram);
      set?.delete(slot);
      if (set?.size === 0) this.#grams.delete(gram);
    }
  }

  #compact(): void {
    const live = [...this.#slotOf.values()].sort((a, b) =>
      this.#ms[a] - this.#ms[b] || (this.#ids[a] < this.#ids[b] ? -1 : 1)
    );
    const old = {
      ids: this.#ids,
      ms: this.#ms,
      status: this.#status,
      texts: this.#texts,
      stamps: this.#stamps,
    };
    this.#ids = [];
    this.#ms = [];
    this.#status = [];
    this.#texts = [];
    this.#stamps = [];
    this.#slotOf = new Map();
    this.#grams = new Map();
    this.#byStatus = ORDER_STATUSES.map(() => new SlotSet());
    this.#dead = 0;
    this.#last = { ms: -Infinity, id: "" };
    this.#sorted = true;
    for (const s of live) {
      this.#append(old.ids[s], old.ms[s], old.status[s], old.texts[s], old.stamps[s]);
    }
  }
}
