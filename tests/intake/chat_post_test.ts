import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { call, signUp, testApp } from "../helpers.ts";
import { checkout, decline, makeBot, pathOf, postTo } from "../chat/helpers.ts";

Deno.test("chat intake: a checkout post becomes an order with the fields the post gives", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const res = await postTo(ctx, bot, checkout(), { query: "?wait=true&thread_id=42" });
  equal(res.status, 202);
  eq(res.body, { ok: true, orderId: res.body.orderId, merged: false });
  const { body } = await call<{ order: Record<string, unknown> }>(
    ctx,
    "GET",
    `/api/orders/${res.body.orderId}`,
    { token },
  );
  const { id: _, receivedAt: _r, createdAt: _c, updatedAt: _u, ...order } = body.order;
  eq(order, {
    status: "ordered",
    itemSummary: "Dunk Low Retro 'Panda'",
    orderNumber: "C0001",
    store: "Nike US",
    price: "$115.00",
    // The one item's price, in the workspace currency (USD for a UTC account): its cost.
    costCents: 11500,
    size: "10",
    imageUrl: "https://images.example.com/dunk-panda.png",
    sourceId: bot.id,
    source: "chat",
    userEdited: [],
  });
});

Deno.test("chat intake: a SKU-only checkout is an order with a blank item that a later post fills", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const sku = checkout({ Order: "||S-77||" });
  sku.embeds[0].fields = sku.embeds[0].fields.filter((f) => f.name !== "Product");
  sku.embeds[0].fields.push({ name: "SKU", value: "DD1391-100", inline: true });
  const first = await postTo(ctx, bot, sku);
  eq([first.status, first.body.merged], [202, false]);
  const read = () =>
    call<{ order: { itemSummary: string; orderNumber: string } }>(
      ctx,
      "GET",
      `/api/orders/${first.body.orderId}`,
      { token },
    );
  eq((await read()).body.order.itemSummary, "");
  const named = await postTo(ctx, bot, checkout({ Order: "||S-77||", Product: "Air Force 1 '07" }));
  eq([named.status, named.body.orderId, named.body.merged], [202, first.body.orderId, true]);
  eq((await read()).body.order.itemSummary, "Air Force 1 '07");
});

Deno.test("chat intake: multipart bodies with payload_json (a part or a file), files ignored", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const send = (form: FormData) =>
    call(ctx, "POST", pathOf(bot), { rawBody: form, headers: { "x-forwarded-for": "192.0.2.7" } });

  const asText = new FormData();
  asText.set("payload_json", JSON.stringify(checkout({ Order: "M-1" })));
  asText.set("files[0]", new Blob([new Uint8Array(50_000)], { type: "image/png" }), "shoe.png");
  const first = await send(asText);
  eq([first.status, first.body.merged], [202, false]);

  const asFile = new FormData();
  asFile.set(
    "payload_json",
    new Blob([JSON.stringify(checkout({ Order: "M-2", Product: "Air Max 1" }))], {
      type: "application/json",
    }),
    "payload.json",
  );
  const second = await send(asFile);
  equal(second.status, 202);
  const order = await call<{ order: { itemSummary: string; orderNumber: string } }>(
    ctx,
    "GET",
    `/api/orders/${second.body.orderId}`,
    { token },
  );
  eq([order.body.order.itemSummary, order.body.order.orderNumber], ["Air Max 1", "M-2"]);

  const chatter = new FormData();
  chatter.set("content", "gm everyone");
  eq((await send(chatter)).body, { ok: true, ignored: true });

  const broken = new FormData();
  broken.set("payload_json", "{not json");
  eq([(await send(broken)).status, (await send(broken)).body], [400, {
    error: "payload_json: must be a JSON object",
  }]);
  const array = new FormData();
  array.set("payload_json", "[1,2]");
  equal((await send(array)).status, 400);

  // Attached files count toward the 2 MiB body limit.
  const big = new FormData();
  big.set("payload_json", JSON.stringify(checkout({ Order: "M-3" })));
  big.set("files[0]", new Blob([new Uint8Array(2 * 1024 * 1024)]), "huge.png");
  const tooLarge = await send(big);
  eq([tooLarge.status, tooLarge.body], [413, { error: "Request body too large (limit 2 MiB)." }]);
  eq((await call(ctx, "GET", "/api/orders", { token })).body.total, 2);
});

Deno.test("chat intake: a body that is not a JSON object is a 400; an empty one is ignored", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const broken = await call(ctx, "POST", pathOf(bot), { rawBody: "{nope" });
  eq(broken.status, 400);
  match(String(broken.body.error), /^body is not valid JSON \(/);
  for (const raw of ["[1,2,3]", '"text"', "42"]) {
    const res = await call(ctx, "POST", pathOf(bot), {
      rawBody: raw,
      headers: { "content-type": "application/json" },
    });
    eq([res.status, res.body], [400, {
      error: "body: must be a JSON object (the execute-webhook body)",
    }], raw);
  }
  for (const raw of ["", "{}", "null"]) {
    const res = await call(ctx, "POST", pathOf(bot), { rawBody: raw });
    eq([res.status, res.body], [202, { ok: true, ignored: true }], JSON.stringify(raw));
  }
  eq((await call(ctx, "GET", "/api/orders", { token })).body.total, 0);
});

