/**
 * `q` over the search index the order footprint maintains (footprint.ts): a posting per (term,
 * order) `(term, receivedAt ms, id) -> [status, search text]` and a count per term. A search
 * reads the counts of the query's terms (domain/orders/search_terms.ts), picks the rarest as
 * its driver and reads only the driver's postings:
 *
 * - a one-word query (or a two-word one driven by its pair) without filters is answered by the
 *   driver alone: `total` is its count and the page its newest postings;
 * - anything else reads the driver's postings (bounded), keeps those whose status, time and
 *   text (`matchesQuery`, the substring rule) pass, and sorts them newest first.
 *
 * Orders with more terms than an order keeps (domain `MAX_TERMS`) carry the overflow term: a
 * search reads those too and checks their text, since they may lack the driver.
 *
 * Work is bounded by the rarest term's count, not by the account's size.
 */
import { matchesQuery, ORDER_STATUSES, type OrderStatus } from "../../domain/orders/order.ts";
import { OVERFLOW_TERM, type QueryTerm, queryTerms } from "../../domain/orders/search_terms.ts";
import { keys } from "../keys.ts";
import { counterValue, getManyChunked, type Paging } from "../kv.ts";

/** A posting's value: the order's status (index in ORDER_STATUSES) and its search text. */
export type SearchPosting = [status: number, text: string];

/** Count keys a prefix's range may hold before it is treated as too broad to drive. */
export const MAX_PREFIX_TERMS = 500;
/** Postings one search reads at most (past it, the matches found so far are the answer). */
export const MAX_POSTINGS_READ = 10_000;
/** Below this many postings a multi-term range is read whole (exact total) rather than merged. */
const READ_WHOLE_BELOW = 2_000;
/** The highest code point: every string that starts with a prefix sorts before prefix + it. */
const LAST = "\u{10ffff}";

export interface SearchFilter {
  /** Normalised query (lowercase, trimmed). */
  q: string;
  status?: OrderStatus;
  fromMs?: number;
  toMs?: number;
}

/** A query term with the terms of the index it stands for and their summed count. */
interface Counted extends QueryTerm {
  found: { term: string; count: number }[];
  count: number;
  /** More than {@link MAX_PREFIX_TERMS} terms in its range: `found` is cut short. */
  huge: boolean;
}

interface Hit {
  id: string;
  ms: number;
}

/** The page's order ids (newest `receivedAt` first, ties by id) and the number of matches. */
export async function searchOrders(
  kv: Deno.Kv,
  userId: string,
  filter: SearchFilter,
  paging: Paging,
): Promise<{ ids: string[]; total: number }> {
  const { terms, words, simple } = queryTerms(filter.q);
  if (terms.length === 0) return { ids: [], total: 0 };
  const { counted, overflow } = await countTerms(kv, userId, terms);
  // The rarest term drives; on a tie the pair (it covers two words).
  const driver = counted.reduce((best, t) =>
    rank(t) < rank(best) || (rank(t) === rank(best) && t.term.length > best.term.length) ? t : best
  );
  const filtered = filter.status !== undefined || filter.fromMs !== undefined ||
    filter.toMs !== undefined;
  const covers = words === 1 || (words === 2 && driver === counted[2]);
  const trusted = simple && covers;
  if (trusted && !filtered && !driver.huge && overflow === 0) {
    if (driver.found.length === 1 || driver.count >= READ_WHOLE_BELOW) {
      return await newestOfTerms(kv, userId, driver, paging);
    }
  }
  // Orders with more terms than the index keeps may lack the driver: their text is checked.
  const [hits, more] = await Promise.all([
    matching(kv, userId, driver, filter, trusted),
    overflow ? matching(kv, userId, overflowTerm, filter, false) : [],
  ]);
  const all = newestFirst(unique([...hits, ...more]));
  return {
    ids: all.slice(paging.offset, paging.offset + paging.limit).map((h) => h.id),
    total: all.length,
  };
}

const overflowTerm: Counted = {
  term: OVERFLOW_TERM,
  prefix: false,
  found: [],
  count: 0,
  huge: false,
};

const rank = (t: Counted) => t.huge ? Infinity : t.count;

