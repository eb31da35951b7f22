import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import { checkout, decline } from "./helpers.ts";

interface Config {
  submitUrl?: string;
  enabled: boolean;
}

async function issue(ctx: TestContext, token: string): Promise<string> {
  const res = await call<Config>(ctx, "POST", "/api/embed-copier/rotate", { token });
  equal(res.status, 200);
  return new URL(res.body.submitUrl!).pathname;
}

const submit = (ctx: TestContext, path: string, body: unknown, ip = "192.0.2.1") =>
  call(ctx, "POST", path, { body, headers: { "x-forwarded-for": ip } });

Deno.test("embed copier: no URL until the first rotate; a rotate replaces it and the old one answers 401", async () => {
  await using ctx = await testApp({ BASE_URL: "https://tracker.example" });
  const { token } = await signUp(ctx);
  eq((await call(ctx, "GET", "/api/embed-copier/config", { token })).body, { enabled: false });
  const first = await call<Config>(ctx, "POST", "/api/embed-copier/rotate", { token });
  equal(first.status, 200);
  match(
    first.body.submitUrl!,
    /^https:\/\/tracker\.example\/api\/embed-copier\/submit\/[\w-]{32}$/,
  );
  eq(first.body.enabled, true);
  eq((await call(ctx, "GET", "/api/embed-copier/config", { token })).body, first.body);

  const oldPath = new URL(first.body.submitUrl!).pathname;
  equal((await submit(ctx, oldPath, { embeds: checkout().embeds })).status, 202);
  const second = await issue(ctx, token);
  ok(second !== oldPath);
  const stale = await submit(ctx, oldPath, { embeds: checkout().embeds });
  eq([stale.status, stale.body], [401, { error: "Unauthorized" }]);
  equal((await submit(ctx, second, { embeds: checkout().embeds })).status, 202);
  for (
    const path of ["/api/embed-copier/submit/nope", `/api/embed-copier/submit/${"x".repeat(3000)}`]
  ) {
    eq((await submit(ctx, path, { embeds: [] })).status, 401);
  }
  equal((await call(ctx, "POST", "/api/embed-copier/rotate")).status, 401);
});

Deno.test("embed copier: submissions read like chat posts; a repeated messageId is a duplicate with no new order", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const path = await issue(ctx, token);
  const created = await submit(ctx, path, {
    embeds: checkout().embeds,
    messageId: "1300000000000000001",
  });
  eq(created.body, { ok: true, orderId: created.body.orderId, merged: false });
  const again = await submit(ctx, path, {
    embeds: checkout().embeds,
    messageId: "1300000000000000001",
  });
  eq([again.status, again.body], [202, { ok: true, duplicate: true }]);
  const other = await submit(ctx, path, {
    embeds: checkout({ Order: "E-2" }).embeds,
    messageId: "1300000000000000002",
  });
  eq(other.body.merged, false);
  const declined = await submit(ctx, path, { embeds: decline().embeds, messageId: "13000003" });
  eq(declined.body, { ok: true, ignored: true });
  eq((await call(ctx, "GET", "/api/orders", { token })).body.total, 2);
  const order = await call<{ order: Record<string, unknown> }>(
    ctx,
    "GET",
    `/api/orders/${created.body.orderId}`,
    { token },
  );
  eq([order.body.order.source, order.body.order.sourceId], ["chat", undefined]);

  const bad = await submit(ctx, path, { embeds: [], messageId: "x".repeat(101) });
  eq([bad.status, bad.body], [400, {
    error: "messageId: Too big: expected string to have <=100 characters",
  }]);
});

Deno.test("embed copier: 30 submissions a minute per workspace, whatever the address", async () => {
  await using ctx = await testApp();
  const a = await signUp(ctx);
  const b = await signUp(ctx);
  const pathA = await issue(ctx, a.token);
  const pathB = await issue(ctx, b.token);
  for (let i = 0; i < 30; i++) {
    equal((await submit(ctx, pathA, { embeds: [] }, `192.0.2.${i}`)).status, 202);
  }
  const refused = await submit(ctx, pathA, { embeds: [] }, "192.0.2.99");
  eq([refused.status, refused.body], [429, { error: "Too many submissions" }]);
  equal((await submit(ctx, pathB, { embeds: [] })).status, 202);
});

Deno.test("embed samples: ignored posts, newest first, deletable; another account's are a 404", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const other = await signUp(ctx);
  const path = await issue(ctx, token);
  await submit(ctx, path, { embeds: decline().embeds });
  await submit(ctx, path, { embeds: [{ title: "Monitor: restock", description: "Dunk Low" }] });
  await submit(ctx, path, { embeds: checkout().embeds });
  const list = await call<{ items: { id: string; why: string; embed: unknown }[] }>(
    ctx,
    "GET",
    "/api/embed-samples",
    { token },
  );
  eq(list.body.items.map((s) => s.why), [
    'monitor: header says "monitor"',
    'decline: header says "declined"',
  ]);
  eq(list.body.items[0].embed, { title: "Monitor: restock", description: "Dunk Low", fields: [] });
  eq((await call(ctx, "GET", "/api/embed-samples", { token: other.token })).body, { items: [] });

  const id = list.body.items[1].id;
  const notFound = { error: "Embed sample not found" };
  eq(
    (await call(ctx, "DELETE", `/api/embed-samples/${id}`, { token: other.token })).body,
    notFound,
  );
  eq((await call(ctx, "DELETE", `/api/embed-samples/${id}`, { token })).body, { ok: true });
  const gone = await call(ctx, "DELETE", `/api/embed-samples/${id}`, { token });
  eq([gone.status, gone.body], [404, notFound]);
  eq(
    (await call<{ items: unknown[] }>(ctx, "GET", "/api/embed-samples", { token })).body.items
      .length,
    1,
  );
});

Deno.test("the user script is served as JavaScript, for the chat web client, sending only to this service", async () => {
  await using ctx = await testApp({ BASE_URL: "https://tracker.example" });
  const res = await ctx.app.request("/api/embed-copier/userscript.js");
  equal(res.status, 200);
  equal(res.headers.get("content-type"), "text/javascript; charset=utf-8");
  const text = await res.text();
  ok(text.startsWith("// ==UserScript==\n"));
  for (
    const line of [
      "// @match        https://discord.com/channels/*",
      "// @connect      tracker.example",
      "// @downloadURL  https://tracker.example/api/embed-copier/userscript.js",
      "// @grant        GM_xmlhttpRequest",
    ]
  ) ok(text.includes(`${line}\n`), line);
  // It is a script the browser can parse.
  new Function(text.replace(/^\/\/.*$/gm, ""));
});
