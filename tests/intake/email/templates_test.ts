/** Custom templates (compile, match, capture, ReDoS) and the built-in template list. */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  applyTemplate,
  type CompiledTemplate,
  compileTemplate,
} from "../../../src/intake/email/custom.ts";
import { readEmail } from "../../../src/intake/email/read.ts";
import { BUILT_IN, builtInTemplates, domainMatches } from "../../../src/intake/email/templates.ts";
import { bytes, mail, NOW, storeHtml } from "./mail.ts";

function compiled(t: Parameters<typeof compileTemplate>[0]): CompiledTemplate {
  const c = compileTemplate(t);
  if ("error" in c) throw new Error(c.error);
  return c;
}

Deno.test("compileTemplate names the field whose expression is invalid", () => {
  deepEqual(
    compileTemplate({
      id: "t",
      match: { from: "@shop.example" },
      fields: { orderNumber: "Order (\\d+" },
    }),
    {
      error: "fields.orderNumber: invalid regular expression",
    },
  );
  deepEqual(compileTemplate({ id: "t", match: { subject: "[" }, fields: {} }), {
    error: "match.subject: invalid regular expression",
  });
  deepEqual(compileTemplate({ id: "t", match: {}, fields: {} }), {
    error: "match: from or subject is required",
  });
  deepEqual(
    compileTemplate({ id: "t", match: { from: "a@b.c" }, fields: { secret: "x" } as never }),
    { error: "fields.secret: not a template field" },
  );
  // Backreferences are not linear-time: refused like any invalid expression.
  deepEqual(compileTemplate({ id: "t", match: { from: "a@b.c" }, fields: { total: "(a)\\1" } }), {
    error: "fields.total: invalid regular expression",
  });
});

Deno.test("(a+)+$ on a long input finishes in linear time", () => {
  const t = compiled({ id: "t", match: { from: "a@b.c" }, fields: { orderNumber: "(a+)+$" } });
  const started = performance.now();
  deepEqual(applyTemplate(t, "a".repeat(100_000) + "!"), {});
  ok(performance.now() - started < 5_000, "matching stalled");
});

const SHOP = "Shop <orders@shop.example>";
const BODY =
  storeHtml({ orderNumber: "SH-20417", item: "Trail Runner 2 - Moss", total: "$50.00" }) +
  "<p>Ref: QX-77 ships with care</p>";

Deno.test("a custom template matching the sender fills fields and names itself", async () => {
  const t = compiled({
    id: "tmpl_1",
    match: { from: "@shop.example" },
    fields: {
      orderNumber: "Ref: (QX-\\d+)",
      size: "ships with (\\w+)",
      quantity: "Order number: SH-(\\d)",
    },
    status: "shipped",
  });
  const result = await readEmail(bytes(mail({ from: SHOP, subject: "Your order", html: BODY })), {
    now: NOW,
    customTemplates: [t],
  });
  equal(result.template, "tmpl_1");
  deepEqual(result.signals, { shipped: true });
  if (result.reading.kind !== "order") throw new Error("not an order");
  equal(result.reading.fields.orderNumber, "QX-77");
  equal(result.reading.fields.size, "care");
  equal(result.reading.fields.quantity, 2);
  equal(result.reading.fields.itemSummary, "Trail Runner 2 - Moss");
});

Deno.test("match: from address or @domain, subject expression, both when both are given; newest first", async () => {
  const raw = bytes(mail({ from: SHOP, subject: "Your order SH-20417 is confirmed", html: BODY }));
  const read = async (...templates: CompiledTemplate[]) =>
    (await readEmail(raw, { now: NOW, customTemplates: templates })).template;
  const f = { orderNumber: "(SH-\\d+)" };
  equal(await read(compiled({ id: "a", match: { from: "orders@shop.example" }, fields: f })), "a");
  equal(await read(compiled({ id: "b", match: { from: "@example" }, fields: f })), "b");
  equal(await read(compiled({ id: "c", match: { from: "@other.example" }, fields: f })), "generic");
  equal(await read(compiled({ id: "d", match: { subject: "is confirmed$" }, fields: f })), "d");
  equal(
    await read(
      compiled({ id: "e", match: { from: "@shop.example", subject: "canceled" }, fields: f }),
    ),
    "generic",
  );
  equal(
    await read(
      compiled({ id: "new", match: { from: "@shop.example" }, fields: f }),
      compiled({ id: "old", match: { from: "@shop.example" }, fields: f }),
    ),
    "new",
  );
});

Deno.test("markup outranks a custom template; a custom template outranks a built-in one", async () => {
  const markup =
    `<script type="application/ld+json">{"@type":"Order","orderNumber":"W-1","merchant":{"name":"Shop"}}</script>`;
  const t = compiled({
    id: "tmpl_2",
    match: { from: "@shop.example" },
    fields: { orderNumber: "Order number: (\\S+)" },
  });
  const withMarkup = await readEmail(
    bytes(mail({ from: SHOP, subject: "Order", html: markup + BODY })),
    { now: NOW, customTemplates: [t] },
  );
  equal(withMarkup.template, "markup");
  equal(withMarkup.reading.kind === "order" && withMarkup.reading.fields.orderNumber, "W-1");
  const nike = compiled({
    id: "tmpl_3",
    match: { from: "@nike.com" },
    fields: { orderNumber: "Ref: (\\S+)" },
  });
  const overNike = await readEmail(
    bytes(
      mail({ from: "Nike <nike@official.nike.com>", subject: "Thanks for your order", html: BODY }),
    ),
    {
      now: NOW,
      customTemplates: [nike],
    },
  );
  equal(overNike.template, "tmpl_3");
  equal(overNike.reading.kind === "order" && overNike.reading.fields.store, "Nike");
});

Deno.test("built-in list: at least 20 stores and platforms, unique ids, each covered by a fixture", async () => {
  const list = builtInTemplates();
  ok(list.length >= 20);
  equal(new Set(list.map((t) => t.id)).size, list.length);
  for (const t of list) ok(t.name && Array.isArray(t.stores));
  const root = new URL("../../fixtures/email/", import.meta.url).pathname;
  const matched = new Set<string>();
  for (const dir of Deno.readDirSync(root)) {
    if (!dir.isDirectory) continue;
    for (const f of Deno.readDirSync(join(root, dir.name))) {
      if (!f.name.endsWith(".eml")) continue;
      const result = await readEmail(await Deno.readFile(join(root, dir.name, f.name)), {
        now: NOW,
      });
      if (result.template !== "markup") matched.add(result.template);
      const sender = result.realSender ?? "";
      for (const b of BUILT_IN) {
        if (b.stores.some((d) => domainMatches(sender, d))) matched.add(b.id);
      }
    }
  }
  deepEqual(list.map((t) => t.id).filter((id) => !matched.has(id)), []);
});
