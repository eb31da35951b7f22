import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { runDigests } from "../../src/chat/digest.ts";
import { CRON_JOBS, jobContext } from "../../src/jobs/registry.ts";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp } from "../helpers.ts";
import { closedPort, startReceiver } from "../net/receiver.ts";
import { chatApp, checkout, makeBot, postTo } from "./helpers.ts";

const DAY = 86_400_000;

Deno.test("GET /api/chat/install: 503 without a chat-platform application, else its authorisation page", async () => {
  await using off = await testApp();
  const a = await signUp(off);
  const res = await call(off, "GET", "/api/chat/install", { token: a.token });
  eq([res.status, res.body], [503, {
    error: "The chat bot is not configured on this deployment (set DISCORD_CLIENT_ID)",
  }]);
  equal((await call(off, "GET", "/api/chat/install")).status, 401);

  await using on = await testApp({ DISCORD_CLIENT_ID: "1234567890" });
  const b = await signUp(on);
  const ok200 = await call(on, "GET", "/api/chat/install", { token: b.token });
  eq([ok200.status, ok200.body], [200, {
    installUrl: "https://discord.com/oauth2/authorize?client_id=1234567890" +
      "&scope=bot+applications.commands&permissions=19456",
  }]);
});

Deno.test("PATCH /api/chat/settings: the digest cadence, validated; the schedule starts one period from now", async () => {
  let now = Date.parse("2025-06-01T10:00:00.000Z");
  await using ctx = await testApp({}, { now: () => now });
  const { user, token } = await signUp(ctx);
  for (
    const [body, error] of [
      [{}, "digest is required"],
      [{ digest: "hourly" }, 'digest: Invalid option: expected one of "off"|"daily"|"weekly"'],
    ] as const
  ) {
    const res = await call(ctx, "PATCH", "/api/chat/settings", { token, body });
    eq([res.status, res.body], [400, { error }]);
  }
  const daily = await call(ctx, "PATCH", "/api/chat/settings", {
    token,
    body: { digest: "daily" },
  });
  eq([daily.status, daily.body], [200, {
    settings: {
      digest: "daily",
      nextDigestAt: "2025-06-02T10:00:00.000Z",
      updatedAt: "2025-06-01T10:00:00.000Z",
    },
  }]);
  now += 3_600_000;
  const same = await call(ctx, "PATCH", "/api/chat/settings", { token, body: { digest: "daily" } });
  equal((same.body.settings as { nextDigestAt: string }).nextDigestAt, "2025-06-02T10:00:00.000Z");
  const weekly = await call(ctx, "PATCH", "/api/chat/settings", {
    token,
    body: { digest: "weekly" },
  });
  equal(
    (weekly.body.settings as { nextDigestAt: string }).nextDigestAt,
    "2025-06-08T11:00:00.000Z",
  );
  const due = await Array.fromAsync(ctx.kv.list({ prefix: keys.chatDigestsDue() }));
  eq(due.map((e) => e.key), [keys.chatDigestDue(Date.parse("2025-06-08T11:00:00.000Z"), user.id)]);
  const off = await call(ctx, "PATCH", "/api/chat/settings", { token, body: { digest: "off" } });
  eq(off.body, { settings: { digest: "off", updatedAt: "2025-06-01T11:00:00.000Z" } });
  eq(await Array.fromAsync(ctx.kv.list({ prefix: keys.chatDigestsDue() })), []);
});