/**
 * Each query term's count (one read for the exact ones and the overflow term, a bounded range
 * for a prefix), and how many orders carry the overflow term.
 */
async function countTerms(kv: Deno.Kv, userId: string, terms: QueryTerm[]) {
  const exact = terms.filter((t) => !t.prefix);
  const got = await getManyChunked<Deno.KvU64>(kv, [
    keys.searchCount(userId, OVERFLOW_TERM),
    ...exact.map((t) => keys.searchCount(userId, t.term)),
  ]);
  const overflow = counterValue(got[0].value);
  const counts = new Map(exact.map((t, i) => [t.term, counterValue(got[i + 1].value)]));
  const counted = await Promise.all(terms.map(async (t): Promise<Counted> => {
    if (!t.prefix) {
      const count = counts.get(t.term) ?? 0;
      return { ...t, count, huge: false, found: count ? [{ term: t.term, count }] : [] };
    }
    const found: Counted["found"] = [];
    let read = 0;
    const range = {
      start: keys.searchCount(userId, t.term),
      end: keys.searchCount(userId, t.term + LAST),
    };
    for await (const e of kv.list<Deno.KvU64>(range, { limit: MAX_PREFIX_TERMS + 1 })) {
      read++;
      const count = counterValue(e.value);
      if (count > 0) found.push({ term: String(e.key.at(-1)), count });
    }
    const count = found.reduce((sum, f) => sum + f.count, 0);
    return { ...t, found, count, huge: read > MAX_PREFIX_TERMS };
  }));
  return { counted, overflow };
}

/**
 * The newest postings of the driver's terms, merged (an order found twice counted once on the
 * page): `total` is the summed count, exact for one term.
 */
async function newestOfTerms(
  kv: Deno.Kv,
  userId: string,
  driver: Counted,
  paging: Paging,
): Promise<{ ids: string[]; total: number }> {
  const want = paging.offset + paging.limit;
  const lists = await Promise.all(driver.found.map(async ({ term }) => {
    const hits: Hit[] = [];
    const iter = kv.list({ prefix: keys.searchTerm(userId, term) }, {
      reverse: true,
      limit: want,
      batchSize: Math.min(want, 500),
    });
    for await (const e of iter) hits.push(hitOf(e.key));
    return hits;
  }));
  const merged = newestFirst(unique(lists.flat())).slice(paging.offset, want);
  return { ids: merged.map((h) => h.id), total: driver.count };
}

/** Every posting of the driver that passes the filters (and the text rule unless `trusted`). */
async function matching(
  kv: Deno.Kv,
  userId: string,
  driver: Counted,
  filter: SearchFilter,
  trusted: boolean,
): Promise<Hit[]> {
  const selector = driver.prefix
    ? {
      start: keys.searchTerm(userId, driver.term),
      end: keys.searchTerm(userId, driver.term + LAST),
    }
    : { prefix: keys.searchTerm(userId, driver.term) };
  const wanted = filter.status === undefined ? -1 : ORDER_STATUSES.indexOf(filter.status);
  const from = filter.fromMs ?? -Infinity;
  const to = filter.toMs ?? Infinity;
  const hits: Hit[] = [];
  const iter = kv.list<SearchPosting>(selector, {
    limit: MAX_POSTINGS_READ,
    batchSize: 1000,
  });
  for await (const e of iter) {
    const [status, text] = e.value;
    const hit = hitOf(e.key);
    if (wanted >= 0 && status !== wanted) continue;
    if (hit.ms < from || hit.ms >= to) continue;
    if (!trusted && !matchesQuery(text, filter.q)) continue;
    hits.push(hit);
  }
  return hits;
}

const hitOf = (key: Deno.KvKey): Hit => ({ id: String(key.at(-1)), ms: Number(key.at(-2)) });

function unique(hits: Hit[]): Hit[] {
  const seen = new Set<string>();
  return hits.filter((h) => !seen.has(h.id) && seen.add(h.id));
}

/** The list's order: newest `receivedAt` first, then the greater id. */
function newestFirst(hits: Hit[]): Hit[] {
  return hits.sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}
