import assert from "node:assert/strict";
import { memoByText } from "../../src/intake/text.ts";

/** A memo of a pure function, and how many times the function ran. */
function counted(max?: number) {
  const calls: string[] = [];
  const memo = memoByText((text: string) => {
    calls.push(text);
    return text.length;
  }, max);
  return { memo, calls };
}

Deno.test("a memo answers a text it saw before without asking again, from call to call", () => {
  const { memo, calls } = counted();
  assert.equal(memo("Order number: 1001"), 18);
  assert.equal(memo("Order number: 1001"), 18);
  assert.equal(memo("Total"), 5);
  assert.deepEqual(calls, ["Order number: 1001", "Total"]);
});

Deno.test("a memo starts again past its number of texts", () => {
  const { memo, calls } = counted(3);
  for (const text of ["a", "b", "c"]) memo(text);
  memo("a");
  assert.equal(calls.length, 3);
  memo("d"); // the fourth text: the memo starts again, with `d` alone
  memo("a");
  assert.deepEqual(calls, ["a", "b", "c", "d", "a"]);
});

Deno.test("a memo keeps at most 256 Ki characters of texts, and no text over 4,096", () => {
  const { memo, calls } = counted();
  const texts = Array.from({ length: 64 }, (_, i) => String(i).padEnd(4096, "x"));
  for (const text of texts) memo(text);
  memo(texts[0]);
  assert.equal(calls.length, 64, "64 texts of 4,096 characters fit");
  memo("one more");
  memo(texts[0]);
  assert.equal(calls.length, 66, "past the bound it starts again");
  const long = "y".repeat(4097);
  memo(long);
  memo(long);
  assert.equal(calls.filter((t) => t === long).length, 2, "a longer text is never kept");
});
