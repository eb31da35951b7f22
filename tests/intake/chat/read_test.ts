import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { type ChatReading, readChatPost } from "../../../src/intake/chat/read.ts";

type Field = { name: unknown; value: unknown };
const f = (name: unknown, value: unknown): Field => ({ name, value });
const success = (fields: Field[], extra: Record<string, unknown> = {}) => ({
  username: "Bot",
  embeds: [{ title: "Successful Checkout!", fields, ...extra }],
});

function fieldsOf(read: ChatReading) {
  ok(read.reading.kind === "order", `not an order: ${JSON.stringify(read.reading)}`);
  return read.reading.fields;
}

function whyOf(read: ChatReading, kind: "ignored" | "unreadable"): string {
  equal(read.reading.kind, kind, JSON.stringify(read.reading));
  return read.reading.kind === kind ? read.reading.why : "";
}

Deno.test("bodies that are not objects are unreadable, never a throw", () => {
  for (const body of [null, undefined, 42, "Successful Checkout", [], [{ title: "x" }], true]) {
    const read = readChatPost(body);
    equal(whyOf(read, "unreadable"), "the body is not a JSON object");
    eq(read.facts, {});
    equal(read.embed, undefined);
  }
});

Deno.test("empty posts and parts of the wrong type are ignored", () => {
  equal(whyOf(readChatPost({}), "ignored"), "empty post");
  equal(whyOf(readChatPost({ content: " \n ", embeds: "x" }), "ignored"), "empty post");
  equal(whyOf(readChatPost({ embeds: [{}, null, 3, "x"] }), "ignored"), "empty post");
  const junk = readChatPost({ content: { a: 1 }, username: ["x"], embeds: { 0: { title: "x" } } });
  equal(whyOf(junk, "ignored"), "empty post");
});

