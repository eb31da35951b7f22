import { deepStrictEqual as eq, equal } from "node:assert/strict";
import {
  formatCents,
  orderCard,
  periodLabel,
  publicText,
} from "../../src/domain/insights/share.ts";
import { cardSvg, wrap } from "../../src/domain/insights/share_svg.ts";
import { newOrder } from "../../src/domain/orders/order.ts";

Deno.test("money is formatted without a currency", () => {
  equal(formatCents(0), "0.00");
  equal(formatCents(5), "0.05");
  equal(formatCents(123456789), "1,234,567.89");
  equal(formatCents(-1050), "-10.50");
});

Deno.test("public text drops the order's numbers and emails, and is cut", () => {
  const order = { orderNumber: "#112-555", trackingNumber: "1Z99" };
  equal(publicText("Lamp #112-555 (1z99) for a@b.co", order, 100), "Lamp () for");
  equal(publicText("x".repeat(200), {}, 10), `${"x".repeat(9)}…`);
  const card = orderCard(
    {
      ...newOrder(
        "ord_1",
        { itemSummary: "Mug", imageUrl: "http://x.example/i.png" },
        {},
        "manual",
        0,
      ),
    },
    true,
  );
  // No money on the order: no money line; an http image is not shown.
  eq(card, { title: "Mug", lines: ["Status: Ordered"] });
  equal(periodLabel("month", "2024-02-29"), "February 2024");
  equal(periodLabel("quarter", "2024-11-02"), "Q4 2024");
  equal(periodLabel("year", "2024-11-02"), "2024");
  equal(periodLabel("all", "2024-11-02"), "All time");
});

Deno.test("card text wraps by words, cuts long words, ends with an ellipsis, drops emoji", () => {
  eq(wrap("aaa bbb ccc", 7, 3), ["aaa bbb", "ccc"]);
  eq(wrap("abcdefghij", 4, 3), ["abcd", "efgh", "ij"]);
  eq(wrap("one two three four", 8, 2), ["one two", "three…"]);
  eq(wrap("🔥 hot 👟 shoes", 20, 1), ["hot shoes"]);
  const svg = cardSvg({ title: `<script>&"'`, lines: ["a"] }, "order", "x.example/s/1");
  equal(svg.includes("<script>"), false);
  equal(svg.includes("&#60;script&#62;&#38;&#34;&#39;"), true);
});
