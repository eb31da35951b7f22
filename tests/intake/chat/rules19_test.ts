/**
 * Chat rule from the nineteenth set: a header whose first part is the checkout word alone
 * (`Checkout | Shopname`) names the shop in the one part after it.
 */
import { equal } from "node:assert/strict";
import { readChatPost } from "../../../src/intake/chat/read.ts";

const post = (content: string, username = "Plover") => readChatPost({ username, content }).reading;

Deno.test("`Checkout | Shopname`: the part after the checkout word is the shop", () => {
  const read = post(
    "🟢 **Checkout** | Kettle & Crate\nItem: Enamel Camp Kettle 1.2 L\nQty: 1\nPrice: $48.00\nOrder #: KC-55210\n-# plover v3.1",
  );
  equal(read.kind, "order");
  if (read.kind !== "order") return;
  equal(read.fields.store, "Kettle & Crate");
  equal(read.fields.itemSummary, "Enamel Camp Kettle 1.2 L");
  // A post that names only a SKU still gets its shop from the header.
  const sku = post(
    "🟢 **Checkout** | Halde Schuhwerk\nSKU: HS-4471-02\nSize: 42\nPrice: €95,00\nOrder #: HS-88120\n-# plover v3.1",
  );
  equal(sku.kind, "order");
  if (sku.kind !== "order") return;
  equal(sku.fields.store, "Halde Schuhwerk");
  equal(sku.fields.itemSummary, "");
});

Deno.test("the part after the checkout word is no shop when it is the bot or a state", () => {
  const body = "\nItem: Enamel Camp Kettle 1.2 L\nPrice: $48.00\nOrder #: KC-55210";
  for (const head of ["Checkout | Plover", "Checkout | Pending", "Plover | Checkout"]) {
    const read = post(`**${head}**${body}`);
    equal(read.kind === "order" && read.fields.store, undefined, head);
  }
});
