/**
 * Reading the page of a `q` search once its cover is chosen (search_index.ts): the newest
 * postings of one term, a merge of several terms' newest, every posting of the cover checked,
 * or, when every cover is broad, the newest orders checked one by one.
 */
import {
  matchesQuery,
  type Order,
  ORDER_STATUSES,
  type OrderStatus,
  searchText,
} from "../../domain/orders/order.ts";
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
 * A posting's value: the order, or for an order over {@link POSTING_ORDER_CHARS} its status
 * (index in ORDER_STATUSES) and search text.
 */
export type SearchPosting = Order | [status: number, text: string];

/**
 * Orders up to this size (JSON characters) are copied into their postings: a page of matches is
 * then read with the postings, not by a lookup per order. 32 postings of this size (3 KB each
 * at most, two bytes a character) keep six orders of an import under KV's 800 KiB per commit.
 */
export const POSTING_ORDER_CHARS = 1_500;

/** A term of the index with its count of orders. */
export interface Found {
  term: string;
  count: number;
}

/** Postings of one term, or (`prefix`) of every term that starts with it: `found`. */
export interface Range {
  term: string;
  prefix: boolean;
  found: Found[];
  count: number;
  /** A pair cut at 48 characters: its postings are checked on the text. */
  cut?: boolean;
  /** Its postings, already read whole (`found` then empty, `count` their number). */
  read?: Deno.KvEntry<SearchPosting>[];
}

/** Ranges whose postings hold every match; `exact`: nothing else (no text check needed). */
export interface Cover {
  ranges: Range[];
  count: number;
  exact: boolean;
}

/** Postings one search reads at most (past it, the matches found so far are the answer). */
export const MAX_POSTINGS_READ = 10_000;
/** Orders a search whose every cover is broad checks at most, newest first. */
export const MAX_SCANNED = 10_000;
/** Below this many postings a cover of several terms is read whole (exact total). */
const READ_WHOLE_BELOW = 2_000;
/** Terms whose newest postings a broad exact cover merges at most (else it is read whole). */
const MAX_MERGED_TERMS = 50;
/** Postings of a prefix read at once, when it has many terms (`postingsOf`). */
const READ_DIRECTLY = 500;
const LAST = "\u{10ffff}";

interface Hit {
  id: string;
  ms: number;
  /** The order, when its posting holds it. */
  order?: Order;
}

/** The page (ids, and the orders the postings held) and the number of matches. */
export type Result = { ids: string[]; orders: (Order | undefined)[]; total: number };

const resultOf = (page: Hit[], total: number): Result => ({
  ids: page.map((h) => h.id),
  orders: page.map((h) => h.order),
  total,
});

/** The page and total of `cover` (and of the overflow orders, always checked on their text). */
export async function pageOf(
  kv: Deno.Kv,
  userId: string,
  filter: SearchFilter,
  paging: Paging,
  cover: Cover,
  overflow: Cover | null,
): Promise<Result> {
  const filtered = filter.status !== undefined || filter.fromMs !== undefined ||
    filter.toMs !== undefined;
  const terms = cover.ranges.flatMap((r) => r.found);
  const read = cover.ranges.some((r) => r.read);
  if (cover.exact && !filtered && !overflow && !read) {
    if (terms.length === 1) return await newestOfTerms(kv, userId, terms, cover.count, paging);
    if (cover.count >= READ_WHOLE_BELOW && terms.length <= MAX_MERGED_TERMS) {
      return await newestOfTerms(kv, userId, terms, cover.count, paging);
    }
  }
  const [hits, more] = await Promise.all([
    matching(kv, userId, cover, filter),
    overflow ? matching(kv, userId, { ...overflow, exact: false }, filter) : [],
  ]);
  const all = newestFirst(unique([...hits, ...more]));
  return resultOf(all.slice(paging.offset, paging.offset + paging.limit), all.length);
}

/**
 * The newest postings of `terms`, merged (an order found twice counted once on the page):
 * `total` is the summed count, exact for one term.
 */
