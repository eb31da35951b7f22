import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { startDovecot } from "../../scripts/dovecot.ts";
import { pollMailboxes } from "../../src/intake/imap/poll.ts";
import { getEmailSource } from "../../src/store/intake/email_sources.ts";
import { keys } from "../../src/store/keys.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";
import { message, orderMail } from "./helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

const DAY = 86_400_000;
const KEY = "inbound-key-0123456789";

/** A receipt no built-in template reads, until the custom one below exists. */
const RECEIPT = message({
  from: "Corner Shop <receipts@corner.example>",
  subject: "Receipt R-7781",
  body: "Thanks!\nRef R-7781\nYou bought: Walnut desk lamp\nPaid EUR 89,00",
  messageId: "<receipt-7781@corner.example>",
});

async function setup(env: Record<string, string> = {}) {
  const clock = { now: Date.now() };
  const ctx = await testApp({ INBOUND_MAIL_KEY: KEY, ...env }, { now: () => clock.now });
  const { token, user } = await signUp(ctx);
  return { ctx, token, userId: user.id, clock };
}

async function eventCount(ctx: TestContext, userId: string): Promise<number> {
  let n = 0;
  for await (const _ of ctx.kv.list({ prefix: keys.events(userId) })) n++;
  return n;
}

async function orders(ctx: TestContext, token: string): Promise<Body[]> {
  const res = await call<Body>(ctx, "GET", "/api/orders?limit=100", { token });
  return res.body.items;
}

const rebuild = (ctx: TestContext, token: string, id: string, body: unknown) =>
  call<Body>(ctx, "POST", `/api/email-sources/${id}/rebuild`, { token, body });

Deno.test("rebuild: sinceDays 1 to 365, the caller's own sources only", async () => {
  const { ctx, token } = await setup();
  await using _ = ctx;
  const source = (await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding" },
  })).body.source;
  const cases: [unknown, string][] = [
    [{}, "sinceDays is required"],
    [{ sinceDays: 0 }, "sinceDays: Too small: expected number to be >=1"],
    [{ sinceDays: 366 }, "sinceDays: Too big: expected number to be <=365"],
    [{ sinceDays: 1.5 }, "sinceDays: Invalid input: expected int, received number"],
    [{ sinceDays: "30" }, "sinceDays: Invalid input: expected number, received string"],
  ];
  for (const [body, error] of cases) {
    const res = await rebuild(ctx, token, source.id, body);
    eq([res.status, res.body], [400, { error }], JSON.stringify(body));
  }
  const unknown = await rebuild(ctx, token, "email_nope", { sinceDays: 30 });
  eq([unknown.status, unknown.body], [404, { error: "Email source not found" }]);
  const other = await signUp(ctx, { email: "other@example.com" });
  const foreign = await rebuild(ctx, other.token, source.id, { sinceDays: 30 });
  eq([foreign.status, foreign.body], [404, { error: "Email source not found" }]);
  const first = await rebuild(ctx, token, source.id, { sinceDays: 1 });
  eq([first.status, first.body], [202, { ok: true }]);
  await ctx.deps.background.drain();
  eq((await rebuild(ctx, token, source.id, { sinceDays: 365 })).status, 202);
  await ctx.deps.background.drain();
});

Deno.test("rebuild: a forwarding source's stored messages in the window are read again with today's templates, without events", async () => {
  const { ctx, token, userId, clock } = await setup({ MAIL_DOMAIN: "in.example.com" });
  await using _ = ctx;
  const source = (await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding" },
  })).body.source;
  const deliver = (raw: string) =>
    call<Body>(ctx, "POST", "/api/inbound/mail", {
      body: { to: source.forwardingAddress, raw },
      headers: { "x-service-inbound-key": KEY },
    });
  equal((await deliver(RECEIPT)).status, 422);
  equal((await deliver(orderMail(5401))).status, 202);
  equal(await eventCount(ctx, userId), 1);

  // Today's templates read the receipt and read the shop's total differently.
  for (
    const template of [
      {
        name: "Corner",
        match: { from: "@corner.example" },
        fields: { orderNumber: "Ref (R-\\d+)", itemSummary: "You bought: (.+)" },
      },
      {
        name: "Shop totals",
        match: { from: "@shop.example" },
        fields: { total: "Total: \\$(\\S+)" },
      },
    ]
  ) {
    equal(
      (await call(ctx, "POST", "/api/templates/custom", { token, body: template })).status,
      201,
    );
  }
  clock.now += 10 * DAY;
  // Ten days later, a five-day window holds neither message.
  equal((await rebuild(ctx, token, source.id, { sinceDays: 5 })).status, 202);
  await ctx.deps.background.drain();
  const [before] = await orders(ctx, token);
  eq([before.orderNumber, before.total], ["5401", "$40.00"]);

  equal((await rebuild(ctx, token, source.id, { sinceDays: 30 })).status, 202);
  await ctx.deps.background.drain();
  eq(
    (await orders(ctx, token)).map((o) => [o.orderNumber, o.itemSummary, o.total]).sort(),
    [["5401", before.itemSummary, "40.00"], ["R-7781", "Walnut desk lamp", undefined]],
  );
  equal(await eventCount(ctx, userId), 1, "a rebuild fires no events");
  const inbox = await call<Body>(ctx, "GET", `/api/inbox?sourceId=${source.id}`, { token });
  eq(inbox.body.items.map((e: Body) => e.outcome), ["created", "created", "unreadable"]);

  // Once more: nothing new is stored or logged.
  equal((await rebuild(ctx, token, source.id, { sinceDays: 30 })).status, 202);
  await ctx.deps.background.drain();
  const after = await call<Body>(ctx, "GET", `/api/inbox?sourceId=${source.id}`, { token });
  equal(after.body.total, 3);
});

