import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { readCells } from "../../../src/intake/chat/cells.ts";
import { readChatPost } from "../../../src/intake/chat/read.ts";
import { judgeLine } from "../../../src/intake/chat/header.ts";

const fieldsOf = (description: string) => {
  const read = readChatPost({ embeds: [{ title: "Checked Out", description }] });
  ok(read.reading.kind === "order", JSON.stringify(read.reading));
  return read.reading.fields;
};

Deno.test("a line of cells: the shop and the product told apart by what a shop's name cannot hold", () => {
  eq(fieldsOf("Grain Street | Asics Gel-Kayano 14 | Size 10.5 | $150.00 | Order: GS77184"), {
    itemSummary: "Asics Gel-Kayano 14",
    store: "Grain Street",
    size: "10.5",
    price: "$150.00",
    orderNumber: "GS77184",
  });
  // The product first, the shop after it; a bullet as the separator.
  eq(fieldsOf("Air Max 90 'Infrared' • Sneaker Barn • Size 10 • 140,00 €"), {
    itemSummary: "Air Max 90 'Infrared'",
    store: "Sneaker Barn",
    size: "10",
    price: "140,00 €",
  });
  // One plain cell is the product.
  eq(fieldsOf("Dunk Low Retro | Qty 2 | Total $230.00 | Order #A-99120"), {
    itemSummary: "Dunk Low Retro",
    quantity: 2,
    total: "$230.00",
    orderNumber: "A-99120",
  });
});

Deno.test("cells that could each be the shop or the product give neither", () => {
  const read = readCells("Corner Shop | Field Jacket | Size M | $120.00 | Order: CS-40021");
  eq(read?.product, undefined);
  ok(read && !read.pairs.some(([m]) => m.kind === "store"));
  const fields = fieldsOf("Corner Shop | Field Jacket | Size M | $120.00 | Order: CS-40021");
  equal(fields.store, undefined);
  equal(fields.itemSummary, "");
  equal(fields.orderNumber, "CS-40021");
});

Deno.test("lines that are no summary of cells are left to the other readings", () => {
  // Two separators, a label we do not know, too few read cells, too many plain cells.
  equal(readCells("Store: Kith • Gender: Men • Product: 1906R | Size: 9.5"), null);
  equal(readCells("Kith | Drop Code: SS-4 | Size 9.5 | $10.00"), null);
  equal(readCells("Kith | New Balance 1906R | $160.00"), null);
  equal(readCells("Kith | New Balance | 1906R | Size 9 | $160.00"), null);
  // A word that is a label is a cell of its own only with a value of its field's shape.
  equal(readCells("Total Eclipse Tee | Black | Size L | $30.00")?.product, undefined);
});

Deno.test("success words in their inflected forms", () => {
  for (const line of ["Erfolgreicher Checkout", "Erfolgreiche Bestellung", "Succesvolle aankoop"]) {
    equal(judgeLine(line).kind, "success", line);
  }
  equal(judgeLine("Nicht erfolgreicher Checkout").kind, "not_checkout");
});
