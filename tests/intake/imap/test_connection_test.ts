/**
 * "Test connection" against a real Dovecot (scripts/dovecot.ts): a good mailbox, a wrong
 * password, a missing folder, a closed port, the stored password of a source being edited,
 * and the host rule; each answered in seconds, in words.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { startDovecot } from "../../../scripts/dovecot.ts";
import { orderMail } from "../helpers.ts";
import { freePort } from "../../../scripts/service.ts";
import { testMailboxConnection } from "../../../src/intake/imap/test_connection.ts";
import { call, signUp, testApp } from "../../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;
const PATH = "/api/email-sources/test-connection";

Deno.test("test connection: sign-in and folder, answered in words within seconds", async () => {
  await using dovecot = await startDovecot();
  await using ctx = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
  const { token } = await signUp(ctx);
  const { kind: _, ...settings } = dovecot.sourceBody();
  const test = async (body: Record<string, unknown>) => {
    const started = Date.now();
    const res = await call<Body>(ctx, "POST", PATH, { token, body });
    ok(Date.now() - started < 12_000, "answered within the test's bound");
    return res;
  };

  eq(await test(settings).then((r) => [r.status, r.body]), [200, { ok: true, mailbox: "INBOX" }]);
  eq((await test({ ...settings, password: "wrong" })).body, {
    ok: false,
    error: "Sign-in failed: the mailbox refused the username or password",
  });
  eq((await test({ ...settings, mailbox: "Nowhere" })).body, {
    ok: false,
    error: 'Mailbox "Nowhere" not found or not readable',
  });
  const closed = freePort();
  eq((await test({ ...settings, port: closed })).body, {
    ok: false,
    error: `Could not connect to 127.0.0.1:${closed}: connection refused`,
  });
  // The host rule of polling: a private address not allowed is refused before any connection.
  const strict = await call<Body>(ctx, "POST", PATH, {
    token,
    body: { ...settings, host: "10.0.0.1", tls: true },
  });
  equal(strict.body.ok, false);
  equal(strict.body.field, "host");

  // A source being edited: its stored password is used when none is sent.
  const created = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: dovecot.sourceBody(),
  });
  equal(created.status, 201);
  const stored = await test({ sourceId: created.body.source.id });
  eq(stored.body, { ok: true, mailbox: "INBOX" });
  // The stored password is never sent elsewhere: pointing the test at another port or user
  // without the password is refused before any connection, as a PATCH moving the source is.
  const moved = `password: required when host, port, tls, username change`;
  for (const change of [{ port: closed }, { username: "someone-else" }, { tls: !settings.tls }]) {
    const res = await call<Body>(ctx, "POST", PATH, {
      token,
      body: { sourceId: created.body.source.id, ...change },
    });
    eq([res.status, res.body], [400, { error: moved }]);
  }
  const missing = await call<Body>(ctx, "POST", PATH, { token, body: { host: "127.0.0.1" } });
  eq([missing.status, missing.body], [400, { error: "username is required" }]);
  const other = await call<Body>(ctx, "POST", PATH, {
    token: (await signUp(ctx)).token,
    body: { sourceId: created.body.source.id },
  });
  eq([other.status, other.body], [404, { error: "Email source not found" }]);
});

Deno.test("test connection: a server that never greets is 'no answer in time'", async () => {
  await using ctx = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const { port } = listener.addr as Deno.NetAddr;
    const settings = {
      host: "127.0.0.1",
      port,
      tls: false,
      username: "u",
      password: "p",
      mailbox: "INBOX",
    };
    const started = Date.now();
    const result = await testMailboxConnection(ctx.deps, settings, 500);
    ok(Date.now() - started < 3000);
    eq(result, { ok: false, error: `Could not connect to 127.0.0.1:${port}: no answer in time` });
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
});

Deno.test("check now: a mailbox is read at once; a failure is its lastError; forwarding is 400", async () => {
  await using dovecot = await startDovecot();
  await using ctx = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
  const { token } = await signUp(ctx);
  await dovecot.append("INBOX", [{ raw: orderMail(4501) }]);
  const created = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { ...dovecot.sourceBody(), password: "wrong" },
  });
  const path = `/api/email-sources/${created.body.source.id}/check`;
  const failed = await call<Body>(ctx, "POST", path, { token });
  equal(failed.status, 200);
  eq([failed.body.read, failed.body.error, failed.body.source.lastError], [
    0,
    "Sign-in failed: the mailbox refused the username or password",
    "Sign-in failed: the mailbox refused the username or password",
  ]);
  const fixed = await call<Body>(ctx, "PATCH", `/api/email-sources/${created.body.source.id}`, {
    token,
    body: { password: dovecot.password },
  });
  equal(fixed.status, 200);
  const checked = await call<Body>(ctx, "POST", path, { token });
  eq([checked.status, checked.body.error, checked.body.source.lastError], [
    200,
    undefined,
    undefined,
  ]);
  ok(checked.body.source.lastPolledAt);
  const forwarding = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding" },
  });
  const refused = await call<Body>(
    ctx,
    "POST",
    `/api/email-sources/${forwarding.body.source.id}/check`,
    { token },
  );
  eq([refused.status, refused.body], [400, {
    error: "Only a mailbox (imap) source can be checked",
  }]);
});
