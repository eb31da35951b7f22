import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { call, signUp, testApp } from "../helpers.ts";
import { testResolver } from "../webhooks/helpers.ts";
import { type Bot, checkout, decline, makeBot, postTo } from "./helpers.ts";

const UNAUTHORIZED = { error: "Unauthorized" };

Deno.test("bots: create, get with stats, list, patch and delete, as CONTRACT.md says", async () => {
  await using ctx = await testApp({ BASE_URL: "https://tracker.example" }, {
    deps: { outbound: { resolver: testResolver({ "hooks.example": ["93.184.215.14"] }) } },
  });
  const { user, token } = await signUp(ctx);

  const created = await call<{ bot: Bot }>(ctx, "POST", "/api/bots", {
    token,
    body: { name: "  Kodai  ", outputWebhook: "https://hooks.example/api/webhooks/1/abc" },
  });
  equal(created.status, 201);
  const bot = created.body.bot;
  match(bot.id, /^bot_[0-9a-z]{26}$/);
  match(bot.slug, /^[A-Za-z0-9_-]{24}$/);
  eq(bot, {
    id: bot.id,
    name: "Kodai",
    slug: bot.slug,
    url: `https://tracker.example/api/webhooks/chat/${user.webhookHandle}/${bot.slug}`,
    active: true,
    outputWebhook: "https://hooks.example/api/webhooks/1/abc",
    createdAt: bot.createdAt,
  });

  const got = await call(ctx, "GET", `/api/bots/${bot.id}`, { token });
  equal(got.status, 200);
  eq(got.body, { bot: { ...bot, stats: { orders: 0, merged: 0, rejected: 0 } } });

  const second = await makeBot(ctx, token, { name: "Valor", active: false });
  equal(second.active, false);
  const page = await call(ctx, "GET", "/api/bots?limit=1", { token });
  eq(page.body, { items: [second], total: 2, limit: 1, offset: 0, hasMore: true });
  const rest = await call(ctx, "GET", "/api/bots?limit=1&offset=1", { token });
  eq(rest.body, { items: [bot], total: 2, limit: 1, offset: 1, hasMore: false });

  const patched = await call<{ bot: Bot }>(ctx, "PATCH", `/api/bots/${bot.id}`, {
    token,
    body: { name: "Kodai 2", outputWebhook: null, active: false },
  });
  equal(patched.status, 200);
  const { outputWebhook: _, ...withoutOutput } = bot;
  eq(patched.body.bot, { ...withoutOutput, name: "Kodai 2", active: false });
  await call(ctx, "PATCH", `/api/bots/${bot.id}`, {
    token,
    body: { outputWebhook: "https://hooks.example/x" },
  });
  const cleared = await call<{ bot: Bot }>(ctx, "PATCH", `/api/bots/${bot.id}`, {
    token,
    body: { outputWebhook: "" },
  });
  eq(cleared.body.bot, { ...withoutOutput, name: "Kodai 2", active: false });

  const removed = await call(ctx, "DELETE", `/api/bots/${bot.id}`, { token });
  eq([removed.status, removed.body], [200, { ok: true }]);
  eq(
    [(await call(ctx, "GET", `/api/bots/${bot.id}`, { token })).status],
    [404],
  );
  eq((await call(ctx, "GET", "/api/bots", { token })).body.total, 1);
});

Deno.test("bots: bad input is a 400 naming the field; outputWebhook follows the private-address rule", async () => {
  await using ctx = await testApp({}, {
    deps: { outbound: { resolver: testResolver({ "intranet.example": ["10.0.0.5"] }) } },
  });
  const { token } = await signUp(ctx);
  const cases: [Record<string, unknown>, string][] = [
    [{}, "name is required"],
    [{ name: "   " }, "name: Too small: expected string to have >=1 characters"],
    [{ name: "x".repeat(81) }, "name: Too big: expected string to have <=80 characters"],
    [{ name: "a", active: "yes" }, "active: Invalid input: expected boolean, received string"],
    [
      { name: "a", outputWebhook: "https://intranet.example/hook" },
      "outputWebhook: URL cannot point at private or loopback addresses",
    ],
    [{ name: "a", outputWebhook: "http://93.184.215.14/hook" }, "outputWebhook: must use https"],
  ];
  for (const [body, error] of cases) {
    const res = await call(ctx, "POST", "/api/bots", { token, body });
    eq([res.status, res.body.error], [400, error], JSON.stringify(body));
  }
  const bot = await makeBot(ctx, token);
  const res = await call(ctx, "PATCH", `/api/bots/${bot.id}`, {
    token,
    body: { outputWebhook: "https://127.0.0.1/hook" },
  });
  eq([res.status, res.body], [400, {
    error: "outputWebhook: URL cannot point at private or loopback addresses",
    address: "127.0.0.1",
  }]);
  eq((await call(ctx, "GET", "/api/bots", { token })).body.total, 1);
});

Deno.test("bots: another account's bot is a 404 on every route, and its log is not shown", async () => {
  await using ctx = await testApp();
  const alice = await signUp(ctx);
  const bob = await signUp(ctx);
  const bot = await makeBot(ctx, alice.token);
  const notFound = { error: "Bot not found" };
  for (
    const [method, path, body] of [
      ["GET", `/api/bots/${bot.id}`],
      ["PATCH", `/api/bots/${bot.id}`, { name: "mine" }],
      ["DELETE", `/api/bots/${bot.id}`],
      ["POST", `/api/bots/${bot.id}/rotate`],
      ["GET", `/api/bots/${bot.id}/logs`],
      ["GET", "/api/bots/bot_nonexistent"],
    ] as const
  ) {
    const res = await call(ctx, method, path, { token: bob.token, body });
    eq([res.status, res.body], [404, notFound], `${method} ${path}`);
  }
  eq((await call(ctx, "GET", "/api/bots", { token: bob.token })).body.total, 0);
  equal((await call(ctx, "GET", `/api/bots/${bot.id}`, { token: alice.token })).status, 200);
  equal((await call(ctx, "GET", "/api/bots")).status, 401);
});