Deno.test("deep junk and prototype keys are skipped without recursion or pollution", () => {
  let deep: unknown = "Successful Checkout";
  for (let i = 0; i < 100_000; i++) deep = { a: deep, b: [deep] };
  const body = JSON.parse(
    '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"embeds":[]}',
  );
  body.embeds = [{ title: deep, fields: [f(deep, deep), f("Product", deep)], author: deep }];
  body.content = deep;
  // Only the `Product` name survives: no header, so no order.
  equal(whyOf(readChatPost(body), "ignored"), "no checkout header");
  equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("numbers as values: a JSON-number price is its decimal string, a number quantity counts", () => {
  const read = readChatPost(success([f("Product", "Tee"), f("Price", 54), f("Qty", 2), f(7, "x")]));
  eq(fieldsOf(read), { itemSummary: "Tee", price: "54", quantity: 2 });
  eq(fieldsOf(readChatPost(success([f("Product", "Cap"), f("Price", 129.99), f("Qty", 1.5)]))), {
    itemSummary: "Cap",
    price: "129.99",
  });
  // A number is no product name.
  equal(
    whyOf(readChatPost(success([f("Product", 12345)])), "unreadable"),
    "checkout post without a product name",
  );
});

Deno.test("spoilers, links, code spans and emoji are unwrapped in names and values", () => {
  const read = readChatPost(success([
    f("🛒 **Product**", "[**Dunk Low 'Panda'**](https://shop.example/p/1)"),
    f("🏬 Site", "[Nike US](https://nike.example)"),
    f("📦 Order\u200b #", "|| `#C0193` ||"),
    f("💰 Price", "`$115.00`"),
    f("👟 Size", "||10.5|| :flag_us:"),
  ]));
  eq(fieldsOf(read), {
    itemSummary: "Dunk Low 'Panda'",
    store: "Nike US",
    orderNumber: "C0193",
    price: "$115.00",
    size: "10.5",
  });
});

Deno.test("the embed is picked by its header: a decline first, the checkout second", () => {
  const read = readChatPost({
    embeds: [
      { title: "Payment Declined", fields: [f("Product", "Wrong"), f("Price", "$1")] },
      { title: "Successful Checkout", fields: [f("Product", "Right"), f("Price", "$2")] },
    ],
  });
  eq(fieldsOf(read), { itemSummary: "Right", price: "$2" });
  equal(read.embed?.title, "Successful Checkout");
});

Deno.test("a decline alone, or a decline in content, is ignored even with the success fields", () => {
  const fields = [f("Product", "Tee"), f("Order Number", "1234"), f("Price", "$5")];
  const decline = readChatPost({
    embeds: [{ title: "Card Declined", fields: [...fields, f("Email", "a@example.com")] }],
  });
  equal(whyOf(decline, "ignored"), 'decline: header says "declined"');
  equal(decline.feed, undefined);
  // The deciding embed is kept for the samples log, without its private fields.
  eq(decline.embed, { title: "Card Declined", fields });
  const content = readChatPost({
    content: "Checkout failed",
    embeds: [{ title: "Successful Checkout", fields }],
  });
  equal(whyOf(content, "ignored"), 'decline: header says "failed"');
});

Deno.test("embeds with the same url are one card; header-less embeds continue the one before", () => {
  const read = readChatPost({
    embeds: [
      {
        title: "Successful Checkout",
        url: "https://shop.example/o/1",
        image: { url: "https://img.example/1.jpg" },
        fields: [f("Product", "Camera")],
      },
      { url: "https://shop.example/o/1", image: { url: "https://img.example/2.jpg" } },
      { fields: [f("Order #", "A-1001"), f("Total", "$80.00")] },
      { title: "Payment details", fields: [f("Size", "XL"), f("Email", "||a@example.com||")] },
      { title: "Successful Checkout", fields: [f("Product", "Tripod"), f("Price", "$9")] },
    ],
  });
  // A part titled on its own continues the checkout; another checkout's embed does not.
  eq(fieldsOf(read), {
    itemSummary: "Camera",
    orderNumber: "A-1001",
    total: "$80.00",
    size: "XL",
    imageUrl: "https://img.example/1.jpg",
  });
  // The product's embed before the one that says success is part of the checkout too; a task
  // summary before it is not.
  const before = readChatPost({
    embeds: [
      { title: "Task Group Summary", fields: [f("Store", "Old Shop"), f("Checkouts", "3")] },
      { author: { name: "Nike US" }, title: "Dunk Low", fields: [f("Size", "10")] },
      { title: "Checkout Successful", fields: [f("Price", "$110.00"), f("Order", "C-9")] },
    ],
  });
  eq(fieldsOf(before), {
    itemSummary: "Dunk Low",
    store: "Nike US",
    size: "10",
    price: "$110.00",
    orderNumber: "C-9",
  });
  // A branding embed after the checkout: its bare `Website` link is no store.
  const branded = readChatPost({
    embeds: [
      { title: "Successful Checkout", fields: [f("Product", "Camera"), f("Order", "A-2")] },
      { title: "Powered by Cook Group", fields: [f("Website", "https://cook.example.com")] },
    ],
  });
  eq(fieldsOf(branded), { itemSummary: "Camera", orderNumber: "A-2" });
  const declined = readChatPost({
    embeds: [
      { title: "Successful Checkout", fields: [f("Product", "Camera"), f("Order", "A-1")] },
      { title: "Payment declined", fields: [f("Price", "$80.00")] },
    ],
  });
  eq(fieldsOf(declined), { itemSummary: "Camera", orderNumber: "A-1" });
});

Deno.test("content-only posts, and Success: <product> content beside a bare embed", () => {
  const only = readChatPost({
    content: "**Successful Checkout** :white_check_mark:\n> **Product:** Tee\n> **Order:** ||77||",
  });
  eq(fieldsOf(only), { itemSummary: "Tee", orderNumber: "77" });
  equal(only.embed, undefined);
  const named = readChatPost({
    content: "Success: Boots",
    embeds: [{ title: "You cooked", fields: [f("Price", "$9")] }],
  });
  eq(fieldsOf(named), { itemSummary: "Boots", price: "$9" });
});

Deno.test("without a success word only a product with an order number is an order", () => {
  const fields = [f("Product", "Tee"), f("Price", "$5")];
  const login = readChatPost({
    embeds: [{ title: "New Login!", fields: [...fields, f("Order Number", "||V1234||")] }],
  });
  eq(fieldsOf(login), { itemSummary: "Tee", price: "$5", orderNumber: "V1234" });
  equal(
    whyOf(readChatPost({ embeds: [{ title: "New Login!", fields }] }), "ignored"),
    "no checkout header",
  );
  equal(whyOf(readChatPost({ content: "W" }), "ignored"), "no checkout header");
  // Plain content needs a heading of its own: label lines typed by a person are chatter.
  const typed = readChatPost({ content: "Order: 4471\nProduct: dunks\nanyone else?" });
  equal(whyOf(typed, "ignored"), "no checkout header");
  const headed = readChatPost({ content: "Quill checkout\nProduct: Dunk\nOrder: 4471" });
  eq(fieldsOf(headed), { itemSummary: "Dunk", orderNumber: "4471" });
});

Deno.test("an inbox tool's shipping notice with an order number carries the shipped signal", () => {
  const read = readChatPost({
    embeds: [{
      title: "Order Shipped — Nike",
      fields: [f("Item", "Dunk"), f("Order #", "C0199"), f("Tracking", "1Z999AA10123456784")],
    }],
  });
  ok(read.reading.kind === "order");
  eq(read.reading.signals, { shipped: true });
  eq(read.reading.fields, {
    itemSummary: "Dunk",
    orderNumber: "C0199",
    trackingNumber: "1Z999AA10123456784",
    carrier: "ups",
  });
  const noNumber = readChatPost({
    embeds: [{ title: "Order Shipped", fields: [f("Item", "Dunk")] }],
  });
  equal(whyOf(noNumber, "ignored"), "no checkout header");
});

Deno.test("a success header with only a SKU: an order with a blank item, or nothing", () => {
  const read = readChatPost(success([f("Pid", "IF8892"), f("Order Number", "A1")]));
  eq(fieldsOf(read), { itemSummary: "", orderNumber: "A1" });
  equal(read.feed, undefined);
  const noNumber = readChatPost(success([f("SKU", "IF8892"), f("Price", "$5")]));
  equal(whyOf(noNumber, "unreadable"), "checkout post without a product name");
  // Without a success word a SKU and an order number are not enough.
  const weak = readChatPost({
    embeds: [{ title: "Checkout", fields: [f("SKU", "X1"), f("Order", "A2")] }],
  });
  equal(whyOf(weak, "ignored"), "no checkout header");
});

Deno.test("several pairs on one line, whatever separates them; a product before them", () => {
  const bullets = readChatPost({
    embeds: [{
      title: "Checkout Success",
      description: "**Store:** Kith • **Product:** 1906R • **Size:** 9.5 • **Price:** $160.00 • " +
        "**Order Number:** ||K-22|| • **Profile:** ||Amex||",
    }],
  });
  eq(fieldsOf(bullets), {
    store: "Kith",
    itemSummary: "1906R",
    size: "9.5",
    price: "$160.00",
    orderNumber: "K-22",
  });
  // The private segment takes its whole line out of the kept embed.
  equal(bullets.embed?.description, "");
  const spaced = readChatPost({
    content: "Checked out!\nJordan 1 High 'Chicago' - Size: 10 - Price: $180.00 Order: 5512",
  });
  eq(fieldsOf(spaced), {
    itemSummary: "Jordan 1 High 'Chicago'",
    size: "10",
    price: "$180.00",
    orderNumber: "5512",
  });
  // After a separator, a label we do not know ends the value before it and gives nothing.
  const unknown = readChatPost(success([], {
    description: "Store: Kith • Gender: Men • Product: 1906R | Product Ref: M1906 | Size: 9.5",
  }));
  eq(fieldsOf(unknown), { store: "Kith", itemSummary: "1906R", size: "9.5" });
  // A colon inside a product name is not a label: only known labels split a line.
  const colon = readChatPost(success([], { description: "Product: Dune: Part Two | Qty: 1" }));
  eq(fieldsOf(colon), { itemSummary: "Dune: Part Two", quantity: 1 });
});

Deno.test("the store from the author unless it is the bot; Total is never a unit price", () => {
  const read = readChatPost({
    username: "Nimbus",
    embeds: [{
      author: { name: "Palace" },
      title: "Nimbus | checked out",
      fields: [f("Item", "Hood × 2"), f("Total", "$316.00"), f("Order", "P-1")],
    }],
  });
  eq(fieldsOf(read), {
    store: "Palace",
    itemSummary: "Hood",
    quantity: 2,
    total: "$316.00",
    orderNumber: "P-1",
  });
  for (const author of ["Nimbus AIO", "Cook Bot", "Nimbus", "@kev", "kev#0001", "Run by Sam"]) {
    const bot = readChatPost({
      embeds: [{
        author: { name: author },
        title: "Successful checkout",
        fields: [f("Item", "Hood"), f("Order", "P-1")],
        footer: { text: "Nimbus • v2" },
      }],
    });
    equal(fieldsOf(bot).store, undefined, author);
  }
});

Deno.test("the product from the title when the success words are in the author name", () => {
  const read = readChatPost({
    username: "Orbit Success",
    embeds: [{
      author: { name: "Successfully checked out!" },
      title: "Yeezy 700 V3",
      fields: [f("Srore", "Holypop")],
    }],
  });
  eq(fieldsOf(read), { itemSummary: "Yeezy 700 V3", store: "Holypop" });
});

Deno.test("the store from the header, unless the header names the bot itself", () => {
  eq(
    fieldsOf(
      readChatPost({
        embeds: [{
          author: { name: "Successful Checkout | Target" },
          fields: [f("Product", "Lego")],
        }],
      }),
    ),
    {
      itemSummary: "Lego",
      store: "Target",
    },
  );
  eq(
    fieldsOf(
      readChatPost({
        username: "SplashForce",
        embeds: [{ title: "Checkout Success|Splashforce", fields: [f("Product", "Samba")] }],
      }),
    ),
    {
      itemSummary: "Samba",
    },
  );
  const notice = readChatPost({
    username: "Store Notifications",
    embeds: [{
      author: { name: "Bodega" },
      title: "Order #1187 placed by Sam T.",
      description: "**Item:** Rose Tee × 2",
    }],
  });
  eq(fieldsOf(notice), {
    itemSummary: "Rose Tee",
    store: "Bodega",
    orderNumber: "1187",
    quantity: 2,
  });
});

Deno.test("carts: product lines joined with ', ', only the total kept", () => {
  const lines = readChatPost(
    success([
      f("Products", "Tiny Plants\nMini Orchid"),
      f("Price", "$49.99"),
      f("Total", "$79.98"),
    ]),
  );
  eq(fieldsOf(lines), { itemSummary: "Tiny Plants, Mini Orchid", total: "$79.98" });
  const bullets = readChatPost({
    embeds: [{
      title: "Successfully Checked Out",
      description: "• 2x Socks - 19.98 USD (OS)\n• 1x Cap - 30.00 USD (M)",
      fields: [f("Total", "49.98 USD")],
    }],
  });
  eq(fieldsOf(bullets), { itemSummary: "Socks, Cap", total: "49.98 USD" });
  const one = readChatPost({
    embeds: [{ title: "Successfully Checked Out", description: "• 3x Booster - 26.94 USD (OS)" }],
  });
  eq(fieldsOf(one), { itemSummary: "Booster", price: "26.94 USD", quantity: 3, size: "OS" });
  eq(one.feed, { itemSummary: "Booster", price: "26.94 USD" });
  eq(lines.feed, { itemSummary: "Tiny Plants, Mini Orchid", price: "$79.98" });
});

Deno.test("quantity markers, split labels, no-value sizes", () => {
  eq(fieldsOf(readChatPost(success([f("Item", "Socks x3")]))), {
    itemSummary: "Socks",
    quantity: 3,
  });
  eq(fieldsOf(readChatPost(success([f("Item", "2x Socks")]))), {
    itemSummary: "Socks",
    quantity: 2,
  });
  eq(fieldsOf(readChatPost(success([f("Item", "Nike x Sacai Blazer"), f("Size", "N/A")]))), {
    itemSummary: "Nike x Sacai Blazer",
  });
  eq(fieldsOf(readChatPost(success([f("Product", "Tee"), f("Size/Color", "Medium/Red")]))), {
    itemSummary: "Tee",
    size: "Medium",
  });
  eq(fieldsOf(readChatPost(success([f("Product", "Tee"), f("Size/Color", "Medium")]))), {
    itemSummary: "Tee",
  });
});

Deno.test("tracking numbers under a tracking label, with the carrier their format names", () => {
  const read = readChatPost(success([
    f("Product", "Tee"),
    f("Tracking Number", "||1Z 999 AA1 0123456784||"),
    f("Tracking URL", "[Track](https://track.example/1Z999AA10123456784)"),
    f("Estimated Delivery", "2026-04-02"),
  ]));
  eq(fieldsOf(read), {
    itemSummary: "Tee",
    trackingNumber: "1Z999AA10123456784",
    carrier: "ups",
    trackingUrl: "https://track.example/1Z999AA10123456784",
    estimatedDelivery: "2026-04-02",
  });
  const link = readChatPost(
    success([
      f("Product", "Tee"),
      f("\u200b", "[Track Order](https://t.example/?o=1)"),
      f("Tracking", "[Track Order](https://t.example)"),
    ]),
  );
  eq(fieldsOf(link), { itemSummary: "Tee" });
});

Deno.test("private values are never read, and the embed handed back has none", () => {
  const read = readChatPost(success([
    f("Product", "Tee"),
    f("Order Email", "buyer@example.com"),
    f("Profile Name", "Main Visa"),
    f("Proxy", "||203.0.113.9:8000:user:pw||"),
    f("Details", "**Size:** 9\n**Email:** buyer@example.com"),
  ], {
    description: "Account\nbuyer@example.com\nPayment: Visa 4242",
    footer: { text: "bot | buyer@example.com | http://u:p@198.51.100.7:80" },
  }));
  eq(fieldsOf(read), { itemSummary: "Tee", size: "9" });
  const out = JSON.stringify(read);
  for (const secret of ["buyer@", "Main Visa", "203.0.113", "198.51.100", "Visa 4242", "u:p@"]) {
    ok(!out.includes(secret), `${secret} in ${out}`);
  }
  eq(read.embed?.fields.map((x) => x.name), ["Product", "Details"]);
  equal(read.embed?.description, "");
});

Deno.test("facts name the sender: the username, else the author", () => {
  eq(readChatPost(success([f("Product", "Tee")])).facts, { from: "Bot" });
  eq(
    readChatPost({ embeds: [{ author: { name: "Wrath Success" }, fields: [f("Product", "Tee")] }] })
      .facts,
    {
      from: "Wrath Success",
    },
  );
});

Deno.test("hostile: 10 embeds of 25 fields of 1024 characters read within the platform's bounds", () => {
  const long = "Y".repeat(5000);
  const embed = (title: string) => ({
    title: title + long,
    description: long.repeat(2),
    footer: { text: long },
    fields: Array.from(
      { length: 30 },
      (_, i) => f(i === 0 ? "Product" : `Label ${i} ${long}`, long),
    ),
  });
  const body = {
    username: long,
    content: long,
    embeds: [...Array.from({ length: 10 }, () => embed("Successful Checkout ")), embed("x")],
  };
  const read = readChatPost(body);
  const fields = fieldsOf(read);
  equal(fields.itemSummary, "Y".repeat(1024));
  equal(read.facts.from?.length, 80);
  equal(read.embed?.title?.length, 256);
  equal(read.embed?.description?.length, 4096);
  equal(read.embed?.fields.length, 25);

  // The 11th embed and the 26th field are beyond the platform's limits: not read.
  const beyond = readChatPost({
    embeds: [...Array.from({ length: 10 }, () => ({ title: "Chatter" })), {
      title: "Successful Checkout",
      fields: [f("Product", "Tee")],
    }],
  });
  equal(whyOf(beyond, "ignored"), "no checkout header");
  const late = readChatPost(
    success([...Array.from({ length: 25 }, (_, i) => f(`Note ${i}`, "x")), f("Product", "Tee")]),
  );
  equal(whyOf(late, "unreadable"), "checkout post without a product name");
});

Deno.test("a Status field saying the checkout failed outweighs the header", () => {
  const fields = [f("Product", "Dunk"), f("Order", "A123")];
  const declined = readChatPost(success([...fields, f("Status", "Declined (do not honor)")]));
  equal(whyOf(declined, "ignored"), 'decline: status says "declined"');
  const weak = readChatPost({
    embeds: [{ title: "Checkout", fields: [...fields, f("Résultat", "Échec du paiement")] }],
  });
  equal(whyOf(weak, "ignored"), "no checkout header");
  // A status that says nothing about failure (Fraud Status: SUCCESS, Status: paid) is no veto.
  eq(fieldsOf(readChatPost(success([...fields, f("Status", "paid")]))), {
    itemSummary: "Dunk",
    orderNumber: "A123",
  });
});

Deno.test("a money value is one figure and its currency; anything more is left out", () => {
  const read = readChatPost(success([], {
    description:
      "Product: Dunk Low Price: $10.00 Shipping: $9.00 Order: 55123\nTotal: $19.00 (incl. $1 tax)",
  }));
  eq(fieldsOf(read), { itemSummary: "Dunk Low", price: "$10.00", orderNumber: "55123" });
  for (
    const price of ["$1,599.00", "180,00 €", "CA$280.00", "59.98 USD", "€ 129,95", "R$ 799,99"]
  ) {
    equal(fieldsOf(readChatPost(success([f("Item", "X"), f("Price", price)]))).price, price);
  }
});

Deno.test("Label - value lines; an unknown-language post takes no title as its product", () => {
  const dashes = readChatPost(
    success([], { description: "Product - Dunk Low\nSize - 10\nItem 1 - Tee - $5.00" }),
  );
  eq(fieldsOf(dashes), { itemSummary: "Dunk Low, Tee", size: "10" });
  // No success word anywhere and no product label we know: the title is not guessed as the item.
  const unknown = readChatPost({
    embeds: [{ title: "Zakup udany", fields: [f("Produkt nazwa", "Dunk"), f("Order", "PL-1234")] }],
  });
  equal(whyOf(unknown, "ignored"), "no checkout header");
});

Deno.test("a split label gives each of its fields from the same part of the value", () => {
  const read = readChatPost(success([f("Product", "Dunk"), f("Size / Price", "10 / $115.00")]));
  eq(fieldsOf(read), { itemSummary: "Dunk", size: "10", price: "$115.00" });
  const lines = readChatPost(success([], { description: "Product: Dunk\nQty/Size: 2/M" }));
  eq(fieldsOf(lines), { itemSummary: "Dunk", quantity: 2, size: "M" });
});

Deno.test("a field named after the product, its value the details; section fields are read", () => {
  const read = readChatPost(success([
    f("Store", "Target"),
    f("Prismatic Evolutions ETB", "Qty: 2\nPrice: $59.99"),
    f("Order Details", "Order: ||9120||"),
  ]));
  eq(fieldsOf(read), {
    store: "Target",
    itemSummary: "Prismatic Evolutions ETB",
    quantity: 2,
    price: "$59.99",
    orderNumber: "9120",
  });
  // A section heading is no product, whatever its value holds.
  for (const name of ["Details", "Shipping Info", "Purchase details"]) {
    const section = readChatPost(success([f(name, "Size: 9\nPrice: $5.00"), f("Order", "A1")]));
    eq(fieldsOf(section), { itemSummary: "", size: "9", price: "$5.00", orderNumber: "A1" }, name);
  }
});
