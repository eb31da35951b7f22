/**
 * Chat rule from the nineteenth set: a header whose first part is the checkout word alone
 * (`Checkout | Shopname`) names the shop in the one part after it.
 */
import { equal } from "node:assert/strict";
import { readChatPost } from "../../../src/intake/chat/read.ts";

const post = (content: string, username = "Plover") => readChatPost({ username, content }).reading;

Deno.test("`Checkout | Shopname`: the part after the checkout word is the shop", () => {
  // A post that names only a SKU still gets its shop from the header (and a blank item).
  for (
    const [content, store, item] of [
      [
        "🟢 **Checkout** | Kettle & Crate\nItem: Enamel Camp Kettle 1.2 L\nQty: 1\nPrice: $48.00\nOrder #: KC-55210\n-# plover v3.1",
        "Kettle & Crate",
        "Enamel Camp Kettle 1.2 L",
      ],
      [
        "🟢 **Checkout** | Halde Schuhwerk\nSKU: HS-4471-02\nSize: 42\nPrice: €95,00\nOrder #: HS-88120\n-# plover v3.1",
        "Halde Schuhwerk",
        "",
      ],
    ]
  ) {
    const read = post(content);
    equal(read.kind, "order", store);
    if (read.kind !== "order") return;
    equal(read.fields.store, store);
    equal(read.fields.itemSummary, item);
  }
});

Deno.test("the part after the checkout word is no shop when it is the bot or a state", () => {
  const body = "\nItem: Enamel Camp Kettle 1.2 L\nPrice: $48.00\nOrder #: KC-55210";
  for (const head of ["Checkout | Plover", "Checkout | Pending", "Plover | Checkout"]) {
    const read = post(`**${head}**${body}`);
    equal(read.kind === "order" && read.fields.store, undefined, head);
  }
});
