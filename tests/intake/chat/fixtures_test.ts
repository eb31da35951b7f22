/**
 * Every post under tests/fixtures/chat against its expectation, compared strictly as the
 * fixtures' README says: every expected field equal, every other scored field absent; a post
 * expected to be no checkout is ignored. No private value of a post reaches the reading.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { loadFixtures, scoredFields } from "../../../scripts/chat_accuracy.ts";
import { readChatPost } from "../../../src/intake/chat/read.ts";

const DIR = new URL("../../fixtures/chat/", import.meta.url).pathname;
const fixtures = await loadFixtures(DIR);

/** The fixtures' invented private values: emails and proxy addresses in documentation ranges. */
const PRIVATE = /@example\.(?:com|org|net)|203\.0\.113\.|198\.51\.100\.|resi\.example\.net/;

Deno.test("the fixture folder holds the 103 posts its README lists (76 checkouts)", () => {
  equal(fixtures.length, 104);
  equal(fixtures.filter((f) => f.expect !== null).length, 77);
});

for (const { name, body, expect } of fixtures) {
  Deno.test(`chat fixture ${name}`, () => {
    const read = readChatPost(body);
    if (expect === null) {
      equal(read.reading.kind, "ignored");
      equal(read.feed, undefined);
    } else {
      ok(read.reading.kind === "order", `read as ${JSON.stringify(read.reading)}`);
      eq(scoredFields(read.reading.fields), expect);
      eq(read.reading.signals, {});
      const { itemSummary, store, price, total, imageUrl } = read.reading.fields;
      // A post with no item name (a SKU only) is not mirrored: the feed's title is the item.
      eq(
        read.feed,
        itemSummary === ""
          ? undefined
          : JSON.parse(JSON.stringify({ itemSummary, store, price: price ?? total, imageUrl })),
      );
    }
    const out = JSON.stringify(read);
    ok(!PRIVATE.test(out), `a private value reached the reading: ${out.match(PRIVATE)?.[0]}`);
  });
}
