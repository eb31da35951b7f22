import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { newOrder, type Order } from "../../src/domain/orders/order.ts";
import {
  MAX_SUFFIXES,
  MAX_TERM_LENGTH,
  MAX_TERMS,
  OVERFLOW_TERM,
  pairCut,
  pairTerm,
  queryShape,
  queryVariants,
  searchText,
  suffixesOf,
  termsOfText,
} from "../../src/domain/orders/search_terms.ts";

const T0 = Date.parse("2025-03-01T10:00:00.000Z");
const order = (fields: Partial<Order> & { itemSummary: string }): Order =>
  newOrder("ord_1", fields, {}, "email", T0);
const termsOf = (fields: Partial<Order> & { itemSummary: string }) =>
  termsOfText(searchText(order(fields)));

Deno.test("words: split on whitespace and control characters, # kept", () => {
  const wordsOf = (text: string) => termsOfText(text).words;
  eq(wordsOf("  desk\tlamp  #12 ##ab a#b \n x"), ["desk", "lamp", "#12", "##ab", "a#b", "x"]);
  eq(wordsOf("   "), []);
  // No word starts with the pair or overflow mark.
  eq(wordsOf("a\u0001b \u0002c"), ["a", "b", "c"]);
});

Deno.test("an order's terms: its words, then the pairs one space joins on one line", () => {
  const { terms, words } = termsOf({
    itemSummary: "Desk Lamp  white",
    orderNumber: "#112-4567",
    store: "Big Shop",
    trackingNumber: "1Z999",
    size: "XL",
  });
  eq(words, ["112-4567", "desk", "lamp", "white", "big", "shop", "1z999", "xl"]);
  eq(terms, [...words, pairTerm("desk", "lamp"), pairTerm("big", "shop")]);
  // No pair across two spaces ("lamp  white") or across fields ("white big").
  equal(terms.includes(pairTerm("lamp", "white")), false);
  equal(terms.includes(pairTerm("white", "big")), false);
});

Deno.test("an order the index cannot hold whole has the overflow term alone", () => {
  const overflow = { terms: [OVERFLOW_TERM], words: [] };
  // A word over 48 characters.
  eq(termsOf({ itemSummary: `${"x".repeat(MAX_TERM_LENGTH + 1)} a` }), overflow);
  equal(termsOf({ itemSummary: "x".repeat(MAX_TERM_LENGTH) }).terms.length, 1);
  // A word that is not well-formed (KV would store another key).
  eq(termsOfText("a\ud800b"), overflow);
  // More than 32 terms (17 words and their 16 pairs).
  const many = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
  equal(termsOf({ itemSummary: many(16) }).terms.length, MAX_TERMS - 1);
  eq(termsOf({ itemSummary: many(17) }), overflow);
  // More than 384 suffixes: nine words of 48 characters have 423.
  const long = (n: number) =>
    Array.from({ length: n }, (_, i) => `${i}`.padEnd(MAX_TERM_LENGTH, "y")).join("\n");
  equal(termsOfText(long(8)).words.length, 8);
  equal(8 * (MAX_TERM_LENGTH - 1) <= MAX_SUFFIXES, true);
  eq(termsOfText(long(9)), overflow);
});

Deno.test("a word's proper suffixes, and pairs cut at 48 characters", () => {
  eq(suffixesOf("kettle"), ["ettle", "ttle", "tle", "le", "e"]);
  eq(suffixesOf("a"), []);
  const a = "a".repeat(30);
  equal(pairTerm(a, a).length, MAX_TERM_LENGTH);
  equal(pairCut(a, a), true);
  equal(pairCut("desk", "lamp"), false);
  // A cut through an emoji leaves no lone surrogate.
  equal(pairTerm("x".repeat(45), "😀").endsWith("\ufffd"), true);
});

Deno.test("a query's shape: words, the separators between them, and the # variants", () => {
  eq(queryShape("sk lamp"), { words: ["sk", "lamp"], gaps: [" "], bare: true });
  eq(queryShape("a  b\tc"), { words: ["a", "b", "c"], gaps: ["  ", "\t"], bare: true });
  eq(queryShape("\u0001ab"), { words: ["ab"], gaps: [], bare: false });
  eq(queryShape(""), { words: [], gaps: [], bare: false });
  eq(queryVariants("kettle"), ["kettle"]);
  eq(queryVariants("#ab-12"), ["#ab-12", "ab-12"]);
  eq(queryVariants("# ab 12"), ["# ab 12", "ab 12"]);
  eq(queryVariants("#"), ["#"]);
});
