/**
 * The search terms of an order (what the `q` index stores) and of a query (what it looks up).
 * Pure: the store turns terms into keys.
 *
 * An order's terms come from the fields `searchText` holds (normalised order number, item
 * summary, store, tracking number, size): lowercase words (split on whitespace, a
 * leading `#` dropped), each pair of adjacent words of one field, and the tails of words with
 * digits that start at a digit after another character (`112-4567` also gives `4567`), so a
 * number is found by any of its parts. A query matches an order when its words are the start
 * of the order's words: every word but the last whole, the last as a prefix.
 */
import { type Order, searchText } from "./order.ts";

/** Characters of a term at most (longer words are cut). */
export const MAX_TERM_LENGTH = 48;
/** Terms of an order at most: its words first, then its pairs, then number tails. */
export const MAX_TERMS = 32;
/** Query words looked up at most; the rest are checked against the matched text. */
export const MAX_QUERY_WORDS = 8;

/** What a pair term starts with: no word does, so a word prefix never reaches a pair. */
const PAIR = "\u0001";
/**
 * The term of every order that has more than {@link MAX_TERMS}: such an order may lack a term
 * of a query it matches, so a search also checks these orders' text.
 */
export const OVERFLOW_TERM = "\u0002";

/** The lowercase words of a field: split on whitespace and control characters (so no word starts with a pair or overflow mark), `#` dropped. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[\s\p{Cc}]+/u)
    .map((w) => w.replace(/^#+/, ""))
    .filter((w) => w !== "");
}

/** A term at most 48 UTF-16 units; a surrogate left alone by the cut (or sent alone) becomes
 *  U+FFFD, as KV stores it, so a term's key reads back as written. */
const cut = (term: string) => term.slice(0, MAX_TERM_LENGTH).toWellFormed();

/** The term of two adjacent words. */
export const pairTerm = (a: string, b: string) => cut(`${PAIR}${a} ${b}`);

/** Tails of a word with digits, each starting at a digit that follows a non-digit. */
function numberTails(word: string): string[] {
  const out: string[] = [];
  for (let i = 1; i < word.length; i++) {
    if (/\d/.test(word[i]) && !/\d/.test(word[i - 1])) out.push(word.slice(i));
  }
  return out;
}

/**
 * The order's terms: distinct, at most {@link MAX_TERMS}, each at most 48 characters, and
 * {@link OVERFLOW_TERM} when some were left out.
 */
export function orderTerms(order: Order): string[] {
  // One line of the search text per field: pairs never span two fields.
  const fields = searchText(order).split("\n").map(wordsOf);
  const words = fields.flat();
  const pairs = fields.flatMap((ws) => ws.slice(1).map((w, i) => pairTerm(ws[i], w)));
  const tails = words.flatMap(numberTails);
  const all = [...new Set([...words.map(cut), ...pairs, ...tails.map(cut)])];
  return all.length > MAX_TERMS ? [...all.slice(0, MAX_TERMS), OVERFLOW_TERM] : all;
}

/** A term the index is asked for: exact, or every term that starts with it. */
export interface QueryTerm {
  term: string;
  prefix: boolean;
}

export interface QueryTerms {
  /** Candidates for driving the search: each matching order has one of each. */
  terms: QueryTerm[];
  /** Words of the query (up to {@link MAX_QUERY_WORDS}). */
  words: number;
  /**
   * True when a term's postings are exactly the query's matches (one word, or two words driven
   * by their pair) with no reason to check the text: no word cut, no `#`, single spaces.
   */
  simple: boolean;
}

/**
 * The query's terms by the order rule: each word, each adjacent pair; the last word (and so the
 * last pair) a prefix. A query without words has no terms.
 */
export function queryTerms(query: string): QueryTerms {
  const all = wordsOf(query);
  const words = all.slice(0, MAX_QUERY_WORDS);
  const last = words.length - 1;
  const terms: QueryTerm[] = words.map((w, i) => ({ term: cut(w), prefix: i === last }));
  for (let i = 1; i < words.length; i++) {
    terms.push({ term: pairTerm(words[i - 1], words[i]), prefix: i === last });
  }
  const simple = all.length === words.length && !query.includes("#") &&
    words.every((w) => w.length < MAX_TERM_LENGTH) &&
    (words.length < 2 || pairTerm(words[0], words[1]).length < MAX_TERM_LENGTH) &&
    !/[\s\p{Cc}]{2}/u.test(query.trim());
  return { terms, words: words.length, simple };
}
