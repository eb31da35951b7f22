/**
 * `q` over the search index the order footprint maintains (footprint.ts): a posting per (term,
 * order) `(term, receivedAt ms, id) -> [status, search text]`, a count per term, and the
 * vocabulary (each word's proper suffixes). `q` is a substring of the order's search text
 * (domain `matchesQuery`); the index gives candidates that hold every match, chosen as the
 * rarest of several covers (domain/orders/search_terms.ts `queryShape`):
 *
 * - one word `w`: the words that contain it (those that start with it, one range of counts, and
 *   those the vocabulary has under it) and their postings;
 * - several words: a middle word (whole), the last word (a prefix), a pair of middle words,
 *   the last pair (a prefix), or for two words the pairs of each word that ends with the first
 *   (itself and the vocabulary's words under it exactly) with the second as a prefix.
 *
 * When the cover is the matches themselves (one word, or two joined by one space and covered
 * by their pairs) and there is no other filter, `total` is its count (several terms: the largest
 * count and the others' orders that hold no term counted before) and the page the newest
 * postings; otherwise its postings are streamed, filtered and checked against the text, each
 * order counted once (search_read.ts, search_tally.ts). A cover whose ranges hold too many terms
 * is broad: when every cover is (or the cover's postings outnumber the orders of the filters'
 * range), or the query is a letter or two, the answer comes from the process's search memory of
 * the workspace (search_changes.ts). Orders with the overflow term are read and checked on every
 * search. Every answer is exact; work is the rarest cover's postings, or the memory's sets when
 * they are fewer.
 */
import {
  MAX_QUERY_WORDS,
  MAX_TERM_LENGTH,
  OVERFLOW_TERM,
  pairCut,
  pairTerm,
  queryShape,
  queryVariants,
} from "../../domain/orders/search_terms.ts";
import { keys } from "../keys.ts";
import { counterValue, getManyChunked, type Paging } from "../kv.ts";
import {
  type Cover,
  type Found,
  pageOf,
  postingsOf,
  type Range,
  type Result,
  type SearchFilter,
} from "./search_read.ts";
import { broadSearch } from "./search_changes.ts";

export type { SearchFilter, SearchPosting } from "./search_read.ts";

/** Count keys a prefix's range may hold before it is too broad to drive. */
export const MAX_PREFIX_TERMS = 500;
/** Words a vocabulary range may give before it is too broad to drive. */
export const MAX_VOCABULARY_WORDS = 100;
/** UTF-16 units a query may hold at most (without its `#`) to go to the search memory at once. */
const MEMORY_QUERY_UNITS = 2;
/** Terms of a one-word query's prefix whose counts are read before their postings. */
const FEW_TERMS = 16;
/** The highest code point: every string that starts with a prefix sorts before prefix + it. */
const LAST = "\u{10ffff}";

type Ctx = { kv: Deno.Kv; userId: string };

/**
 * The page's order ids (newest `receivedAt` first, ties by id) with the orders their postings
 * held, and the number of matches.
 */
export async function searchOrders(
  kv: Deno.Kv,
  userId: string,
  filter: SearchFilter,
  paging: Paging,
): Promise<Result> {
  const ctx = { kv, userId };
  const variants = queryVariants(filter.q);
  // A letter or two (what every match holds, `#` aside) is inside too many words of a large
  // account for a cover to be rare, and the memory answers it without reading any.
  if (variants[variants.length - 1].length <= MEMORY_QUERY_UNITS) {
    return await broadSearch(kv, userId, filter, paging);
  }
  const [overflow, ...covers] = await Promise.all([
    exact(ctx, [OVERFLOW_TERM]),
    ...variants.map((q) => bestCover(ctx, q)),
  ]);
  if (covers.some((c) => c === null)) return await broadSearch(kv, userId, filter, paging);
  const chosen = covers as Cover[];
  const cover: Cover = chosen.length === 1 ? chosen[0] : {
    ranges: chosen.flatMap((c) => c.ranges),
    count: chosen.reduce((sum, c) => sum + c.count, 0),
    exact: false,
  };
  return await pageOf(kv, userId, filter, paging, cover, overflow.count ? overflow : null);
}

/** The rarest cover of one query; null when every cover is broad (or it has no words). */
async function bestCover(ctx: Ctx, query: string): Promise<Cover | null> {
  const { words: all, gaps, bare } = queryShape(query);
  const words = all.slice(0, MAX_QUERY_WORDS);
  const k = words.length;
  if (k === 0) return null;
  // A word no indexed word can hold (too long, or not well formed) lies inside a word that only
  // an overflow order has, and those are checked on every search: nothing else can match.
  if (words.some((w) => w.length > MAX_TERM_LENGTH || !w.isWellFormed())) {
    return { ranges: [], count: 0, exact: false };
  }
  if (k === 1) {
    const cover = await containing(ctx, words[0]);
    return cover && { ...cover, exact: bare };
  }
  const last = k - 1;
  const spaced = (i: number) => gaps[i] === " ";
  const pair = (a: string, b: string, prefix: boolean) =>
    prefix || pairCut(a, b)
      ? prefixed(ctx, pairTerm(a, b), pairCut(a, b))
      : exact(ctx, [pairTerm(a, b)]);
  const candidates: Promise<Cover | null>[] = [
    k === 2 ? endingWith(ctx, words[0], spaced(0) ? words[1] : null) : Promise.resolve(null),
    prefixed(ctx, words[last]),
  ];
  for (let i = 1; i < last; i++) {
    candidates.push(exact(ctx, [words[i]]));
    if (i + 1 < last && spaced(i)) candidates.push(pair(words[i], words[i + 1], false));
  }
  if (last >= 2 && spaced(last - 1)) candidates.push(pair(words[last - 1], words[last], true));
  const covers = await Promise.all(candidates);
  const found = covers.filter((c): c is Cover => c !== null);
  if (!found.length) return null;
  const best = found.reduce((a, b) => b.count < a.count ? b : a);
  // Two words joined by one space, covered by their uncut pairs: the pairs are the matches.
  const exactPairs = best === covers[0] && bare && spaced(0) && best.ranges.every((r) => !r.cut);
  return { ...best, exact: exactPairs };
}

