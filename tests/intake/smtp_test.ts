/** The built-in SMTP receiver, in real SMTP conversations over loopback. */
import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import { type Reply, SmtpClient } from "../../scripts/smtp_client.ts";
import { startSmtpReceiver } from "../../src/intake/smtp.ts";
import { message, orderMail } from "./helpers.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

const FIXTURES = new URL("../net/fixtures/", import.meta.url);
const TLS = {
  cert: Deno.readTextFileSync(new URL("receiver.test.crt", FIXTURES)),
  key: Deno.readTextFileSync(new URL("receiver.test.key", FIXTURES)),
  ca: Deno.readTextFileSync(new URL("test_ca.crt", FIXTURES)),
};

const codes = (replies: Reply[]) => replies.map((r) => r.code);

async function forwarding(ctx: TestContext, token: string): Promise<Body> {
  const res = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding" },
  });
  return res.body.source;
}

async function orderNumbers(ctx: TestContext, token: string): Promise<string[]> {
  const res = await call<Body>(ctx, "GET", "/api/orders?limit=100", { token });
  return res.body.items.map((o: Body) => o.orderNumber).sort();
}

Deno.test("smtp: mail for a forwarding address is stored before the 250; unknown recipients get 550 at RCPT TO", async () => {
  await using ctx = await testApp({ MAIL_DOMAIN: "in.example.com" });
  const { token } = await signUp(ctx);
  const source = await forwarding(ctx, token);
  await using receiver = await startSmtpReceiver(ctx.deps, { port: 0, host: "127.0.0.1" });
  const [client, greeting] = await SmtpClient.connect(receiver.port);
  try {
    equal(greeting.code, 220);
    match(greeting.text, /^in\.example\.com /);
    const ehlo = await client.command("EHLO mx.shop.example");
    equal(ehlo.code, 250);
    ok(ehlo.text.includes(`SIZE ${2 * 1024 * 1024}`), ehlo.text);
    ok(!ehlo.text.includes("STARTTLS") && !ehlo.text.includes("AUTH"), ehlo.text);

    equal((await client.command("MAIL FROM:<orders@shop.example>")).code, 250);
    const slug = source.forwardingAddress.split("@")[0];
    for (const rcpt of ["nobody@in.example.com", `${slug}@elsewhere.example`, "postmaster"]) {
      const refused = await client.command(`RCPT TO:<${rcpt}>`);
      eq([refused.code, refused.text], [550, "No such forwarding address here"], rcpt);
    }
    equal((await client.command(`RCPT TO:<${source.forwardingAddress.toUpperCase()}>`)).code, 250);
    const stored = await client.data(orderMail(6101));
    equal(stored.code, 250);
    // Stored before the answer: the order is there the moment 250 is read.
    eq(await orderNumbers(ctx, token), ["6101"]);
    const inbox = await call<Body>(ctx, "GET", `/api/inbox?sourceId=${source.id}`, { token });
    eq(inbox.body.items.map((e: Body) => e.outcome), ["created"]);

    // The same message again: stored as a duplicate, still 250 (the sender is done with it).
    eq(
      codes(await client.send("orders@shop.example", [source.forwardingAddress], orderMail(6101))),
      [
        250,
        250,
        250,
      ],
    );
    // A message that is not an order is kept in the inbox too.
    const note = message({ from: "news@shop.example", subject: "Sale", body: "50% off" });
    eq(codes(await client.send("news@shop.example", [source.forwardingAddress], note)), [
      250,
      250,
      250,
    ]);
    const after = await call<Body>(ctx, "GET", `/api/inbox?sourceId=${source.id}`, { token });
    eq(after.body.items.map((e: Body) => e.outcome), ["ignored", "duplicate", "created"]);
    equal((await client.command("QUIT")).code, 221);
  } finally {
    client.close();
  }
});

