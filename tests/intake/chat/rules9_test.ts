/**
 * Chat rules from the ninth set: a size in thirds written after its region in a cell without a
 * colon keeps the region (`Size EU 41 1/3` -> `EU 41 1/3`); a marketplace's transaction number
 * (`Transaction ID`, `取引ID`) labels the order number.
 */
import { equal } from "node:assert/strict";
import { readCells } from "../../../src/intake/chat/cells.ts";
import { labelMeaning } from "../../../src/intake/chat/vocabulary.ts";

const sizeOf = (line: string) => readCells(line)?.pairs.find(([m]) => m.kind === "size")?.[1];

Deno.test("a cell 'Size EU 41 1/3' is a size with its region; 'Size EU: 42' keeps the label's", () => {
  equal(
    sizeOf("Nordkant Sko | Gel-Kayano 14 'Birch' | Size EU 42 2/3 | SEK 1,899.00"),
    "EU 42 2/3",
  );
  equal(
    readCells("Nordkant Sko | Gel-Kayano 14 'Birch' | Size EU 42 2/3 | SEK 1,899.00")?.product,
    "Gel-Kayano 14 'Birch'",
  );
  equal(sizeOf("Nordkant Sko | Gel-Kayano 14 'Birch' | Size EU: 42 | SEK 1,899.00"), "42");
  // A fraction that is not a shoe's third is no size: the line is then not read as cells.
  equal(sizeOf("Shop | Name 'X' | Size 41 5/8 | $10.00 | Order #AB123"), undefined);
});

Deno.test("a transaction number labels the order number, in English and Japanese", () => {
  equal(labelMeaning("取引ID")?.kind, "orderNumber");
  equal(labelMeaning("Transaction ID")?.kind, "orderNumber");
});