Deno.test("rebuild: 409 while a rebuild of the source runs (its lease), 202 once it is over", async () => {
  const { ctx, token, clock } = await setup();
  await using _ = ctx;
  const source = (await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding" },
  })).body.source;
  // Another process is rebuilding it.
  await ctx.kv.set(keys.lease(`email-rebuild:${source.id}`), {
    owner: "other",
    until: clock.now + 60_000,
  });
  const busy = await rebuild(ctx, token, source.id, { sinceDays: 30 });
  eq([busy.status, busy.body], [409, { error: "A rebuild of this source is already running" }]);
  clock.now += 61_000;
  equal((await rebuild(ctx, token, source.id, { sinceDays: 30 })).status, 202);
  await ctx.deps.background.drain();
  equal((await ctx.kv.get(keys.lease(`email-rebuild:${source.id}`))).versionstamp, null);
});

Deno.test("rebuild: an imap source's mailbox is read again over the window, without events; a failure is its lastError", async () => {
  await using dovecot = await startDovecot();
  const { ctx, token, userId, clock } = await setup({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
  await using _ = ctx;
  await dovecot.append("INBOX", [
    { raw: orderMail(5501), date: new Date(clock.now - 40 * DAY) },
    { raw: orderMail(5502), date: new Date(clock.now - 3 * DAY) },
    { raw: orderMail(5503), date: new Date(clock.now - 200 * DAY) },
  ]);
  const body = dovecot.sourceBody();
  const source = (await call<Body>(ctx, "POST", "/api/email-sources", { token, body })).body
    .source;
  await pollMailboxes(ctx.deps, new AbortController().signal);
  eq((await orders(ctx, token)).map((o) => o.orderNumber), ["5502"]);

  equal((await rebuild(ctx, token, source.id, { sinceDays: 60 })).status, 202);
  await ctx.deps.background.drain();
  eq((await orders(ctx, token)).map((o) => o.orderNumber).sort(), ["5501", "5502"]);
  equal(await eventCount(ctx, userId), 0);
  const inbox = await call<Body>(ctx, "GET", `/api/inbox?sourceId=${source.id}`, { token });
  equal(inbox.body.total, 2, "the copy already stored is not logged again");

  const wrong = (await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { ...body, password: "not-it" },
  })).body.source;
  equal((await rebuild(ctx, token, wrong.id, { sinceDays: 365 })).status, 202);
  await ctx.deps.background.drain();
  equal(
    (await getEmailSource(ctx.kv, userId, wrong.id))!.lastError,
    "Sign-in failed: the mailbox refused the username or password",
  );
});

Deno.test("rebuild progress: null before any, counts while it runs, finishedAt at the end; 404 for others' sources", async () => {
  const { ctx, token, clock } = await setup({ MAIL_DOMAIN: "in.example.com" });
  await using _ = ctx;
  const source = (await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding" },
  })).body.source;
  const progress = (id: string, as = token) =>
    call<Body>(ctx, "GET", `/api/email-sources/${id}/rebuild`, { token: as });
  eq([(await progress(source.id)).status, (await progress(source.id)).body], [200, {
    rebuild: null,
  }]);
  for (const n of [6101, 6102, 6103]) {
    const res = await call(ctx, "POST", "/api/inbound/mail", {
      body: { to: source.forwardingAddress, raw: orderMail(n) },
      headers: { "x-service-inbound-key": KEY },
    });
    equal(res.status, 202);
  }
  clock.now += DAY;
  equal((await rebuild(ctx, token, source.id, { sinceDays: 7 })).status, 202);
  await ctx.deps.background.drain();
  const done = await progress(source.id);
  equal(done.status, 200);
  const at = new Date(clock.now).toISOString();
  eq(done.body, {
    rebuild: {
      startedAt: at,
      sinceDays: 7,
      read: 3,
      stored: 0,
      reparsed: 3,
      finishedAt: at,
    },
  });

  const other = await signUp(ctx, { email: "someone-else@example.com" });
  eq([(await progress(source.id, other.token)).status], [404]);
  eq((await progress("email_nope")).body, { error: "Email source not found" });
  // Deleting the source deletes its progress with it.
  equal((await call(ctx, "DELETE", `/api/email-sources/${source.id}`, { token })).status, 200);
  let left = 0;
  for await (const e of ctx.kv.list({ prefix: ["ws"] })) {
    if (e.key.includes("email_rebuild")) left++;
  }
  equal(left, 0);
});