Deno.test("smtp: one message to several workspaces' addresses reaches each; inactive and deleted addresses are 550", async () => {
  await using ctx = await testApp({ MAIL_DOMAIN: "in.example.com" });
  const a = await signUp(ctx);
  const b = await signUp(ctx);
  const [sa, sb] = [await forwarding(ctx, a.token), await forwarding(ctx, b.token)];
  const inactive = await forwarding(ctx, a.token);
  await call(ctx, "PATCH", `/api/email-sources/${inactive.id}`, {
    token: a.token,
    body: { active: false },
  });
  const deleted = await forwarding(ctx, b.token);
  await call(ctx, "DELETE", `/api/email-sources/${deleted.id}`, { token: b.token });
  await using receiver = await startSmtpReceiver(ctx.deps, { port: 0, host: "127.0.0.1" });
  const [client] = await SmtpClient.connect(receiver.port);
  try {
    await client.command("EHLO mx.shop.example");
    const replies = await client.send(
      "orders@shop.example",
      [sa.forwardingAddress, inactive.forwardingAddress, deleted.forwardingAddress],
      orderMail(6201),
    );
    eq(codes(replies), [250, 250, 550, 550, 250]);
    eq(await orderNumbers(ctx, a.token), ["6201"]);
    // A new transaction starts with no recipients: the two live addresses take this one.
    const both = await client.send(
      "orders@shop.example",
      [sa.forwardingAddress, sb.forwardingAddress],
      orderMail(6202),
    );
    eq(codes(both), [250, 250, 250, 250]);
    eq(await orderNumbers(ctx, a.token), ["6201", "6202"]);
    eq(await orderNumbers(ctx, b.token), ["6202"]);

    // The only recipient's account is deleted between RCPT TO and the end of DATA: 550.
    equal((await client.command("MAIL FROM:<orders@shop.example>")).code, 250);
    equal((await client.command(`RCPT TO:<${sb.forwardingAddress}>`)).code, 250);
    await call(ctx, "DELETE", "/api/account", {
      token: b.token,
      body: { confirmEmail: b.user.email },
    });
    const gone = await client.data(orderMail(6203));
    eq([gone.code, gone.text], [550, "No such forwarding address here"]);
  } finally {
    client.close();
  }
});

Deno.test("smtp: over 2 MiB is 552 (declared at MAIL FROM, or sent), and nothing is stored", async () => {
  await using ctx = await testApp({ MAIL_DOMAIN: "in.example.com" });
  const { token } = await signUp(ctx);
  const source = await forwarding(ctx, token);
  await using receiver = await startSmtpReceiver(ctx.deps, { port: 0, host: "127.0.0.1" });
  const [client] = await SmtpClient.connect(receiver.port);
  try {
    await client.command("EHLO mx.shop.example");
    const declared = await client.command("MAIL FROM:<orders@shop.example> SIZE=3000000");
    equal(declared.code, 552);
    const big = message({
      from: "orders@shop.example",
      subject: "Order #6301",
      body: `Order number: 6301\n${"x".repeat(2 * 1024 * 1024)}`,
    });
    const replies = await client.send("orders@shop.example", [source.forwardingAddress], big);
    eq(codes(replies), [250, 250, 552]);
    match(replies[2].text, /Message too large \(limit 2 MiB\)/);
    // The session goes on.
    eq(
      codes(await client.send("orders@shop.example", [source.forwardingAddress], orderMail(6302))),
      [
        250,
        250,
        250,
      ],
    );
    eq(await orderNumbers(ctx, token), ["6302"]);
    const inbox = await call<Body>(ctx, "GET", `/api/inbox?sourceId=${source.id}`, { token });
    equal(inbox.body.total, 1);
  } finally {
    client.close();
  }
});

Deno.test("smtp: STARTTLS with the configured certificate", async () => {
  await using ctx = await testApp({ MAIL_DOMAIN: "in.example.com" });
  const { token } = await signUp(ctx);
  const source = await forwarding(ctx, token);
  await using receiver = await startSmtpReceiver(ctx.deps, {
    port: 0,
    host: "127.0.0.1",
    tls: { cert: TLS.cert, key: TLS.key },
  });
  const [client] = await SmtpClient.connect(receiver.port);
  try {
    const ehlo = await client.command("EHLO mx.shop.example");
    ok(ehlo.text.includes("STARTTLS"), ehlo.text);
    equal((await client.startTls("receiver.test", [TLS.ca])).code, 220);
    const secured = await client.command("EHLO mx.shop.example");
    equal(secured.code, 250);
    ok(!secured.text.includes("STARTTLS"), secured.text);
    eq(
      codes(await client.send("orders@shop.example", [source.forwardingAddress], orderMail(6401))),
      [
        250,
        250,
        250,
      ],
    );
    eq(await orderNumbers(ctx, token), ["6401"]);
  } finally {
    client.close();
  }
});

Deno.test("smtp: connections beyond maxClients get 421; an idle connection is closed", async () => {
  await using ctx = await testApp();
  await using receiver = await startSmtpReceiver(ctx.deps, {
    port: 0,
    host: "127.0.0.1",
    limits: { maxClients: 2, idleTimeoutMs: 300 },
  });
  const clients: SmtpClient[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const [client, greeting] = await SmtpClient.connect(receiver.port);
      clients.push(client);
      equal(greeting.code, 220);
    }
    const [third, refused] = await SmtpClient.connect(receiver.port);
    clients.push(third);
    equal(refused.code, 421);
    // The first two say nothing: each is told 421 and closed once idle.
    const started = performance.now();
    const timedOut = await clients[0].read();
    equal(timedOut.code, 421);
    ok(performance.now() - started < 3000);
    equal((await clients[0].read()).code, 0, "closed after the 421");
  } finally {
    clients.forEach((c) => c.close());
  }
});
