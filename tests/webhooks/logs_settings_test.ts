import assert from "node:assert/strict";
import { keys } from "../../src/store/keys.ts";
import { getSettings } from "../../src/store/account/settings.ts";
import {
  addWebhookLog,
  WEBHOOK_LOG_RETENTION_MS,
  type WebhookLogEntry,
} from "../../src/store/webhooks/logs.ts";
import { newId } from "../../src/lib/ids.ts";
import { call, signUp } from "../helpers.ts";
import { testResolver, webhookApp } from "./helpers.ts";

const PRIVATE = "URL cannot point at private or loopback addresses";

Deno.test("webhook logs: newest first, limit 1 to 500 (default 100), only the caller's", async () => {
  await using ctx = await webhookApp({ listen: false });
  const { user, token } = await signUp(ctx);
  const other = await signUp(ctx);
  const op = ctx.kv.atomic();
  const ids: string[] = [];
  for (let i = 0; i < 520; i++) {
    const entry: WebhookLogEntry = {
      id: newId("log"),
      subscriptionId: "whsub_x",
      eventId: `evt_${i}`,
      eventType: "order.created",
      ok: true,
      status: 200,
      durationMs: 3,
      createdAt: new Date().toISOString(),
    };
    ids.push(entry.id);
    addWebhookLog(op, user.id, entry);
  }
  addWebhookLog(op, other.user.id, {
    id: newId("log"),
    subscriptionId: "whsub_y",
    eventId: "evt_other",
    eventType: "order.created",
    ok: false,
    error: "timeout",
    durationMs: 5000,
    createdAt: new Date().toISOString(),
  });
  assert.equal((await op.commit()).ok, true);

  const get = (query = "") =>
    call<{ logs: WebhookLogEntry[] }>(ctx, "GET", `/api/webhook-logs${query}`, { token });
  const byDefault = await get();
  assert.equal(byDefault.status, 200);
  assert.equal(byDefault.body.logs.length, 100);
  assert.deepEqual(byDefault.body.logs.map((l) => l.id), ids.toReversed().slice(0, 100));
  for (
    const [query, n] of [
      ["?limit=3", 3],
      ["?limit=500", 500],
      ["?limit=9999", 500],
      ["?limit=0", 100],
      ["?limit=abc", 100],
      ["?limit=-5", 1],
      ["?limit=2&limit=3", 100],
    ] as const
  ) {
    assert.equal((await get(query)).body.logs.length, n, query);
  }
  assert.ok(byDefault.body.logs.every((l) => l.subscriptionId === "whsub_x"));
  assert.equal(WEBHOOK_LOG_RETENTION_MS, 7 * 24 * 3600 * 1000);
});

const settingsApp = () =>
  webhookApp({
    listen: false,
    resolver: testResolver({
      "hooks.example.com": ["93.184.216.34"],
      "intranet.example.com": ["192.168.10.10"],
    }),
  });

Deno.test("settings: URLs and forwardOn are stored, changed field by field, and cleared", async () => {
  await using ctx = await settingsApp();
  const { user, token } = await signUp(ctx);
  const first = await call(ctx, "POST", "/api/settings", {
    token,
    body: { outputWebhook: "https://HOOKS.example.com/out", forwardOn: true },
  });
  assert.equal(first.status, 200);
  const { updatedAt, ...settings } = first.body.settings as Record<string, unknown>;
  assert.ok(typeof updatedAt === "string");
  assert.deepEqual(settings, {
    outputWebhook: "https://hooks.example.com/out",
    forwardOn: true,
    currency: "USD",
  });

  const second = await call(ctx, "POST", "/api/settings", {
    token,
    body: { updatesWebhook: "https://hooks.example.com/updates" },
  });
  assert.deepEqual(
    { ...second.body.settings as object, updatedAt: undefined },
    {
      outputWebhook: "https://hooks.example.com/out",
      updatesWebhook: "https://hooks.example.com/updates",
      forwardOn: true,
      currency: "USD",
      updatedAt: undefined,
    },
  );
  const cleared = await call(ctx, "POST", "/api/settings", {
    token,
    body: { outputWebhook: null, updatesWebhook: "", forwardOn: false },
  });
  const { updatedAt: _, ...rest } = cleared.body.settings as Record<string, unknown>;
  assert.deepEqual(rest, { forwardOn: false, currency: "USD" });
  const saved = await getSettings(ctx.kv, user.id);
  assert.deepEqual({ ...saved, updatedAt: undefined }, { forwardOn: false, updatedAt: undefined });
  const stored = await ctx.kv.get(keys.settings(user.id));
  assert.ok(stored.versionstamp);

  // A change that changes nothing writes nothing: how the dashboard reads the settings.
  for (const body of [{}, { forwardOn: false }, { outputWebhook: null }]) {
    const same = await call(ctx, "POST", "/api/settings", { token, body });
    assert.equal(same.status, 200);
    assert.deepEqual(same.body.settings, cleared.body.settings);
  }
  assert.equal((await ctx.kv.get(keys.settings(user.id))).versionstamp, stored.versionstamp);
});

Deno.test("settings: URL errors start with the field name; nothing is written", async () => {
  await using ctx = await settingsApp();
  const { user, token } = await signUp(ctx);
  const cases: [Record<string, unknown>, string][] = [
    [{ outputWebhook: "https://127.0.0.2/" }, `outputWebhook: ${PRIVATE}`],
    [{ outputWebhook: "https://intranet.example.com/" }, `outputWebhook: ${PRIVATE}`],
    [{ updatesWebhook: "https://[::ffff:10.0.0.1]/" }, `updatesWebhook: ${PRIVATE}`],
    [{ updatesWebhook: "https://169.254.169.254/" }, `updatesWebhook: ${PRIVATE}`],
    [{ outputWebhook: "http://hooks.example.com/" }, "outputWebhook: must use https"],
    [{ outputWebhook: "https://unknown.example.com/" }, "outputWebhook: host does not resolve"],
    [{ outputWebhook: "not a url" }, "outputWebhook: must be a valid URL"],
    [
      { outputWebhook: "https://hooks.example.com/", updatesWebhook: "https://10.0.0.1/" },
      `updatesWebhook: ${PRIVATE}`,
    ],
  ];
  for (const [body, error] of cases) {
    const res = await call(ctx, "POST", "/api/settings", { token, body });
    assert.deepEqual([res.status, res.body.error], [400, error], JSON.stringify(body));
  }
  for (const body of [{ forwardOn: "yes" }, { outputWebhook: 5 }]) {
    const res = await call(ctx, "POST", "/api/settings", { token, body });
    assert.equal(res.status, 400);
    assert.match(String(res.body.error), new RegExp(`^${Object.keys(body)[0]}: `));
  }
  assert.equal((await ctx.kv.get(keys.settings(user.id))).versionstamp, null);
  assert.deepEqual(await getSettings(ctx.kv, user.id), { forwardOn: false });
});
