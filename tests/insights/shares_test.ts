import { deepStrictEqual as eq, equal, match } from "node:assert/strict";
import type { EventEnvelope } from "../../src/domain/events/envelope.ts";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON response bodies, checked by deepStrictEqual
type Body = Record<string, any>;

const NOW = Date.parse("2025-03-15T12:00:00.000Z");

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Uint8Array): [number, number] {
  eq([...bytes.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return [view.getUint32(16), view.getUint32(20)];
}

const metaContent = (html: string, attr: string, name: string) =>
  html.match(new RegExp(`<meta ${attr}="${name}" content="([^"]*)">`))?.[1];

Deno.test("an order share: public card, page with OG and Twitter tags, PNG, event, delete", async () => {
  await using ctx = await testApp({ BASE_URL: "https://track.example" }, { now: () => NOW });
  const { token, user } = await signUp(ctx, { email: "owner@example.com" });
  const order = (await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: {
      itemSummary: "Retro sneakers <size 10> order #A-77 for owner@example.com",
      orderNumber: "#A-77",
      trackingNumber: "1Z999AA10123456784",
      store: "Kicks & Co",
      costCents: 12000,
      salePriceCents: 18050,
      imageUrl: "https://shop.example/p.jpg",
    },
  })).body.order;

  const created = await call<Body>(ctx, "POST", "/api/shares", {
    token,
    body: { kind: "order", orderId: order.id, showPrices: true },
  });
  equal(created.status, 201);
  const share = created.body.share;
  match(share.slug, /^[0-9a-f]{16}$/);
  eq(share, {
    slug: share.slug,
    kind: "order",
    url: `https://track.example/s/${share.slug}`,
    createdAt: new Date(NOW).toISOString(),
    title: "Retro sneakers <size 10> order for",
    lines: [
      "Store: Kicks & Co",
      "Status: Shipped",
      "Paid: 120.00 · Sold: 180.50 · Profit: 60.50",
    ],
    imageUrl: "https://shop.example/p.jpg",
  });
  // share.created fired in the same commit, with the card as its data.
  const events: EventEnvelope[] = [];
  for await (const e of ctx.kv.list<EventEnvelope>({ prefix: keys.events(user.id) })) {
    events.push(e.value);
  }
  const fired = events.filter((e) => e.type === "share.created");
  equal(fired.length, 1);
  eq(fired[0].data, { share });
  eq((await call<Body>(ctx, "GET", "/api/shares", { token })).body, { shares: [share] });

  const page = await ctx.app.request(`/s/${share.slug}`);
  equal(page.status, 200);
  equal(page.headers.get("content-type"), "text/html; charset=UTF-8");
  const html = await page.text();
  equal(metaContent(html, "property", "og:title"), "Retro sneakers &#60;size 10&#62; order for");
  equal(
    metaContent(html, "property", "og:description"),
    "Store: Kicks &#38; Co · Status: Shipped · Paid: 120.00 · Sold: 180.50 · Profit: 60.50",
  );
  equal(metaContent(html, "property", "og:image"), `https://track.example/s/${share.slug}.png`);
  equal(metaContent(html, "name", "twitter:card"), "summary_large_image");
  for (const secret of ["A-77", "1Z999AA10123456784", "owner@example.com", user.id, order.id]) {
    equal(html.includes(secret), false, secret);
    equal(JSON.stringify(share).includes(secret), false, secret);
  }

  const image = await ctx.app.request(`/s/${share.slug}.png`);
  equal(image.status, 200);
  equal(image.headers.get("content-type"), "image/png");
  const bytes = new Uint8Array(await image.arrayBuffer());
  eq(pngSize(bytes), [1200, 630]);
  equal(bytes.length > 10_000, true);
  if (Deno.env.get("SHARE_PNG_OUT")) await Deno.writeFile(Deno.env.get("SHARE_PNG_OUT")!, bytes);

  // Another account cannot delete it; the owner can, and both addresses end at once.
  const other = await signUp(ctx);
  equal(
    (await call(ctx, "DELETE", `/api/shares/${share.slug}`, { token: other.token })).status,
    404,
  );
  eq((await call(ctx, "DELETE", `/api/shares/${share.slug}`, { token })).body, { ok: true });
  equal((await ctx.app.request(`/s/${share.slug}`)).status, 404);
  const gone = await ctx.app.request(`/s/${share.slug}.png`);
  equal(gone.status, 404);
  await gone.body?.cancel();
  eq((await call<Body>(ctx, "GET", "/api/shares", { token })).body, { shares: [] });
  equal((await call(ctx, "DELETE", `/api/shares/${share.slug}`, { token })).status, 404);
});

Deno.test("shares hide money unless asked; profit cards; validation", async () => {
  await using ctx = await testApp({}, { now: () => NOW });
  const { token } = await signUp(ctx);
  const order = (await call<Body>(ctx, "POST", "/api/orders", {
    token,
    body: { itemSummary: "Lamp", costCents: 1000, salePriceCents: 2500 },
  })).body.order;
  const hidden = await call<Body>(ctx, "POST", "/api/shares", {
    token,
    body: { kind: "order", orderId: order.id },
  });
  eq(hidden.body.share.lines, ["Status: Ordered"]);
  const profit = await call<Body>(ctx, "POST", "/api/shares", {
    token,
    body: { kind: "profit", range: "quarter" },
  });
  equal(profit.status, 201);
  eq([profit.body.share.title, profit.body.share.lines], [
    "Reselling profit, Q1 2025",
    ["Profit: 15.00", "Revenue: 25.00", "Orders: 1"],
  ]);
  const cases: [Body, number][] = [
    [{}, 400],
    [{ kind: "poster" }, 400],
    [{ kind: "order" }, 400],
    [{ kind: "profit", range: "decade" }, 400],
    [{ kind: "order", orderId: "ord_nope" }, 404],
  ];
  for (const [body, status] of cases) {
    equal(
      (await call(ctx, "POST", "/api/shares", { token, body })).status,
      status,
      JSON.stringify(body),
    );
  }
  // Another account's order cannot be shared.
  const other = await signUp(ctx);
  equal(
    (await call(ctx, "POST", "/api/shares", {
      token: other.token,
      body: { kind: "order", orderId: order.id },
    })).status,
    404,
  );
  for (const path of ["/s/nope", "/s/..%2Fapi", `/s/${"a".repeat(3000)}`]) {
    const res = await ctx.app.request(path);
    equal(res.status, 404, path);
    await res.body?.cancel();
  }
});
