import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { findForwardingTarget } from "../../src/store/intake/email_sources.ts";
import { call, signUp, testApp } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

Deno.test("email sources: a forwarding source gets an address at MAIL_DOMAIN; CRUD and paging", async () => {
  await using ctx = await testApp({ MAIL_DOMAIN: "in.example.com" });
  const { token, user } = await signUp(ctx);
  const created = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding", allowedSenders: ["Orders@Shop.example", "@Brand.example"] },
  });
  equal(created.status, 201);
  const source = created.body.source;
  match(source.id, /^email_/);
  match(source.forwardingAddress, /^[0-9a-f]{20}@in\.example\.com$/);
  eq(
    { ...source, id: 0, forwardingAddress: 0, createdAt: 0 },
    {
      id: 0,
      kind: "forwarding",
      name: "Forwarding address",
      allowedSenders: ["orders@shop.example", "@brand.example"],
      active: true,
      createdAt: 0,
      forwardingAddress: 0,
    },
  );
  const slug = source.forwardingAddress.split("@")[0];
  eq(await findForwardingTarget(ctx.kv, slug), { userId: user.id, sourceId: source.id });

  const second = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding", name: "Second" },
  });
  const page = await call<Body>(ctx, "GET", "/api/email-sources?limit=1", { token });
  equal(page.status, 200);
  eq(page.body.items.map((s: Body) => s.id), [second.body.source.id]);
  eq([page.body.total, page.body.limit, page.body.offset, page.body.hasMore], [2, 1, 0, true]);

  const patched = await call<Body>(ctx, "PATCH", `/api/email-sources/${source.id}`, {
    token,
    body: { name: "Shops", active: false, allowedSenders: [] },
  });
  equal(patched.status, 200);
  eq([patched.body.source.name, patched.body.source.active], ["Shops", false]);
  eq(patched.body.source.allowedSenders, []);
  equal(patched.body.source.forwardingAddress, source.forwardingAddress);

  const bad = await call<Body>(ctx, "PATCH", `/api/email-sources/${source.id}`, {
    token,
    body: { allowedSenders: ["not an address"] },
  });
  eq([bad.status, bad.body], [400, { error: "allowedSenders.0: must be an address or @domain" }]);
  const imapField = await call<Body>(ctx, "PATCH", `/api/email-sources/${source.id}`, {
    token,
    body: { host: "imap.example.com" },
  });
  eq([imapField.status, imapField.body], [400, { error: "host: only for imap sources" }]);

  equal((await call(ctx, "DELETE", `/api/email-sources/${source.id}`, { token })).status, 200);
  equal(await findForwardingTarget(ctx.kv, slug), null);
  const gone = await call<Body>(ctx, "GET", `/api/email-sources/${source.id}`, { token });
  eq([gone.status, gone.body], [404, { error: "Email source not found" }]);

  const other = await signUp(ctx, { email: "other@example.com" });
  const foreign = await call<Body>(ctx, "GET", `/api/email-sources/${second.body.source.id}`, {
    token: other.token,
  });
  eq([foreign.status, foreign.body], [404, { error: "Email source not found" }]);
});

Deno.test("email sources: imap needs host, username and password; the password is sealed, never shown", async () => {
  await using ctx = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" });
  const { token } = await signUp(ctx);
  const missing = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "imap", host: "127.0.0.1", username: "u" },
  });
  eq([missing.status, missing.body], [400, { error: "password is required" }]);

  const created = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "imap", host: "127.0.0.1", username: "buyer", password: "hunter2-secret" },
  });
  equal(created.status, 201);
  const s = created.body.source;
  eq([s.host, s.port, s.tls, s.username, s.mailbox, s.name], [
    "127.0.0.1",
    993,
    true,
    "buyer",
    "INBOX",
    "Mailbox 127.0.0.1",
  ]);
  equal(s.password, undefined);
  equal(s.sealedPassword, undefined);
  // Sealed at rest: the plain password is nowhere in the store.
  for await (const e of ctx.kv.list({ prefix: [] })) {
    ok(!Deno.inspect(e.value).includes("hunter2"), String(e.key));
  }
  const exported = await call<Body>(ctx, "GET", "/api/account/export", { token });
  ok(!JSON.stringify(exported.body).includes("hunter2"));
  equal(exported.body.emailSources[0].id, s.id);
  const state = await call<Body>(ctx, "GET", "/api/state", { token });
  equal(state.body.emailSources[0].id, s.id);
  ok(!JSON.stringify(state.body).includes("sealedPassword"));

  // Plain IMAP only for listed hosts (127.0.0.1 is listed here); a move needs the password.
  const plain = await call<Body>(ctx, "PATCH", `/api/email-sources/${s.id}`, {
    token,
    body: { tls: false, port: 143, password: "hunter2-secret" },
  });
  eq([plain.status, plain.body.source.tls, plain.body.source.port], [200, false, 143]);
});

Deno.test("email sources: hosts follow the private-address rule; plain IMAP only for allowed hosts", async () => {
  await using ctx = await testApp();
  const { token } = await signUp(ctx);
  const body = { kind: "imap", username: "u", password: "p" };
  const loopback = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { ...body, host: "127.0.0.1" },
  });
  eq([loopback.status, loopback.body], [400, {
    error: "host: URL cannot point at private or loopback addresses",
  }]);
  const plain = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { ...body, host: "8.8.8.8", tls: false },
  });
  eq([plain.status, plain.body], [400, {
    error: "tls: plain IMAP is only allowed for hosts in ALLOWED_PRIVATE_ADDRESSES",
  }]);
  const junk = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { ...body, host: "imap.example.com/path" },
  });
  eq([junk.status, junk.body], [400, { error: "host: must be a host name or address" }]);
  const kind = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "pop" },
  });
  equal(kind.status, 400);
  match(kind.body.error, /^kind: /);
});

Deno.test("email sources: where secrets cannot be encrypted, an imap source is 503", async () => {
  await using ctx = await testApp({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1" }, {
    deps: { secrets: null },
  });
  const { token } = await signUp(ctx);
  const res = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "imap", host: "127.0.0.1", username: "u", password: "p" },
  });
  equal(res.status, 503);
  match(res.body.error, /SECRETS_KEY/);
  equal(
    (await call(ctx, "POST", "/api/email-sources", { token, body: { kind: "forwarding" } })).status,
    201,
  );
});

Deno.test("email sources: account deletion removes the forwarding lookup", async () => {
  await using ctx = await testApp();
  const { token, user } = await signUp(ctx);
  const created = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding" },
  });
  const slug = created.body.source.forwardingAddress.split("@")[0];
  const res = await call(ctx, "DELETE", "/api/account", {
    token,
    body: { confirmEmail: user.email },
  });
  equal(res.status, 200);
  equal(await findForwardingTarget(ctx.kv, slug), null);
});
