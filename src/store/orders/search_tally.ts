/**
 * Exact answers to `q` read in one stream (search_read.ts decides which): the postings of a
 * cover, each order counted once wherever several of its terms are read, or every order of the
 * filters' range checked on its text. Only the page and a count are kept, never the matches.
 */
import { type Order, ORDER_STATUSES, type OrderStatus } from "../../domain/orders/order.ts";
import { matchesQuery, searchText, termsOfText } from "../../domain/orders/search_terms.ts";
import { keys } from "../keys.ts";
import { indexSelector, type Paging } from "../kv.ts";

export interface SearchFilter {
  /** Normalised query (lowercase, trimmed). */
  q: string;
  status?: OrderStatus;
  fromMs?: number;
  toMs?: number;
}

/**
 * A posting's value: the order, or for an order over `POSTING_ORDER_CHARS` (search_read.ts) its
 * status (index in ORDER_STATUSES) and search text.
 */
export type SearchPosting = Order | [status: number, text: string];

export interface Hit {
  id: string;
  ms: number;
  /** The order, when its posting holds it (and the page keeps it). */
  order?: Order;
}

/** The page (ids, and the orders the postings held) and the number of matches. */
export type Result = { ids: string[]; orders: (Order | undefined)[]; total: number };

export const resultOf = (page: Hit[], total: number): Result => ({
  ids: page.map((h) => h.id),
  orders: page.map((h) => h.order),
  total,
});

export const hitOf = ({ key, value }: Deno.KvEntry<SearchPosting>): Hit => ({
  id: String(key.at(-1)),
  ms: Number(key.at(-2)),
  order: Array.isArray(value) ? undefined : value,
});

/** The list's order: newest `receivedAt` first, then the greater id. */
export const newer = (a: Hit, b: Hit) => a.ms > b.ms || (a.ms === b.ms && a.id > b.id);

/**
 * Past this many hits before a page's end its orders are not kept while streaming (the page
 * reads them by id): a deep page does not hold thousands of orders.
 */
const KEEP_ORDERS_WITHIN = 1_000;

/** The newest `want` hits of a stream in any order, in the list's order. */
export class Newest {
  readonly hits: Hit[] = [];
  constructor(readonly want: number) {}

  add(hit: Hit): void {
    const h = this.hits;
    if (h.length === this.want && (!h.length || !newer(hit, h[h.length - 1]))) return;
    let lo = 0;
    let hi = h.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newer(h[mid], hit)) lo = mid + 1;
      else hi = mid;
    }
    h.splice(lo, 0, this.want > KEEP_ORDERS_WITHIN ? { id: hit.id, ms: hit.ms } : hit);
    if (h.length > this.want) h.pop();
  }

  page(paging: Paging): Hit[] {
    return this.hits.slice(paging.offset, paging.offset + paging.limit);
  }
}

/** Postings to stream: a range of the index, or entries already read. */
export interface Source {
  selector?: Deno.KvListSelector;
  read?: Deno.KvEntry<SearchPosting>[];
}

/** How a read of postings checks and counts (`tally`). */
export interface Reading {
  /** Each posting checked on the text (not when every posting read is a match). */
  check: boolean;
  filter: SearchFilter;
  /** Where the counted hits go (the page). */
  newest: Newest;
  /** A few postings (under 2,000): orders told apart by their ids, a set of them kept. */
  few?: boolean;
}

/**
 * The number of orders among the postings of `sources` that pass the filters (and, with
 * `check`, the text rule: on every source alike, so an order passes or fails at each term), each
 * added to `newest`. An order read under several terms counts once: among a few postings by its
 * id; else `terms[i]` are the terms source `i` reads, ranked in that order (a term read by two
 * sources belongs to the first), and an order is counted at the first ranked term it holds,
 * decided on its text by the domain's terms, so nothing is remembered per order. A term not
 * ranked (written since they were read) ranks last.
 */
export async function tally(
  kv: Deno.Kv,
  sources: Source[],
  terms: string[][],
  { check, filter, newest, few }: Reading,
): Promise<number> {
  const seen = few ? new Set<string>() : null;
  const rank = new Map<string, { rank: number; source: number }>();
  if (!seen) {
    terms.forEach((list, source) => {
      for (const t of list) if (!rank.has(t)) rank.set(t, { rank: rank.size, source });
    });
  }
  const heldBefore = (text: string, r: number) =>
    termsOfText(text).terms.some((t) => (rank.get(t)?.rank ?? r) < r);
  const wanted = filter.status === undefined ? -1 : ORDER_STATUSES.indexOf(filter.status);
  const from = filter.fromMs ?? -Infinity;
  const to = filter.toMs ?? Infinity;
  let total = 0;
  await Promise.all(sources.map(async (source, i) => {
    const entries = source.read ??
      kv.list<SearchPosting>(source.selector!, { reverse: true, batchSize: 1000 });
    for await (const e of entries) {
      const hit = hitOf(e);
      if (hit.ms < from || hit.ms >= to) continue;
      const status = hit.order
        ? ORDER_STATUSES.indexOf(hit.order.status)
        : (e.value as [number, string])[0];
      if (wanted >= 0 && status !== wanted) continue;
      if (seen?.has(hit.id)) continue;
      const ranked = seen ? undefined : rank.get(String(e.key.at(-3)));
      if (ranked && ranked.source !== i) continue;
      const r = seen ? 0 : ranked?.rank ?? rank.size;
      if (check || r > 0) {
        const text = hit.order ? searchText(hit.order) : (e.value as [number, string])[1];
        if (check && !matchesQuery(text, filter.q)) continue;
        if (r > 0 && heldBefore(text, r)) continue;
      }
      seen?.add(hit.id);
      total++;
      newest.add(hit);
    }
  }));
  return total;
}

/**
 * Every order in the filters' range checked on its text, newest first (the index's order): the
 * page kept, the rest counted. Work grows with the range, not with the matches: the answer for a
 * workspace too large for the search memory (search_changes.ts).
 */
export async function scanned(
  kv: Deno.Kv,
  userId: string,
  filter: SearchFilter,
  paging: Paging,
): Promise<Result> {
  const prefix = filter.status
    ? keys.ordersByStatus(userId, filter.status)
    : keys.ordersByReceived(userId);
  const selector = indexSelector(prefix, filter.fromMs, filter.toMs);
  const page: Hit[] = [];
  let total = 0;
  for await (const e of kv.list<Order>(selector, { reverse: true, batchSize: 1000 })) {
    if (!matchesQuery(searchText(e.value), filter.q)) continue;
    if (total >= paging.offset && page.length < paging.limit) {
      page.push({ id: e.value.id, ms: 0, order: e.value });
    }
    total++;
  }
  return resultOf(page, total);
}