Deno.test("bot URL: unknown handle or slug, rotated, deleted and inactive bots all answer the same 401", async () => {
  await using ctx = await testApp();
  const { user, token } = await signUp(ctx);
  const other = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const ok202 = await postTo(ctx, bot, checkout());
  equal(ok202.status, 202);

  const paths = [
    `/api/webhooks/chat/nonexistent/${bot.slug}`,
    `/api/webhooks/chat/${user.webhookHandle}/nonexistent`,
    `/api/webhooks/chat/${other.user.webhookHandle}/${bot.slug}`,
    `/api/webhooks/chat/${user.webhookHandle}/${bot.slug.slice(0, -1)}`,
    `/api/webhooks/chat/${user.webhookHandle}/${"a".repeat(3000)}`,
    `/api/webhooks/chat/${"€".repeat(700)}/${bot.slug}`,
  ];
  for (const path of paths) {
    const res = await call(ctx, "POST", path, { body: checkout() });
    eq([res.status, res.body], [401, UNAUTHORIZED], path.slice(0, 80));
  }

  await call(ctx, "PATCH", `/api/bots/${bot.id}`, { token, body: { active: false } });
  eq((await postTo(ctx, bot, checkout())).status, 401);
  await call(ctx, "PATCH", `/api/bots/${bot.id}`, { token, body: { active: true } });
  eq((await postTo(ctx, bot, checkout())).status, 202);

  const rotated = await call<{ bot: Bot }>(ctx, "POST", `/api/bots/${bot.id}/rotate`, { token });
  equal(rotated.status, 200);
  ok(rotated.body.bot.slug !== bot.slug);
  equal(rotated.body.bot.url, bot.url.replace(bot.slug, rotated.body.bot.slug));
  eq([(await postTo(ctx, bot, checkout())).body], [UNAUTHORIZED]);
  equal((await postTo(ctx, rotated.body.bot, checkout())).status, 202);

  await call(ctx, "DELETE", `/api/bots/${bot.id}`, { token });
  const gone = await postTo(ctx, rotated.body.bot, checkout());
  eq([gone.status, gone.body], [401, UNAUTHORIZED]);
});

Deno.test("bot logs and stats: every post with its outcome, newest first; limit clamped", async () => {
  await using ctx = await testApp({ BILLING_ENABLED: "true", FREE_PLAN_MONTHLY_ORDERS: "2" });
  const { token } = await signUp(ctx);
  const bot = await makeBot(ctx, token);
  const other = await makeBot(ctx, token, { name: "Other" });
  const a = await postTo(ctx, bot, checkout({ Order: "A-1", Product: "Lamp" }));
  const merged = await postTo(ctx, bot, checkout({ Order: "A-1", Product: "Lamp" }));
  const ignored = await postTo(ctx, bot, decline());
  await postTo(ctx, other, checkout({ Order: "B-1" }));
  const rejected = await postTo(ctx, bot, checkout({ Order: "C-1", Product: "Chair" }));
  eq(a.body, { ok: true, orderId: a.body.orderId, merged: false });
  eq(merged.body, { ok: true, orderId: a.body.orderId, merged: true });
  eq(ignored.body, { ok: true, ignored: true });
  eq(rejected.body, { ok: true, rejected: true, reason: "plan_limit_reached", cap: 2, used: 2 });

  const logs = await call<{ logs: Record<string, unknown>[] }>(
    ctx,
    "GET",
    `/api/bots/${bot.id}/logs`,
    { token },
  );
  equal(logs.status, 200);
  eq(logs.body.logs.map((l) => [l.outcome, l.orderId, l.itemSummary, l.store]), [
    ["rejected", undefined, "Chair", "Nike US"],
    ["ignored", undefined, undefined, undefined],
    ["merged", a.body.orderId, "Lamp", "Nike US"],
    ["created", a.body.orderId, "Lamp", "Nike US"],
  ]);
  for (const entry of logs.body.logs) {
    match(String(entry.id), /^log_/);
    equal(entry.botId, bot.id);
    ok(Date.parse(String(entry.receivedAt)));
    eq(
      Object.keys(entry).filter((k) =>
        !["id", "botId", "receivedAt", "outcome", "orderId", "itemSummary", "store"].includes(k)
      ),
      [],
    );
  }
  for (const [limit, count] of [["2", 2], ["0", 4], ["-3", 1], ["x", 4], ["9999", 4]]) {
    const res = await call<{ logs: unknown[] }>(
      ctx,
      "GET",
      `/api/bots/${bot.id}/logs?limit=${limit}`,
      { token },
    );
    equal(res.body.logs.length, count, `limit=${limit}`);
  }

  const { body } = await call<{ bot: { stats: Record<string, unknown> } }>(
    ctx,
    "GET",
    `/api/bots/${bot.id}`,
    { token },
  );
  eq(body.bot.stats, {
    orders: 1,
    merged: 1,
    rejected: 1,
    lastPostAt: logs.body.logs[0].receivedAt,
  });
});
