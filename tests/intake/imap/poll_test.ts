/**
 * Mailbox polling against a real Dovecot (scripts/dovecot.ts): first read, history without
 * events, new mail with events, UIDVALIDITY, bounds, failures, leases, TLS and the host rule.
 */
import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { type Dovecot, DOVECOT_TLS, startDovecot } from "../../../scripts/dovecot.ts";
import type { StoredEmailSource } from "../../../src/domain/intake/email_source.ts";
import { pollMailbox, pollMailboxes } from "../../../src/intake/imap/poll.ts";
import { getEmailSource, getMailboxCursor } from "../../../src/store/intake/email_sources.ts";
import { keys } from "../../../src/store/keys.ts";
import { message, orderMail } from "../helpers.ts";
import { call, signUp, testApp, type TestContext } from "../../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

const DAY = 86_400_000;
const MINUTE = 60_000;
const NO_STOP = new AbortController().signal;

/** Names resolved by the test: `receiver.test` (the certificate's name) is loopback. */
const names = new Map<string, string[]>([["receiver.test", ["127.0.0.1"]]]);
const resolver = { resolve: (host: string) => Promise.resolve(names.get(host) ?? []) };

interface World {
  ctx: TestContext;
  token: string;
  userId: string;
  clock: { now: number };
}

async function world(): Promise<World> {
  const clock = { now: Date.now() };
  const ctx = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" }, {
    now: () => clock.now,
    deps: { outbound: { resolver, ca: [DOVECOT_TLS.ca] } },
  });
  const { token, user } = await signUp(ctx);
  return { ctx, token, userId: user.id, clock };
}

async function mailboxSource(w: World, dovecot: Dovecot, body: Body = {}): Promise<Body> {
  const created = await call<Body>(w.ctx, "POST", "/api/email-sources", {
    token: w.token,
    body: { ...dovecot.sourceBody(), ...body },
  });
  equal(created.status, 201, JSON.stringify(created.body));
  return created.body.source;
}

async function storedSource(w: World, id: string): Promise<StoredEmailSource> {
  return (await getEmailSource(w.ctx.kv, w.userId, id))!;
}

async function eventTypes(w: World): Promise<string[]> {
  const out: string[] = [];
  for await (const e of w.ctx.kv.list<{ type: string }>({ prefix: keys.events(w.userId) })) {
    out.push(e.value.type);
  }
  return out;
}

async function inbox(w: World, sourceId: string): Promise<Body[]> {
  const res = await call<Body>(w.ctx, "GET", `/api/inbox?sourceId=${sourceId}`, { token: w.token });
  return res.body.items;
}

async function orderNumbers(w: World): Promise<string[]> {
  const res = await call<Body>(w.ctx, "GET", "/api/orders?limit=100", { token: w.token });
  return res.body.items.map((o: Body) => o.orderNumber).sort();
}

Deno.test("imap: the first poll imports the last 30 days without events; new mail comes with events", async () => {
  await using dovecot = await startDovecot();
  const w = await world();
  await using _ = w.ctx;
  const now = w.clock.now;
  await dovecot.append("INBOX", [
    { raw: orderMail(4401), date: new Date(now - 40 * DAY) },
    { raw: orderMail(4402), date: new Date(now - 3 * DAY) },
    {
      raw: message({ from: "news@shop.example", subject: "Our spring sale", body: "50% off" }),
      date: new Date(now - DAY),
    },
  ]);
  const source = await mailboxSource(w, dovecot);

  eq(await pollMailboxes(w.ctx.deps, NO_STOP), { polled: 1, failed: 0 });
  eq(await orderNumbers(w), ["4402"]);
  eq((await inbox(w, source.id)).map((e) => e.outcome).sort(), ["created", "ignored"]);
  eq(await eventTypes(w), [], "history fires no events");
  const polled = await storedSource(w, source.id);
  equal(polled.lastPolledAt, new Date(now).toISOString());
  equal(polled.lastError, undefined);
  const cursor = (await getMailboxCursor(w.ctx.kv, w.userId, source.id))!;
  eq([cursor.lastUid, cursor.historyUntil], [3, 3]);

  // Not due again within the interval.
  eq(await pollMailboxes(w.ctx.deps, NO_STOP), { polled: 0, failed: 0 });

  await dovecot.append("INBOX", [{ raw: orderMail(4403) }, { raw: orderMail(4402) }]);
  w.clock.now += 5 * MINUTE;
  eq(await pollMailboxes(w.ctx.deps, NO_STOP), { polled: 1, failed: 0 });
  eq(await orderNumbers(w), ["4402", "4403"]);
  eq(await eventTypes(w), ["order.created"], "new mail fires its events");
  const entries = await inbox(w, source.id);
  eq(entries.map((e) => e.outcome), ["duplicate", "created", "ignored", "created"]);
  equal((await getMailboxCursor(w.ctx.kv, w.userId, source.id))!.lastUid, 5);

  // Nothing new: nothing read, nothing logged.
  w.clock.now += 5 * MINUTE;
  const again = await pollMailbox(w.ctx.deps, w.userId, await storedSource(w, source.id), NO_STOP);
  eq(again, { read: 0, tooLarge: 0, more: false });
  equal((await inbox(w, source.id)).length, 4);
});