async function newestOfTerms(
  kv: Deno.Kv,
  userId: string,
  terms: Found[],
  total: number,
  paging: Paging,
): Promise<Result> {
  const want = paging.offset + paging.limit;
  const lists = await Promise.all(terms.map(async ({ term }) => {
    const hits: Hit[] = [];
    const iter = kv.list<SearchPosting>({ prefix: keys.searchTerm(userId, term) }, {
      reverse: true,
      limit: want,
      batchSize: Math.min(want, 500),
    });
    for await (const e of iter) hits.push(hitOf(e));
    return hits;
  }));
  return resultOf(newestFirst(unique(lists.flat())).slice(paging.offset, want), total);
}

/**
 * Every posting of the cover's ranges that passes the filters and (unless the cover is exact)
 * the text rule; at most {@link MAX_POSTINGS_READ}, shared by the ranges by their counts.
 */
async function matching(
  kv: Deno.Kv,
  userId: string,
  cover: Cover,
  filter: SearchFilter,
): Promise<Hit[]> {
  const wanted = filter.status === undefined ? -1 : ORDER_STATUSES.indexOf(filter.status);
  const from = filter.fromMs ?? -Infinity;
  const to = filter.toMs ?? Infinity;
  const share = Math.min(1, MAX_POSTINGS_READ / Math.max(1, cover.count));
  const lists = await Promise.all(cover.ranges.map(async (range) => {
    // A few more than counted: orders committed since the count was read.
    const limit = Math.ceil(range.count * share) + 100;
    const check = !cover.exact || range.cut;
    const hits: Hit[] = [];
    const entries = range.read ?? kv.list<SearchPosting>(selectorOf(userId, range), {
      limit,
      batchSize: Math.min(limit, 1000),
    });
    for await (const e of entries) {
      const hit = hitOf(e);
      if (hit.ms < from || hit.ms >= to) continue;
      const [status, text] = hit.order
        ? [ORDER_STATUSES.indexOf(hit.order.status), check ? searchText(hit.order) : ""]
        : e.value as [number, string];
      if (wanted >= 0 && status !== wanted) continue;
      if (check && !matchesQuery(text, filter.q)) continue;
      hits.push(hit);
    }
    return hits;
  }));
  return lists.flat();
}

const selectorOf = (userId: string, { term, prefix }: Range): Deno.KvListSelector =>
  prefix
    ? { start: keys.searchTerm(userId, term), end: keys.searchTerm(userId, term + LAST) }
    : { prefix: keys.searchTerm(userId, term) };

/**
 * The postings of every term that starts with `term`, read whole when there are fewer than
 * {@link READ_DIRECTLY} (one read instead of the terms' counts and then their postings: a
 * prefix of many rare terms, like the start of an order number); null when there are more.
 */
export async function postingsOf(kv: Deno.Kv, userId: string, term: string) {
  const range: Range = { term, prefix: true, found: [], count: 0 };
  const limit = READ_DIRECTLY;
  const read = await Array.fromAsync(
    kv.list<SearchPosting>(selectorOf(userId, range), { limit, batchSize: limit }),
  );
  if (read.length >= limit) return null;
  return { ...range, count: read.length, read };
}

/**
 * Every cover broad (a one- or two-letter word in a large account): the newest orders in the
 * filters' range (at most {@link MAX_SCANNED}) checked on their text; exact when the range
 * holds no more, else the page and `total` cover those orders only.
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
  const found: Hit[] = [];
  const iter = kv.list<Order>(selector, { reverse: true, limit: MAX_SCANNED, batchSize: 1000 });
  for await (const e of iter) {
    if (matchesQuery(searchText(e.value), filter.q)) {
      found.push({ id: e.value.id, ms: 0, order: e.value });
    }
  }
  return resultOf(found.slice(paging.offset, paging.offset + paging.limit), found.length);
}

const hitOf = ({ key, value }: Deno.KvEntry<SearchPosting>): Hit => ({
  id: String(key.at(-1)),
  ms: Number(key.at(-2)),
  order: Array.isArray(value) ? undefined : value,
});

function unique(hits: Hit[]): Hit[] {
  const seen = new Set<string>();
  return hits.filter((h) => !seen.has(h.id) && seen.add(h.id));
}

/** The list's order: newest `receivedAt` first, then the greater id. */
function newestFirst(hits: Hit[]): Hit[] {
  return hits.sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}