Deno.test("chat intake: non-checkout posts are ignored and logged; their embed becomes a sample without private values", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const restock = {
    embeds: [{ title: "Restock Monitor", fields: [{ name: "Product", value: "Dunk Low" }] }],
  };
  for (const post of [decline(), restock, { content: "anyone got a spare size 10?" }]) {
    eq((await postTo(ctx, bot, post)).body, { ok: true, ignored: true });
  }
  eq((await call(ctx, "GET", "/api/orders", { token })).body.total, 0);
  const logs = await call<{ logs: { outcome: string }[] }>(ctx, "GET", `/api/bots/${bot.id}/logs`, {
    token,
  });
  eq(logs.body.logs.map((l) => l.outcome), ["ignored", "ignored", "ignored"]);

  const samples = await call<{ items: Record<string, unknown>[] }>(
    ctx,
    "GET",
    "/api/embed-samples",
    { token },
  );
  equal(samples.status, 200);
  eq(samples.body.items.map((s) => s.why), [
    'monitor: header says "restock"',
    'decline: header says "declined"',
  ]);
  const declined = samples.body.items[1];
  equal(declined.botId, bot.id);
  const text = JSON.stringify(declined.embed);
  ok(text.includes("Payment Declined") && text.includes("Dunk Low Retro"));
  for (const secret of ["sam.buyer@example.com", "Main Visa", "203.0.113.9", "user:pass"]) {
    ok(!text.includes(secret), secret);
  }
});

Deno.test("chat intake does not deduplicate: a repeated post merges by order number, one without a number is a new order", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const first = await postTo(ctx, bot, checkout({ Order: "D-1" }));
  const again = await postTo(ctx, bot, checkout({ Order: "D-1" }));
  eq(again.body, { ok: true, orderId: first.body.orderId, merged: true });
  const noNumber = checkout();
  noNumber.embeds[0].fields = noNumber.embeds[0].fields.filter((f) => f.name !== "Order");
  const a = await postTo(ctx, bot, noNumber);
  const b = await postTo(ctx, bot, noNumber);
  ok(a.body.orderId && b.body.orderId && a.body.orderId !== b.body.orderId);
  eq((await call(ctx, "GET", "/api/orders", { token })).body.total, 3);
});

Deno.test("chat intake rate limits: 60 a minute per client IP across bots, 60 per bot URL, with the spec's messages", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const [one, two, three] = [
    await makeBot(ctx, token),
    await makeBot(ctx, token),
    await makeBot(
      ctx,
      token,
    ),
  ];
  for (let i = 0; i < 60; i++) {
    equal((await postTo(ctx, i % 2 ? one : two, {}, { ip: "198.51.100.1" })).status, 202);
  }
  const perIp = await postTo(ctx, three, {}, { ip: "198.51.100.1" });
  eq([perIp.status, perIp.body], [429, { error: "Ingest rate exceeded (60/min per IP)" }]);
  equal(perIp.headers.get("retry-after"), "60");

  // Bot `three` got no post in: its URL still has its 60, from other addresses.
  for (let i = 0; i < 60; i++) {
    equal((await postTo(ctx, three, {}, { ip: `192.0.2.${i}` })).status, 202);
  }
  const perBot = await postTo(ctx, three, {}, { ip: "192.0.2.200" });
  eq([perBot.status, perBot.body], [429, { error: "Ingest rate exceeded for this bot (60/min)" }]);
  equal(perBot.headers.get("retry-after"), "60");
  const logs = await call<{ logs: unknown[] }>(ctx, "GET", `/api/bots/${three.id}/logs`, { token });
  equal(logs.body.logs.length, 60);
});

Deno.test("chat intake: hostile bodies are bounded and never a 500", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  let nested: unknown = "x";
  for (let i = 0; i < 300; i++) nested = { embeds: [nested] };
  const bodies = [
    { embeds: Array.from({ length: 2000 }, () => checkout().embeds[0]) },
    { embeds: [{ title: "Successful Checkout!", fields: Array(100_000).fill({ name: "a" }) }] },
    { embeds: "not a list", content: 42, username: { a: 1 } },
    nested,
    { embeds: [{ title: "Successful Checkout!", description: "||".repeat(200_000) }] },
  ];
  for (const body of bodies) {
    const res = await postTo(ctx, bot, body);
    equal(res.status, 202, `${res.status} ${JSON.stringify(body).slice(0, 60)}`);
  }
});