Deno.test("imap: a new UIDVALIDITY reads the window again; messages already stored are not logged again", async () => {
  await using dovecot = await startDovecot();
  const w = await world();
  await using _ = w.ctx;
  await dovecot.append("Orders", [{ raw: orderMail(4410) }, { raw: orderMail(4411) }]);
  const source = await mailboxSource(w, dovecot, { mailbox: "Orders" });
  await pollMailboxes(w.ctx.deps, NO_STOP);
  const before = (await getMailboxCursor(w.ctx.kv, w.userId, source.id))!;
  equal(before.lastUid, 2);

  const admin = await dovecot.admin();
  await admin.mailboxDelete("Orders");
  await admin.logout();
  await dovecot.append("Orders", [{ raw: orderMail(4410) }, { raw: orderMail(4411) }, {
    raw: orderMail(4412),
  }]);
  w.clock.now += 5 * MINUTE;
  eq(await pollMailboxes(w.ctx.deps, NO_STOP), { polled: 1, failed: 0 });
  const after = (await getMailboxCursor(w.ctx.kv, w.userId, source.id))!;
  ok(after.uidValidity !== before.uidValidity);
  eq([after.lastUid, after.historyUntil], [3, 3]);
  eq(await orderNumbers(w), ["4410", "4411", "4412"]);
  equal((await inbox(w, source.id)).length, 3, "no duplicate entries for the re-read copies");
  eq(await eventTypes(w), [], "all of it was in the mailbox at the new validity: history");
});

Deno.test("imap: at most maxMessages per poll, the rest next tick; messages over 2 MiB are skipped", async () => {
  await using dovecot = await startDovecot();
  const w = await world();
  await using _ = w.ctx;
  const huge = message({
    from: "orders@shop.example",
    subject: "Order #99",
    body: "x".repeat(2 * 1024 * 1024 + 10),
  });
  await dovecot.append("INBOX", [
    { raw: orderMail(4421) },
    { raw: huge },
    { raw: orderMail(4422) },
    { raw: orderMail(4423) },
    { raw: orderMail(4424) },
  ]);
  const source = await mailboxSource(w, dovecot);
  const limits = { maxMessages: 2, sessionMs: 60_000, concurrency: 1 };
  const poll = async () =>
    await pollMailbox(w.ctx.deps, w.userId, await storedSource(w, source.id), NO_STOP, limits);
  eq(await poll(), { read: 1, tooLarge: 1, more: true });
  eq(await poll(), { read: 2, tooLarge: 0, more: true });
  eq(await poll(), { read: 1, tooLarge: 0, more: false });
  eq(await orderNumbers(w), ["4421", "4422", "4423", "4424"]);
  eq(await eventTypes(w), [], "the rest of the history stays history");
  equal((await getMailboxCursor(w.ctx.kv, w.userId, source.id))!.lastUid, 5);
});

Deno.test("imap: failures leave a clear lastError, the source stays, the other sources go on", async () => {
  await using dovecot = await startDovecot();
  const w = await world();
  await using _ = w.ctx;
  await dovecot.append("INBOX", [{ raw: orderMail(4431) }]);
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const downPort = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const sources = {
    good: await mailboxSource(w, dovecot),
    password: await mailboxSource(w, dovecot, { password: "wrong-password" }),
    down: await mailboxSource(w, dovecot, { port: downPort }),
    tlsName: await mailboxSource(w, dovecot, { tls: true, port: dovecot.tlsPort }),
    mailbox: await mailboxSource(w, dovecot, { mailbox: "Missing" }),
  };
  eq(await pollMailboxes(w.ctx.deps, NO_STOP), { polled: 5, failed: 4 });
  const errors: Record<string, string | undefined> = {};
  for (const [name, s] of Object.entries(sources)) {
    const stored = await storedSource(w, s.id);
    ok(stored.lastPolledAt, name);
    errors[name] = stored.lastError;
  }
  eq(errors, {
    good: undefined,
    password: "Sign-in failed: the mailbox refused the username or password",
    down: `Could not connect to 127.0.0.1:${downPort}: connection refused`,
    tlsName: `TLS failure: the certificate of 127.0.0.1:${dovecot.tlsPort} is not for 127.0.0.1`,
    mailbox: 'Mailbox "Missing" not found or not readable',
  });
  eq(await orderNumbers(w), ["4431"]);
  // The API shows the error; fixing the password clears it at the next poll.
  const shown = await call<Body>(w.ctx, "GET", `/api/email-sources/${sources.password.id}`, {
    token: w.token,
  });
  equal(shown.body.source.lastError, errors.password);
  await call(w.ctx, "PATCH", `/api/email-sources/${sources.password.id}`, {
    token: w.token,
    body: { password: dovecot.password },
  });
  w.clock.now += 5 * MINUTE;
  await pollMailboxes(w.ctx.deps, NO_STOP);
  equal((await storedSource(w, sources.password.id)).lastError, undefined);
});

