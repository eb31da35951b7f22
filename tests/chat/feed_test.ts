import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { call, signUp } from "../helpers.ts";
import { closedPort, startReceiver } from "../net/receiver.ts";
import { chatApp, makeBot, postTo } from "./helpers.ts";

/** Private values a checkout post can carry, each of which must never reach the feed. */
const PRIVATE = {
  order: "ORD-77123-PRIV",
  tracking: "1Z999AA10123456784",
  email: "casey.buyer@example.com",
  profile: "Casey Amex Gold",
  customer: "Casey Example",
  address: "42 Hidden Lane, Springfield",
  proxy: "203.0.113.77:8080:proxyuser:proxypass",
  bot: "SecretCookBot",
  phone: "+1 555 0100",
};

/** A checkout as loaded with private data as bots make them, in fields, spoilers and text. */
function loadedPost(orderNumber = PRIVATE.order) {
  return {
    username: PRIVATE.bot,
    avatar_url: "https://cdn.example/bot.png",
    content: `Checkout by ${PRIVATE.customer} (${PRIVATE.email})`,
    embeds: [{
      title: "Successful Checkout!",
      url: `https://shop.example/orders/${orderNumber}`,
      description: `Shipping to ${PRIVATE.address}`,
      author: { name: PRIVATE.bot },
      thumbnail: { url: "https://images.example.com/jordan-1-chicago.png" },
      fields: [
        { name: "Product", value: "[Air Jordan 1 'Chicago'](https://shop.example/p/aj1)" },
        { name: "Store", value: "Foot Shop" },
        { name: "Price", value: "$180.00" },
        { name: "Size", value: "9.5" },
        { name: "Order #", value: `||${orderNumber}||` },
        { name: "Tracking", value: PRIVATE.tracking },
        { name: "Email", value: `||${PRIVATE.email}||` },
        { name: "Profile", value: `||${PRIVATE.profile}||` },
        { name: "Name", value: PRIVATE.customer },
        { name: "Address", value: PRIVATE.address },
        { name: "Phone", value: PRIVATE.phone },
        { name: "Proxy", value: `||${PRIVATE.proxy}||` },
      ],
      footer: { text: `${PRIVATE.bot} v3 | ${PRIVATE.email}` },
    }],
  };
}

Deno.test("community feed: only item name, store, price and image, under the fixed name, whatever the post carries", async () => {
  await using feed = startReceiver();
  await using ctx = await chatApp({
    env: { COMMUNITY_FEED_URL: feed.url("/api/webhooks/9/feed-token") },
    listen: false,
  });
  const { token } = await signUp(ctx, { displayName: PRIVATE.customer, username: "casey" });
  await call(ctx, "POST", "/api/account/public-stats", { token, body: { publicStats: true } });
  const bot = await makeBot(ctx, token, { name: PRIVATE.bot });
  const res = await postTo(ctx, bot, loadedPost());
  eq([res.status, res.body.merged], [202, false]);
  const [req] = await feed.waitFor(1);
  equal(req.path, "/api/webhooks/9/feed-token");
  equal(req.headers.get("content-type"), "application/json");
  eq(JSON.parse(req.body), {
    username: "Checkout Feed",
    embeds: [{
      title: "Air Jordan 1 'Chicago'",
      fields: [{ name: "Store", value: "Foot Shop" }, { name: "Price", value: "$180.00" }],
      thumbnail: { url: "https://images.example.com/jordan-1-chicago.png" },
    }],
  });
  for (const [what, value] of Object.entries(PRIVATE)) {
    ok(!req.body.includes(value), `${what} leaked`);
  }
  for (const value of ["casey", "9.5", "shop.example", "bot.png"]) ok(!req.body.includes(value));

  // A merge is not a new checkout: not mirrored again.
  equal((await postTo(ctx, bot, loadedPost())).body.merged, true);
  await ctx.deps.background.drain();
  equal(feed.requests.length, 1);
});

Deno.test("community feed: the sender name is configurable; fields without a value are left out", async () => {
  await using feed = startReceiver();
  await using ctx = await chatApp({
    env: { COMMUNITY_FEED_URL: feed.url("/f"), COMMUNITY_FEED_NAME: "Cook Wins" },
    listen: false,
  });
  const { token } = await signUp(ctx);
  await call(ctx, "POST", "/api/account/public-stats", { token, body: { publicStats: true } });
  const bot = await makeBot(ctx, token);
  await postTo(ctx, bot, {
    embeds: [{ title: "Checkout Successful", fields: [{ name: "Item", value: "Desk Lamp" }] }],
  });
  const [req] = await feed.waitFor(1);
  eq(JSON.parse(req.body), { username: "Cook Wins", embeds: [{ title: "Desk Lamp", fields: [] }] });
});

Deno.test("community feed: public stats off sends nothing, and turning it off stops it at once", async () => {
  await using feed = startReceiver();
  await using ctx = await chatApp({ env: { COMMUNITY_FEED_URL: feed.url("/f") }, listen: false });
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const post = (n: number) => postTo(ctx, bot, loadedPost(`N-${n}`));
  equal((await post(1)).status, 202);
  await ctx.deps.background.drain();
  equal(feed.requests.length, 0, "public stats are off by default");

  await call(ctx, "POST", "/api/account/public-stats", { token, body: { publicStats: true } });
  await post(2);
  await ctx.deps.background.drain();
  equal(feed.requests.length, 1);

  await call(ctx, "POST", "/api/account/public-stats", { token, body: { publicStats: false } });
  await post(3);
  await ctx.deps.background.drain();
  equal(feed.requests.length, 1);
  eq((await call(ctx, "GET", "/api/orders", { token })).body.total, 3);
});

Deno.test("community feed: unset means off; an unreachable feed is logged and never fails intake", async () => {
  await using ctx = await chatApp({
    env: { COMMUNITY_FEED_URL: `http://127.0.0.1:${closedPort()}/f` },
    listen: false,
  });
  const { token } = await signUp(ctx);
  await call(ctx, "POST", "/api/account/public-stats", { token, body: { publicStats: true } });
  const bot = await makeBot(ctx, token);
  equal((await postTo(ctx, bot, loadedPost())).status, 202);
  await ctx.deps.background.drain();
  ok(ctx.logs.some((l) => l.includes("community feed post failed")));

  await using plain = await chatApp({ listen: false });
  equal(plain.config.communityFeed.url, undefined);
  equal(plain.config.communityFeed.name, "Checkout Feed");
});