Deno.test("POST /api/chat/digest: 409 without updatesWebhook; posts the last day's summary; 502 when the receiver fails", async () => {
  await using receiver = startReceiver();
  await using ctx = await chatApp({ listen: false });
  const { token } = await signUp(ctx);
  const none = await call(ctx, "POST", "/api/chat/digest", { token });
  eq([none.status, none.body], [409, { error: "No updatesWebhook is set (POST /api/settings)" }]);

  await call(ctx, "POST", "/api/settings", { token, body: { updatesWebhook: receiver.url("/u") } });
  const bot = await makeBot(ctx, token);
  const first = await postTo(ctx, bot, checkout({ Order: "G-1", Product: "Lamp" }));
  await postTo(ctx, bot, checkout({ Order: "G-2", Product: "Chair", Store: "IKEA" }));
  await call(ctx, "PATCH", `/api/orders/${first.body.orderId}`, {
    token,
    body: { status: "shipped" },
  });
  const res = await call(ctx, "POST", "/api/chat/digest", { token });
  eq([res.status, res.body], [200, { ok: true }]);
  const [req] = await receiver.waitFor(1);
  const { timestamp, ...embed } = JSON.parse(req.body).embeds[0];
  ok(Date.parse(timestamp));
  eq(embed, {
    title: "Daily digest",
    description: "2 new orders in the last day.",
    fields: [
      { name: "Received", value: "2", inline: true },
      { name: "Now shipped", value: "1", inline: true },
      { name: "Now delivered", value: "0", inline: true },
      {
        name: "Latest",
        value: "• Chair (IKEA): ordered\n• Lamp (Nike US): shipped",
        inline: false,
      },
    ],
  });

  await call(ctx, "POST", "/api/settings", {
    token,
    body: { updatesWebhook: `http://127.0.0.1:${closedPort()}/u` },
  });
  const failed = await call(ctx, "POST", "/api/chat/digest", { token });
  eq([failed.status, failed.body], [502, {
    error: "updatesWebhook did not take the digest: connection refused",
  }]);
});

Deno.test("the digest job: sends each due digest once, under a lease, and moves it to its next slot", async () => {
  await using receiver = startReceiver();
  let now = Date.parse("2025-06-01T10:00:00.000Z");
  await using ctx = await chatApp({ listen: false, now: () => now });
  const digestJob = CRON_JOBS.find((j) => j.name === "chat digest")!;
  const context = jobContext(ctx.deps);
  const job = { schedule: digestJob.schedule, run: (s: AbortSignal) => digestJob.run(context, s) };
  equal(job.schedule, "7 * * * *");
  const daily = await signUp(ctx);
  const weekly = await signUp(ctx);
  const silent = await signUp(ctx);
  for (const [who, digest] of [[daily, "daily"], [weekly, "weekly"], [silent, "daily"]] as const) {
    if (who !== silent) {
      await call(ctx, "POST", "/api/settings", {
        token: who.token,
        body: { updatesWebhook: receiver.url(`/${digest}`) },
      });
    }
    await call(ctx, "PATCH", "/api/chat/settings", { token: who.token, body: { digest } });
  }
  const signal = new AbortController().signal;
  now += DAY - 60_000;
  await job.run(signal);
  equal(receiver.requests.length, 0, "nothing due yet");

  now += 2 * 60_000;
  // Two processes firing the cron at once: one holds the lease.
  await Promise.all([job.run(signal), runDigests(ctx.deps, { signal })]);
  eq(receiver.requests.map((r) => r.path), ["/daily"]);
  equal(JSON.parse(receiver.requests[0].body).embeds[0].title, "Daily digest");
  await job.run(signal);
  equal(receiver.requests.length, 1, "a slot is sent once");

  // A week later (the job missed days): one digest each, schedules moved past now.
  now += 6 * DAY;
  await job.run(signal);
  eq(receiver.requests.map((r) => r.path).sort(), ["/daily", "/daily", "/weekly"]);
  const settings = await call(ctx, "PATCH", "/api/chat/settings", {
    token: daily.token,
    body: { digest: "daily" },
  });
  ok(Date.parse((settings.body.settings as { nextDigestAt: string }).nextDigestAt) > now);
  equal(
    (settings.body.settings as { lastDigestAt: string }).lastDigestAt,
    new Date(now).toISOString(),
  );
  equal((await ctx.kv.get(keys.lease("chat digest"))).versionstamp, null, "lease given back");
});