Deno.test("imap: TLS to the checked address with the host's name; an untrusted root and a changed DNS answer fail", async () => {
  await using dovecot = await startDovecot();
  const w = await world();
  await using _ = w.ctx;
  await dovecot.append("INBOX", [{ raw: orderMail(4441) }]);
  const source = await mailboxSource(w, dovecot, {
    host: "receiver.test",
    tls: true,
    port: dovecot.tlsPort,
  });
  eq(await pollMailboxes(w.ctx.deps, NO_STOP), { polled: 1, failed: 0 });
  eq(await orderNumbers(w), ["4441"]);

  // The host is checked again at every poll: DNS now points it at a private address.
  names.set("receiver.test", ["192.168.7.7"]);
  try {
    w.clock.now += 5 * MINUTE;
    await pollMailboxes(w.ctx.deps, NO_STOP);
    equal(
      (await storedSource(w, source.id)).lastError,
      "host: URL cannot point at private or loopback addresses",
    );
  } finally {
    names.set("receiver.test", ["127.0.0.1"]);
  }

  // Without the tests' root, the certificate is not trusted.
  const clock = { now: Date.now() };
  await using strict = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" }, {
    now: () => clock.now,
    deps: { outbound: { resolver } },
  });
  const other = await signUp(strict);
  const created = await call<Body>(strict, "POST", "/api/email-sources", {
    token: other.token,
    body: {
      kind: "imap",
      host: "receiver.test",
      port: dovecot.tlsPort,
      username: dovecot.username,
      password: dovecot.password,
    },
  });
  await pollMailboxes(strict.deps, NO_STOP);
  const stored = (await getEmailSource(strict.kv, other.user.id, created.body.source.id))!;
  equal(
    stored.lastError,
    `TLS failure: the certificate of receiver.test:${dovecot.tlsPort} is not trusted`,
  );
});

Deno.test("imap: one process polls a source at a time (its lease); inactive and deleted sources are not polled", async () => {
  await using dovecot = await startDovecot();
  const w = await world();
  await using _ = w.ctx;
  await dovecot.append("INBOX", [{ raw: orderMail(4451) }]);
  const leased = await mailboxSource(w, dovecot);
  const inactive = await mailboxSource(w, dovecot, { active: false });
  const deleted = await mailboxSource(w, dovecot);
  await call(w.ctx, "DELETE", `/api/email-sources/${deleted.id}`, { token: w.token });
  // Another process holds the lease.
  await w.ctx.kv.set(keys.lease(`imap-poll:${leased.id}`), {
    owner: "other",
    until: w.clock.now + 60_000,
  });
  eq(await pollMailboxes(w.ctx.deps, NO_STOP), { polled: 0, failed: 0 });
  equal((await storedSource(w, leased.id)).lastPolledAt, undefined);
  equal((await storedSource(w, inactive.id)).lastPolledAt, undefined);
  eq(await orderNumbers(w), []);
  equal((await w.ctx.kv.get(keys.mailboxToPoll(w.userId, deleted.id))).versionstamp, null);

  // Once the lease has run out, this process takes it.
  w.clock.now += 61_000;
  eq(await pollMailboxes(w.ctx.deps, NO_STOP), { polled: 1, failed: 0 });
  eq(await orderNumbers(w), ["4451"]);
  match((await storedSource(w, leased.id)).lastPolledAt!, /^\d{4}-/);
});

Deno.test("imap: a server that never answers costs one session's deadline, then a clear lastError", async () => {
  const w = await world();
  await using _ = w.ctx;
  // Accepts connections and says nothing.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  try {
    const port = (silent.addr as Deno.NetAddr).port;
    const created = await call<Body>(w.ctx, "POST", "/api/email-sources", {
      token: w.token,
      body: { kind: "imap", host: "127.0.0.1", port, tls: false, username: "u", password: "p" },
    });
    const source = await storedSource(w, created.body.source.id);
    const started = performance.now();
    const limits = { maxMessages: 10, sessionMs: 500, concurrency: 1 };
    const result = await pollMailbox(w.ctx.deps, w.userId, source, NO_STOP, limits);
    const took = performance.now() - started;
    eq(result, {
      read: 0,
      tooLarge: 0,
      more: false,
      error: `Could not connect to 127.0.0.1:${port}: no answer in time`,
    });
    ok(took < 3000, `took ${took} ms`);
    equal((await storedSource(w, source.id)).lastError, result.error);
  } finally {
    silent.close();
    await accepting;
    for (const conn of held) conn.close();
  }
});
