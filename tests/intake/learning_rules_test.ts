import { deepStrictEqual as eq, equal } from "node:assert/strict";
import {
  findReadSpans,
  findSpans,
  learnExpression,
  type TextLine,
  valuePattern,
} from "../../src/domain/intake/learning.ts";

const lines = (...texts: string[]): TextLine[] => texts.map((text) => ({ text, quoted: false }));
const any = () => true;

Deno.test("learning: captures have the value's shape, never the value", () => {
  equal(valuePattern("orderNumber", "SO/2026/4471"), "[A-Za-z]+/[0-9]+/[0-9]+");
  equal(valuePattern("trackingNumber", "1Z 999"), "[0-9]+[A-Za-z]+[ \\t]*[0-9]+");
  equal(valuePattern("total", "EUR 1.089,00"), "EUR[ \\t]*[0-9][0-9.,']*");
  equal(valuePattern("price", "12,50 €"), "[0-9][0-9.,']*[ \\t]*€");
  equal(valuePattern("quantity", "3"), "[0-9]+");
  equal(valuePattern("itemSummary", "Blue mug"), ".+?");
});

Deno.test("learning: the label on the line, else the line above, else the column header", () => {
  const text = lines("Subject", "Variant: Large (EU)", "Seller", "Kettle Outlet");
  eq(learnExpression(text, "size", "Large", findSpans(text, "large"), [], any), {
    expression: "^[ \\t]*Variant:[ \\t]*(.+?)[ \\t]*\\(",
    anchor: "Variant:",
    how: "label",
  });
  eq(learnExpression(text, "store", "Kettle Outlet", findSpans(text, "Kettle Outlet"), [], any), {
    expression: "^[ \\t]*Seller[ \\t]*\\n(?:[ \\t]*\\n)*[ \\t]*(.+?)[ \\t]*$",
    anchor: "Seller",
    how: "line above",
  });
  const table: TextLine[] = [
    { text: "Item", cell: { table: 0, row: 0, col: 0 }, quoted: false },
    { text: "Qty", cell: { table: 0, row: 0, col: 1 }, quoted: false },
    { text: "Blue mug", cell: { table: 0, row: 1, col: 0 }, quoted: false },
    { text: "3", cell: { table: 0, row: 1, col: 1 }, quoted: false },
  ];
  // The item name beside the quantity is the order's own value: never an anchor.
  eq(learnExpression(table, "quantity", "3", findSpans(table, "3"), ["Blue mug"], any), {
    expression: "^[ \\t]*Qty[ \\t]*\\n(?:.*\\n){1}[ \\t]*([0-9]+)[ \\t]*$",
    anchor: "Qty",
    how: "column",
  });
});

Deno.test("learning: no anchor from digits, quoted history, or what verification refuses", () => {
  const text = lines("Order 12 of 3 May: Large", "Size: Large");
  const spans = findSpans(text, "Large");
  eq(spans.map((s) => s.line), [0, 1]);
  equal(learnExpression(text, "size", "Large", spans, [], any)?.anchor, "Size:");
  equal(learnExpression(text, "size", "Large", spans, [], () => false), null);
  const quoted: TextLine[] = [
    { text: "Thanks", quoted: false },
    { text: "Size: Medium", quoted: true },
  ];
  eq(findSpans(quoted, "Medium"), []);
  equal(learnExpression(quoted, "size", "Medium", [{ line: 1, start: 6, end: 12 }], [], any), null);
  // Whole tokens only: 12 is not found inside 5120.
  eq(findSpans(lines("Ref 5120", "Qty 12"), "12"), [{ line: 1, start: 4, end: 6 }]);
});

Deno.test("learning: a date's label stops before a word that is a date on its own", () => {
  const text = lines("Arriving: Friday, 13 March", "Thursday, 12 March");
  const reads = (t: string) => /13 March|12 March/.test(t);
  const isDay = (w: string) => /^(?:friday|thursday)$/i.test(w);
  const spans = findReadSpans(text, reads, isDay);
  eq(spans.map((s) => [s.line, text[s.line].text.slice(0, s.start)]), [
    [0, "Arriving: "],
    [0, ""],
    [1, ""],
  ]);
});