/**
 * One word: every word that contains it (starts with it, or the vocabulary has it inside). When
 * more than a few words start with it, their postings are read at once if they are not many.
 */
async function containing(ctx: Ctx, word: string): Promise<Cover | null> {
  const [few, inside] = await Promise.all([
    prefixed(ctx, word, false, FEW_TERMS),
    vocabulary(ctx, keys.searchSuffixes(ctx.userId, word), true),
  ]);
  if (!inside) return null;
  const starting = few ?? await direct(ctx, word) ?? await prefixed(ctx, word);
  if (!starting) return null;
  const others = await exact(ctx, inside.filter((w) => !w.startsWith(word)));
  return merged([starting, others]);
}

/**
 * Two words: the words that end with the first (itself and the vocabulary's words it is a
 * suffix of), with the second as a prefix of the next word when one space joins them (their
 * pairs), else alone (those words).
 */
async function endingWith(ctx: Ctx, first: string, next: string | null): Promise<Cover | null> {
  const inside = await vocabulary(ctx, keys.searchSuffixes(ctx.userId, first), false);
  if (!inside) return null;
  const words = [first, ...inside];
  if (next === null) return await exact(ctx, words);
  return merged(
    await Promise.all(words.map((w) => prefixed(ctx, pairTerm(w, next), pairCut(w, next)))),
  );
}

function merged(covers: (Cover | null)[]): Cover | null {
  if (covers.some((c) => c === null)) return null;
  const ranges = (covers as Cover[]).flatMap((c) => c.ranges);
  return { ranges, count: ranges.reduce((sum, r) => sum + r.count, 0), exact: false };
}

/** Exact terms, their counts in one read (terms without orders left out). */
async function exact(ctx: Ctx, terms: string[]): Promise<Cover> {
  const got = await getManyChunked<Deno.KvU64>(
    ctx.kv,
    terms.map((t) => keys.searchCount(ctx.userId, t)),
  );
  const ranges: Range[] = [];
  terms.forEach((term, i) => {
    const count = counterValue(got[i].value);
    if (count > 0) ranges.push({ term, prefix: false, found: [{ term, count }], count });
  });
  return { ranges, count: ranges.reduce((sum, r) => sum + r.count, 0), exact: false };
}

/**
 * Every term that starts with `term` (null past {@link MAX_PREFIX_TERMS}); `cut`: a pair cut
 * at 48 characters, which may stand for longer ones (checked on the text).
 */
async function prefixed(
  ctx: Ctx,
  term: string,
  cut = false,
  most = MAX_PREFIX_TERMS,
): Promise<Cover | null> {
  const found: Found[] = [];
  const range = {
    start: keys.searchCount(ctx.userId, term),
    end: keys.searchCount(ctx.userId, term + LAST),
  };
  let read = 0;
  // One batch: a range of a hundred terms is not read in two trips.
  const options = { limit: most + 1, batchSize: most + 1 };
  for await (const e of ctx.kv.list<Deno.KvU64>(range, options)) {
    if (++read > most) return null;
    const count = counterValue(e.value);
    if (count > 0) found.push({ term: String(e.key.at(-1)), count });
  }
  const count = found.reduce((sum, f) => sum + f.count, 0);
  const ranges: Range[] = found.length ? [{ term, prefix: true, found, count, cut }] : [];
  return { ranges, count, exact: false };
}

/** The postings of every term that starts with `term`, read whole when they are not many. */
async function direct(ctx: Ctx, term: string): Promise<Cover | null> {
  const range = await postingsOf(ctx.kv, ctx.userId, term);
  return range && { ranges: [range], count: range.count, exact: false };
}

/**
 * Words of the vocabulary under `key` (`["search_sub", suffix]`): exactly that suffix, or
 * (`within`) every suffix that starts with it. Null past {@link MAX_VOCABULARY_WORDS}.
 */
async function vocabulary(ctx: Ctx, key: Deno.KvKey, within: boolean): Promise<string[] | null> {
  const suffix = String(key.at(-1));
  const selector = within
    ? { start: key, end: [...key.slice(0, -1), suffix + LAST] }
    : { prefix: key };
  const words = new Set<string>();
  let read = 0;
  const limit = 4 * MAX_VOCABULARY_WORDS;
  for await (const e of ctx.kv.list(selector, { limit, batchSize: limit })) {
    read++;
    words.add(String(e.key.at(-1)));
    if (words.size > MAX_VOCABULARY_WORDS) return null;
  }
  // Read to the bound on entries (one word has many suffixes under a short one): too broad.
  if (read >= 4 * MAX_VOCABULARY_WORDS) return null;
  return [...words];
}
