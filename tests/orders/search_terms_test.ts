import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { newOrder, type Order } from "../../src/domain/orders/order.ts";
import {
  MAX_QUERY_WORDS,
  MAX_TERM_LENGTH,
  MAX_TERMS,
  orderTerms,
  OVERFLOW_TERM,
  pairTerm,
  queryTerms,
  wordsOf,
} from "../../src/domain/orders/search_terms.ts";

const T0 = Date.parse("2025-03-01T10:00:00.000Z");
const order = (fields: Partial<Order> & { itemSummary: string }): Order =>
  newOrder("ord_1", fields, {}, "email", T0);

Deno.test("words: lowercase, split on whitespace, a leading # dropped", () => {
  eq(wordsOf("  Desk\tLAMP  #12 ##ab a#b \n x"), ["desk", "lamp", "12", "ab", "a#b", "x"]);
  eq(wordsOf("   "), []);
  // Control characters split words too: no word starts with the pair or overflow mark.
  eq(wordsOf("a\u0001b \u0002c"), ["a", "b", "c"]);
});

Deno.test("an order's terms: its words, then pairs within a field, then number tails", () => {
  const terms = orderTerms(order({
    itemSummary: "Desk Lamp",
    orderNumber: "#112-4567",
    store: "Big Shop",
    trackingNumber: "1Z999",
    size: "XL",
  }));
  eq(terms, [
    "112-4567",
    "desk",
    "lamp",
    "big",
    "shop",
    "1z999",
    "xl",
    pairTerm("desk", "lamp"),
    pairTerm("big", "shop"),
    "4567",
    "999",
  ]);
  // No pair across fields: "lamp big" is not a term.
  equal(terms.includes(pairTerm("lamp", "big")), false);
});

Deno.test("terms are distinct, at most 48 characters and 32 per order (words first), then a mark", () => {
  const long = "x".repeat(60);
  const terms = orderTerms(order({ itemSummary: `${long} a a b` }));
  eq(terms.slice(0, 3), ["x".repeat(MAX_TERM_LENGTH), "a", "b"]);
  equal(terms.every((t) => t.length <= MAX_TERM_LENGTH), true);
  equal(new Set(terms).size, terms.length);
  // A cut through an emoji leaves no lone surrogate (KV would store another key).
  const emoji = orderTerms(order({ itemSummary: "x".repeat(47) + "😀" }));
  equal(emoji[0], "x".repeat(47) + "\ufffd");
  const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(" ");
  const capped = orderTerms(order({ itemSummary: many }));
  equal(capped.length, MAX_TERMS + 1);
  eq(capped.slice(0, 2), ["w0", "w1"]);
  // Words fill the cap before any pair; the order is marked as having more.
  equal(capped.some((t) => t.includes(" ")), false);
  equal(capped.at(-1), OVERFLOW_TERM);
  equal(orderTerms(order({ itemSummary: "a b" })).includes(OVERFLOW_TERM), false);
});

Deno.test("a query's terms: each word, each pair, the last word and pair as prefixes", () => {
  eq(queryTerms("desk"), {
    terms: [{ term: "desk", prefix: true }],
    words: 1,
    simple: true,
  });
  eq(queryTerms("red desk la"), {
    terms: [
      { term: "red", prefix: false },
      { term: "desk", prefix: false },
      { term: "la", prefix: true },
      { term: pairTerm("red", "desk"), prefix: false },
      { term: pairTerm("desk", "la"), prefix: true },
    ],
    words: 3,
    simple: true,
  });
  eq(queryTerms(""), { terms: [], words: 0, simple: true });
  // The # rule, double spaces and cut words are checked on the text.
  equal(queryTerms("#112").simple, false);
  equal(queryTerms("desk  lamp").simple, false);
  equal(queryTerms("y".repeat(60)).simple, false);
  // A query of many words looks up its first eight only.
  const many = queryTerms(Array.from({ length: 50 }, (_, i) => `w${i}`).join(" "));
  equal(many.words, MAX_QUERY_WORDS);
  equal(many.terms.length, 2 * MAX_QUERY_WORDS - 1);
  equal(many.simple, false);
});
