import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { call, signUp, testApp } from "../helpers.ts";
import { kvLines } from "../account/kv_scan.ts";
import { testResolver } from "../webhooks/helpers.ts";
import { checkout, decline, makeBot, postTo } from "./helpers.ts";

const HOOK = "https://chat.example/api/webhooks/111/SECRET-WEBHOOK-TOKEN";

async function chatWorkspace(env: Record<string, string> = {}) {
  const ctx = await testApp({ BASE_URL: "https://tracker.example", ...env }, {
    deps: { outbound: { resolver: testResolver({ "chat.example": ["93.184.215.14"] }) } },
  });
  const reg = await call(ctx, "POST", "/api/auth/register", {
    body: { email: "sam@example.com", password: "password123" },
  });
  const token = reg.body.token as string;
  const user = reg.body.user as { id: string; webhookHandle: string };
  return { ctx, token, user };
}

Deno.test("snapshot: each bot with its stats and recent orders", async () => {
  const { ctx, token } = await chatWorkspace();
  await using _ = ctx;
  const bot = await makeBot(ctx, token, { name: "Kodai", outputWebhook: HOOK });
  const quiet = await makeBot(ctx, token, { name: "Quiet" });
  const ids: string[] = [];
  for (let i = 1; i <= 7; i++) {
    const res = await postTo(ctx, bot, checkout({ Order: `S-${i}`, Product: `Item ${i}` }));
    ids.push(String(res.body.orderId));
  }
  await postTo(ctx, bot, checkout({ Order: "S-7", Product: "Item 7" }));
  await postTo(ctx, bot, decline());

  const state = await call<{ bots: Record<string, unknown>[] }>(ctx, "GET", "/api/state", {
    token,
  });
  equal(state.status, 200);
  // Newest first.
  const [second, first] = state.body.bots;
  eq(second, { ...quiet, stats: { orders: 0, merged: 0, rejected: 0 }, recentOrders: [] });
  const { stats, recentOrders, ...shown } = first;
  eq(shown, bot);
  eq({ ...(stats as object), lastPostAt: undefined }, {
    orders: 7,
    merged: 1,
    rejected: 0,
    lastPostAt: undefined,
  });
  const recent = recentOrders as Record<string, unknown>[];
  eq(recent.map((r) => [r.orderId, r.itemSummary, r.outcome, r.store]), [
    [ids[6], "Item 7", "merged", "Nike US"],
    [ids[5], "Item 6", "created", "Nike US"],
    [ids[4], "Item 5", "created", "Nike US"],
    [ids[3], "Item 4", "created", "Nike US"],
    [ids[2], "Item 3", "created", "Nike US"],
  ]);
});

Deno.test("export: bots and chat webhook URLs cut to their host; intake messages with the posts as received", async () => {
  const { ctx, token, user } = await chatWorkspace();
  await using _ = ctx;
  await call(ctx, "POST", "/api/settings", {
    token,
    body: { outputWebhook: HOOK, updatesWebhook: `${HOOK}/updates`, forwardOn: true },
  });
  const bot = await makeBot(ctx, token, { name: "Kodai", outputWebhook: HOOK });
  const post = checkout({ Order: "X-1" });
  const made = await postTo(ctx, bot, post);
  await postTo(ctx, bot, decline());
  const copier = await call(ctx, "POST", "/api/embed-copier/rotate", { token });
  await ctx.deps.background.drain();

  const res = await call<Record<string, unknown>>(ctx, "GET", "/api/account/export", { token });
  equal(res.status, 200);
  eq(res.body.settings, {
    outputWebhook: "chat.example",
    updatesWebhook: "chat.example",
    forwardOn: true,
    updatedAt: (res.body.settings as { updatedAt: string }).updatedAt,
  });
  eq(res.body.bots, [{
    id: bot.id,
    name: "Kodai",
    url: "tracker.example",
    active: true,
    outputWebhook: "chat.example",
    createdAt: bot.createdAt,
  }]);
  const messages = res.body.intakeMessages as Record<string, unknown>[];
  eq(messages.map((m) => [m.channel, m.sourceId, m.outcome, m.orderId]), [
    ["chat", bot.id, "created", made.body.orderId],
    ["chat", bot.id, "ignored", undefined],
  ]);
  eq(JSON.parse(String(messages[0].raw)), post);
  equal(messages[0].from, "Cook Group Bot");

  const text = JSON.stringify(res.body);
  const token1 = new URL(String(copier.body.submitUrl)).pathname.split("/").pop()!;
  // The handle alone is the account's (`account.webhookHandle`); the slug is the secret half.
  ok(text.includes(user.webhookHandle));
  for (const secret of ["SECRET-WEBHOOK-TOKEN", bot.slug, token1]) {
    ok(!text.includes(secret), secret);
  }
});

Deno.test("account deletion removes bots, their tallies, samples, the copier URL and the digest schedule", async () => {
  const { ctx, token, user } = await chatWorkspace();
  await using _ = ctx;
  const other = await signUp(ctx);
  const otherBot = await makeBot(ctx, other.token);
  const bot = await makeBot(ctx, token);
  await postTo(ctx, bot, checkout());
  await postTo(ctx, bot, decline());
  const copier = await call(ctx, "POST", "/api/embed-copier/rotate", { token });
  const submitPath = new URL(String(copier.body.submitUrl)).pathname;
  await call(ctx, "POST", submitPath, { body: { embeds: checkout().embeds, messageId: "m1" } });
  await call(ctx, "PATCH", "/api/chat/settings", { token, body: { digest: "daily" } });
  await call(ctx, "PATCH", "/api/chat/settings", {
    token: other.token,
    body: { digest: "weekly" },
  });

  const res = await call(ctx, "DELETE", "/api/account", {
    token,
    body: { confirmEmail: "sam@example.com" },
  });
  equal(res.status, 200);
  const token1 = submitPath.split("/").pop()!;
  for (const line of await kvLines(ctx.kv)) {
    for (const mark of [user.id, user.webhookHandle, bot.slug, token1]) {
      ok(!line.includes(mark), `${mark} in ${line}`);
    }
  }
  eq((await call(ctx, "POST", submitPath, { body: { embeds: [] } })).status, 401);
  eq((await postTo(ctx, bot, checkout())).status, 401);
  // The other account's bot and digest are untouched.
  eq((await postTo(ctx, otherBot, checkout())).status, 202);
  ok(
    (await kvLines(ctx.kv)).some((l) =>
      l.startsWith('["chat_digest_due"') && l.includes(other.user.id)
    ),
  );
});
