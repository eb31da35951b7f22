/**
 * The stored mailbox password goes only where it was given for. The attack: a workspace
 * credential points a source at a server it controls, and the next poll signs in there with
 * the real password. A real Dovecot is the owner's mailbox; the attacker's server is a plain
 * TCP listener that greets like IMAP, accepts everything and records what it is sent.
 */
import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { startDovecot } from "../../../scripts/dovecot.ts";
import { mailboxBinding } from "../../../src/domain/intake/email_source.ts";
import { pollMailbox } from "../../../src/intake/imap/poll.ts";
import { changeEmailSource, getEmailSource } from "../../../src/store/intake/email_sources.ts";
import { orderMail } from "../helpers.ts";
import { call, signUp, testApp } from "../../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

const NO_STOP = new AbortController().signal;
const CANNOT_OPEN = "The mailbox password cannot be decrypted here; set it again";
const PASSWORD_AGAIN = "password: required when host, port, tls, username change";

/** An IMAP-speaking listener that says OK to every command and keeps what it was sent. */
function attackerServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const state = { connections: 0, received: "" };
  const serve = async (conn: Deno.Conn) => {
    state.connections++;
    const enc = new TextEncoder();
    const dec = new TextDecoder();
    try {
      await conn.write(enc.encode("* OK IMAP4rev1 ready\r\n"));
      const buf = new Uint8Array(4096);
      let pending = "";
      for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
        const text = dec.decode(buf.subarray(0, n));
        state.received += text;
        pending += text;
        let end: number;
        while ((end = pending.indexOf("\r\n")) >= 0) {
          const tag = pending.slice(0, end).split(" ")[0];
          pending = pending.slice(end + 2);
          await conn.write(enc.encode(`${tag} OK done\r\n`));
        }
      }
    } catch { /* the client hung up */ }
    conn.close();
  };
  const accepting = (async () => {
    for await (const conn of listener) serve(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    state,
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting;
    },
  };
}

async function mailboxWorld() {
  const dovecot = await startDovecot();
  const ctx = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
  const { token, user } = await signUp(ctx);
  const created = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: dovecot.sourceBody(),
  });
  equal(created.status, 201, JSON.stringify(created.body));
  const id: string = created.body.source.id;
  const stored = async () => (await getEmailSource(ctx.kv, user.id, id))!;
  const poll = async () => await pollMailbox(ctx.deps, user.id, await stored(), NO_STOP);
  return {
    dovecot,
    ctx,
    token,
    userId: user.id,
    id,
    stored,
    poll,
    async [Symbol.asyncDispose]() {
      await ctx.close();
      await dovecot.close();
    },
  };
}

Deno.test("imap password: moving a source needs the password again; a moved stored password never opens", async () => {
  await using w = await mailboxWorld();
  await using attacker = attackerServer();
  const patch = (body: Body) =>
    call<Body>(w.ctx, "PATCH", `/api/email-sources/${w.id}`, { token: w.token, body });

  // The attack through the API: each field the password is bound to, alone or together.
  for (
    const body of [
      { port: attacker.port },
      { host: "localhost" },
      { tls: true },
      { username: "attacker" },
      { host: "127.0.0.1", port: attacker.port, name: "Mine now" },
    ]
  ) {
    const res = await patch(body);
    eq([res.status, res.body], [400, { error: PASSWORD_AGAIN }], JSON.stringify(body));
  }
  const before = await w.stored();
  eq([before.port, before.username, before.name], [w.dovecot.port, "buyer", "Mailbox 127.0.0.1"]);
  // Sending a field's current value, or fields the password is not bound to, is no move.
  const same = await patch({ host: "127.0.0.1", port: w.dovecot.port, name: "Shop mail" });
  eq([same.status, same.body.source.name], [200, "Shop mail"]);
  equal((await w.stored()).sealedPassword, before.sealedPassword);

  // Around the API (a store-level change): the password does not open for the new port.
  await changeEmailSource(w.ctx.kv, w.userId, w.id, (s) => ({ ...s, port: attacker.port }));
  equal((await w.poll()).error, CANNOT_OPEN);
  equal(attacker.state.connections, 0);
  equal((await w.stored()).lastError, CANNOT_OPEN);

  // With the password given again, the source goes there, with that password only.
  const moved = await patch({ port: attacker.port, password: "given-for-this-server" });
  eq([moved.status, moved.body.source.port], [200, attacker.port]);
  await w.poll();
  equal(attacker.state.connections, 1);
  ok(attacker.state.received.includes("given-for-this-server"), attacker.state.received);
  ok(!attacker.state.received.includes(w.dovecot.password));
});

Deno.test("imap password: one sealed before bindings (the id alone) still signs in where it was given, then is bound there", async () => {
  await using w = await mailboxWorld();
  await using attacker = attackerServer();
  await w.dovecot.append("INBOX", [{ raw: orderMail(5120) }]);
  // As the service sealed mailbox passwords before: v1, for the source's id alone.
  const legacy = await w.ctx.deps.secrets!.seal(w.dovecot.password, w.id);
  await changeEmailSource(w.ctx.kv, w.userId, w.id, (s) => ({ ...s, sealedPassword: legacy }));

  const first = await w.poll();
  eq([first.error, first.read], [undefined, 1]);
  const bound = (await w.stored()).sealedPassword!;
  ok(bound.startsWith("v2."), bound);
  const box = w.ctx.deps.secrets!;
  equal(await box.open(bound, w.id, mailboxBinding(await w.stored())), w.dovecot.password);
  equal(await box.open(bound, w.id), null, "no longer opens with the id alone");
  eq((await w.poll()).error, undefined);

  // Now bound: pointed elsewhere around the API, it opens for nobody.
  await changeEmailSource(w.ctx.kv, w.userId, w.id, (s) => ({ ...s, port: attacker.port }));
  equal((await w.poll()).error, CANNOT_OPEN);
  equal(attacker.state.connections, 0);
});
