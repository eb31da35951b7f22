/**
 * Reading the page of a `q` search once its cover is chosen (search_index.ts): the newest
 * postings of one term (its count the total), a merge of several terms' newest with the orders
 * of all but the largest counted once, every posting of the cover streamed and checked
 * (search_tally.ts), or, when that is more than the orders of the filters' range (or every cover
 * is broad), the search memory's answer (search_changes.ts). Every answer is exact.
 */
import { keys } from "../keys.ts";
import { indexSelector, type Paging } from "../kv.ts";
import { ordersIn } from "./counts.ts";
import { broadSearch } from "./search_changes.ts";
import {
  type Hit,
  hitOf,
  newer,
  Newest,
  type Result,
  resultOf,
  type SearchFilter,
  type SearchPosting,
  type Source,
  tally,
} from "./search_tally.ts";

export type { Result, SearchFilter, SearchPosting } from "./search_tally.ts";

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

/**
 * Postings (summed counts) a search streams before it compares them with the orders of the
 * filters' range: past both, checking those orders is less work. Below it, a cover of several
 * terms is read whole.
 */
const READ_WHOLE_BELOW = 2_000;
/** Terms whose newest postings an exact cover merges at most (else it is read whole). */
const MAX_MERGED_TERMS = 50;
/** Postings of a prefix read at once, when it has many terms (`postingsOf`). */
const READ_DIRECTLY = 500;
const LAST = "\u{10ffff}";

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
  // The matches are the postings of a few terms: the page is their newest, the total one
  // term's count and the others' orders that hold none of the terms counted before them.
  const merge = cover.exact && !filtered && !overflow && !read &&
    (terms.length === 1 || (cover.count >= READ_WHOLE_BELOW && terms.length <= MAX_MERGED_TERMS));
  const [largest, ...others] = [...terms].sort((a, b) => b.count - a.count);
  const postings = merge ? cover.count - largest.count : cover.count + (overflow?.count ?? 0);
  if (postings >= READ_WHOLE_BELOW && postings > await ordersIn(kv, userId, filter)) {
    return await broadSearch(kv, userId, filter, paging);
  }
  if (merge) {
    const ranked = [[largest.term], ...others.map((f) => [f.term])];
    const sources = [
      { read: [] },
      ...others.map((f) => ({ selector: selectorOf(userId, f.term, false) })),
    ];
    // The largest term's orders are its count (source 0 ranks it, reads nothing).
    const [page, more] = await Promise.all([
      newestOfTerms(kv, userId, terms, paging),
      tally(kv, sources, ranked, { check: false, filter, newest: new Newest(0) }),
    ]);
    return resultOf(page, largest.count + more);
  }
  const ranges = [...cover.ranges, ...(overflow?.ranges ?? [])];
  const sources: Source[] = ranges.map((range) => ({
    selector: selectorOf(userId, range.term, range.prefix, filter),
    read: range.read,
  }));
  // The text decides unless every posting read is a match (an exact cover of uncut terms alone).
  const check = !cover.exact || overflow !== null || ranges.some((r) => r.cut);
  // The terms in the order their postings are read: an order is counted at the first it holds.
  const ranked = ranges.map((r) =>
    r.read ? [...new Set(r.read.map((e) => String(e.key.at(-3))))] : r.found.map((f) => f.term)
  );
  const newest = new Newest(paging.offset + paging.limit);
  const few = postings < READ_WHOLE_BELOW;
  const total = await tally(kv, sources, ranked, { check, filter, newest, few });
  return resultOf(newest.page(paging), total);
}

/** The newest postings of `terms`, merged (an order found twice is on the page once). */
async function newestOfTerms(
  kv: Deno.Kv,
  userId: string,
  terms: Found[],
  paging: Paging,
): Promise<Hit[]> {
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
  const seen = new Set<string>();
  return lists.flat()
    .filter((h) => !seen.has(h.id) && seen.add(h.id))
    .sort((a, b) => newer(a, b) ? -1 : newer(b, a) ? 1 : 0)
    .slice(paging.offset, want);
}

/** The postings of a term (within the filters' times: they are in its keys), or of a prefix. */
const selectorOf = (
  userId: string,
  term: string,
  prefix: boolean,
  { fromMs, toMs }: Pick<SearchFilter, "fromMs" | "toMs"> = {},
): Deno.KvListSelector =>
  prefix
    ? { start: keys.searchTerm(userId, term), end: keys.searchTerm(userId, term + LAST) }
    : indexSelector(keys.searchTerm(userId, term), fromMs, toMs);

/**
 * The postings of every term that starts with `term`, read whole when there are fewer than
 * {@link READ_DIRECTLY} (one read instead of the terms' counts and then their postings: a
 * prefix of many rare terms, like the start of an order number); null when there are more.
 */
export async function postingsOf(kv: Deno.Kv, userId: string, term: string) {
  const range: Range = { term, prefix: true, found: [], count: 0 };
  const limit = READ_DIRECTLY;
  const read = await Array.fromAsync(
    kv.list<SearchPosting>(selectorOf(userId, term, true), { limit, batchSize: limit }),
  );
  if (read.length >= limit) return null;
  return { ...range, count: read.length, read };
}
