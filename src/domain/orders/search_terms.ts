/**
 * What `q` searches and how: an order's search text and the match rule (`searchText`,
 * `matchesQuery`), its search terms (what the `q` index stores), the shape of a query (what a
 * search looks up) and the grams of the search memory. Pure: the store turns terms into keys.
 *
 * `q` matches an order when the query is a substring of its search text (`matchesQuery`). The
 * index finds the candidates, the text decides:
 * - an order's terms are its words (the lowercase search text split on whitespace and control
 *   characters, `#` kept) and each pair of words that one space joins on one line;
 * - every word with orders has its proper suffixes in the workspace's vocabulary
 *   (`kettle` -> `ettle` ... `e`), so the words that contain a query word anywhere are the
 *   words that start with it plus those the vocabulary has under it;
 * - an order that cannot be indexed whole (a word over 48 characters or not well-formed, more
 *   than 32 terms or 384 suffixes) has the overflow term alone, and every search checks it.
 */
import { normaliseOrderNumber, type Order } from "./order.ts";
import { trackingKey } from "../tracking/number.ts";

/**
 * Lowercase text `q` searches: order number (normalised), item summary, store, tracking
 * number, and the size when there is one.
 */
export function searchText(order: Order): string {
  return [
    order.orderNumber ? normaliseOrderNumber(order.orderNumber) : "",
    order.itemSummary,
    order.store ?? "",
    trackingSearchText(order.trackingNumber),
    ...(order.size ? [order.size] : []),
  ].join("\n").toLowerCase();
}

/** A tracking number as written and, when it has separators, compact: either form finds it. */
function trackingSearchText(number: string | undefined): string {
  if (!number) return "";
  const compact = trackingKey(number);
  return compact && compact !== number.toUpperCase() ? `${number} ${compact}` : number;
}

/** Normalised form of a search query; empty means no search. */
export function normaliseQuery(q: string | undefined): string {
  return (q ?? "").trim().toLowerCase();
}

/**
 * Case-insensitive substring match on the search text. A query starting with `#` also matches
 * the order number without its `#`, as order numbers match everywhere else.
 */
export function matchesQuery(text: string, query: string): boolean {
  if (text.includes(query)) return true;
  if (!query.startsWith("#")) return false;
  const number = query.slice(1).trim();
  return number !== "" && text.slice(0, text.indexOf("\n")).includes(number);
}

/** Characters of a word at most: an order with a longer one is indexed by the overflow term. */
export const MAX_TERM_LENGTH = 48;
/** Terms of an order at most (words, then pairs); more and it is an overflow order. */
export const MAX_TERMS = 32;
/** Vocabulary entries (proper suffixes of its distinct words) an order may need at most. */
export const MAX_SUFFIXES = 384;
/** Query words whose terms are looked up at most; the text check covers the rest. */
export const MAX_QUERY_WORDS = 8;

/** What a pair term starts with: no word does, so a word prefix never reaches a pair. */
const PAIR = "\u0001";
/** The one term of an order the index cannot hold whole: every search reads and checks it. */
export const OVERFLOW_TERM = "\u0002";

/**
 * What separates words, captured (a split alternates words and separator runs): whitespace and
 * control characters, so no word starts with a mark.
 */
const SEPARATED = /([\s\p{Cc}]+)/u;

/** A pair term: at most 48 UTF-16 units, a surrogate left alone by the cut as KV stores it. */
export const pairTerm = (a: string, b: string) =>
  `${PAIR}${a} ${b}`.slice(0, MAX_TERM_LENGTH).toWellFormed();

/** True when the pair term may be cut (a search then reads it as a prefix). */
export const pairCut = (a: string, b: string) =>
  PAIR.length + a.length + 1 + b.length >= MAX_TERM_LENGTH;

/** The proper suffixes of a word, longest first: its vocabulary entries. */
export function suffixesOf(word: string): string[] {
  return Array.from({ length: word.length - 1 }, (_, i) => word.slice(i + 1));
}

export interface OrderTerms {
  /** Posting and count terms: words, then pairs; or the overflow term alone. */
  terms: string[];
  /** The words among them (each needs its vocabulary entries); none for an overflow order. */
  words: string[];
}

const OVERFLOW: OrderTerms = { terms: [OVERFLOW_TERM], words: [] };

/** The terms of an order's lowercase search text (`searchText`), lines being its fields. */
export function termsOfText(text: string): OrderTerms {
  const words = new Set<string>();
  const pairs = new Set<string>();
  for (const line of text.split("\n")) {
    // Alternating words and separator runs (an empty word at either end).
    const parts = line.split(SEPARATED);
    for (let i = 0; i < parts.length; i += 2) {
      const word = parts[i];
      if (word === "") continue;
      if (word.length > MAX_TERM_LENGTH || !word.isWellFormed()) return OVERFLOW;
      words.add(word);
      if (i >= 2 && parts[i - 1] === " " && parts[i - 2] !== "") {
        pairs.add(pairTerm(parts[i - 2], word));
      }
    }
  }
  const terms = [...words, ...pairs];
  let suffixes = 0;
  for (const w of words) suffixes += w.length - 1;
  if (terms.length > MAX_TERMS || suffixes > MAX_SUFFIXES) return OVERFLOW;
  return { terms, words: [...words] };
}

/**
 * A query cut into its words and the separator runs between them. A match places the words
 * side by side in the text: the first may end a longer word, the last may start one, the
 * others are whole words.
 */
export interface QueryShape {
  words: string[];
  /** `gaps[i]` lies between `words[i]` and `words[i + 1]`. */
  gaps: string[];
  /** The query is its words and gaps alone (no separator before the first or after the last). */
  bare: boolean;
}

export function queryShape(query: string): QueryShape {
  const parts = query.split(SEPARATED);
  const bare = parts[0] !== "" && parts.at(-1) !== "";
  const words: string[] = [];
  const gaps: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    if (parts[i] === "") continue;
    if (words.length) gaps.push(parts[i - 1]);
    words.push(parts[i]);
  }
  return { words, gaps, bare };
}

/**
 * The queries whose candidates cover a query's matches: itself, and for `#…` the number
 * without its `#` (`matchesQuery` finds it in the order number).
 */
export function queryVariants(query: string): string[] {
  if (!query.startsWith("#")) return [query];
  const number = query.slice(1).trim();
  return number === "" ? [query] : [query, number];
}

/**
 * The grams of lowercase text, for answers read from memory (store/orders/search_memory.ts):
 * each UTF-16 unit (as minus its code, less one) and each pair of adjacent units (first code
 * times 65,536 plus the second), each once. A text holds a query only if it holds every gram
 * of the query.
 */
export function gramsOf(text: string): Set<number> {
  const grams = new Set<number>();
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    grams.add(-unit - 1);
    if (i + 1 < text.length) grams.add(unit * 65_536 + text.charCodeAt(i + 1));
  }
  return grams;
}

/**
 * The grams every text that holds `query` holds: its one unit, or its pairs. For a query of
 * one or two units, the texts with them are exactly the texts that hold it.
 */
export function queryGrams(query: string): number[] {
  if (query.length === 1) return [...gramsOf(query)];
  return [...gramsOf(query)].filter((gram) => gram >= 0);
}
