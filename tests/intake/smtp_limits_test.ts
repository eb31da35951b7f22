/**
 * One client cannot lock the others out of the SMTP receiver. The attack: many connections
 * from one address, each kept from its idle limit by a NOOP now and then, held every slot, and
 * every other sender got 421. The flood comes from 127.0.0.2 (node:net binds the local
 * address; all of 127.0.0.0/8 is loopback), the real sender from 127.0.0.1.
 */
import { deepStrictEqual as eq, equal, match, ok } from "node:assert/strict";
import net from "node:net";
import { SmtpClient } from "../../scripts/smtp_client.ts";
import { startSmtpReceiver } from "../../src/intake/smtp.ts";
import { SMTP_LIMITS } from "../../src/intake/smtp_guard.ts";
import { orderMail } from "./helpers.ts";
import { call, signUp, testApp, type TestContext } from "../helpers.ts";

// deno-lint-ignore no-explicit-any -- JSON bodies checked field by field
type Body = Record<string, any>;

/** A raw SMTP connection from a chosen local address: the replies' first lines, in order. */
class Flooder {
  readonly replies: string[] = [];
  readonly closed: Promise<void>;
  #socket: net.Socket;
  #buffer = "";
  #waiting: (() => void)[] = [];

  constructor(port: number, localAddress: string) {
    this.#socket = net.connect({ port, host: "127.0.0.1", localAddress });
    this.#socket.setEncoding("utf8");
    this.#socket.on("error", () => {});
    this.#socket.on("data", (text: string) => {
      this.#buffer += text;
      let end: number;
      while ((end = this.#buffer.indexOf("\r\n")) >= 0) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        if (line[3] !== "-") this.replies.push(line);
      }
      this.#waiting.splice(0).forEach((wake) => wake());
    });
    this.closed = new Promise((resolve) => this.#socket.on("close", () => resolve()));
    this.closed.then(() => this.#waiting.splice(0).forEach((wake) => wake()));
  }

  /** The reply numbered `n` (0: the greeting), or "" when the connection closed first. */
  async reply(n: number): Promise<string> {
    while (this.replies.length <= n && !this.#socket.closed) {
      await new Promise<void>((wake) => this.#waiting.push(wake));
    }
    return this.replies[n] ?? "";
  }

  send(line: string) {
    if (!this.#socket.closed) this.#socket.write(`${line}\r\n`);
  }

  close() {
    this.#socket.destroy();
  }
}

async function forwardingAddress(ctx: TestContext, token: string): Promise<string> {
  const res = await call<Body>(ctx, "POST", "/api/email-sources", {
    token,
    body: { kind: "forwarding" },
  });
  return res.body.source.forwardingAddress;
}

Deno.test("smtp limits: a NOOP flood from one address holds at most its cap, for at most a session's life; another address delivers", async () => {
  await using ctx = await testApp({ MAIL_DOMAIN: "in.example.com" });
  const { token } = await signUp(ctx);
  const address = await forwardingAddress(ctx, token);
  const sessionMs = 2_000;
  await using receiver = await startSmtpReceiver(ctx.deps, {
    port: 0,
    host: "127.0.0.1",
    limits: { sessionMs },
  });
  const { maxClients, maxClientsPerAddress } = SMTP_LIMITS;
  // More connections than the receiver serves in all, as in the attack.
  const flood = Array.from(
    { length: maxClients + 20 },
    () => new Flooder(receiver.port, "127.0.0.2"),
  );
  try {
    const greetings = await Promise.all(flood.map((f) => f.reply(0)));
    const held = flood.filter((_, i) => greetings[i].startsWith("220 "));
    equal(held.length, maxClientsPerAddress);
    for (const g of greetings.filter((g) => !g.startsWith("220 "))) {
      equal(g, "421 Too many connections from your address, try again later");
    }
    // The held ones keep busy: a NOOP well inside the idle limit.
    const noops = setInterval(() => held.forEach((f) => f.send("NOOP")), 200);
    try {
      // Meanwhile another address connects and delivers.
      const [client, greeting] = await SmtpClient.connect(receiver.port);
      try {
        equal(greeting.code, 220);
        equal((await client.command("EHLO mx.shop.example")).code, 250);
        eq(
          (await client.send("orders@shop.example", [address], orderMail(7101))).map((r) => r.code),
          [250, 250, 250],
        );
      } finally {
        client.close();
      }
      const orders = await call<Body>(ctx, "GET", "/api/orders", { token });
      eq(orders.body.items.map((o: Body) => o.orderNumber), ["7101"]);

      // However busy, each held session ends when its life is over.
      const started = performance.now();
      await Promise.all(held.map((f) => f.closed));
      ok(performance.now() - started < sessionMs + 5_000);
      for (const f of held) {
        ok(f.replies.some((r) => r.startsWith("250 ")), "the NOOPs were answered");
        match(f.replies.at(-1)!, /^421 .*Session too long/);
      }
    } finally {
      clearInterval(noops);
    }
    // The address's slots are free again, once the receiver has seen the sockets close.
    let again = "";
    for (const until = performance.now() + 5_000; performance.now() < until;) {
      const next = new Flooder(receiver.port, "127.0.0.2");
      flood.push(next);
      again = await next.reply(0);
      if (again.startsWith("220 ")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    match(again, /^220 /);
  } finally {
    flood.forEach((f) => f.close());
    await Promise.all(flood.map((f) => f.closed));
  }
});

Deno.test("smtp limits: a session's commands and refused recipients are bounded: 421, then closed", async () => {
  await using ctx = await testApp({ MAIL_DOMAIN: "in.example.com" });
  const { token } = await signUp(ctx);
  const address = await forwardingAddress(ctx, token);
  await using receiver = await startSmtpReceiver(ctx.deps, {
    port: 0,
    host: "127.0.0.1",
    limits: { maxCommands: 8, maxFailedRecipients: 3 },
  });

  const [chatty] = await SmtpClient.connect(receiver.port);
  try {
    equal((await chatty.command("EHLO mx.shop.example")).code, 250);
    for (let i = 0; i < 7; i++) equal((await chatty.command("NOOP")).code, 250);
    const cut = await chatty.command("NOOP");
    eq([cut.code, cut.text], [421, "Too many commands in one session, closing"]);
    equal((await chatty.read()).code, 0, "closed after the 421");
  } finally {
    chatty.close();
  }

  const [guesser] = await SmtpClient.connect(receiver.port);
  try {
    equal((await guesser.command("EHLO mx.shop.example")).code, 250);
    equal((await guesser.command("MAIL FROM:<a@shop.example>")).code, 250);
    equal((await guesser.command(`RCPT TO:<${address}>`)).code, 250, "a good one counts not");
    for (let i = 0; i < 3; i++) {
      equal((await guesser.command(`RCPT TO:<guess${i}@in.example.com>`)).code, 550);
    }
    const cut = await guesser.command("RCPT TO:<guess3@in.example.com>");
    eq([cut.code, cut.text], [421, "Too many unknown recipients, closing"]);
    equal((await guesser.read()).code, 0, "closed after the 421");
  } finally {
    guesser.close();
  }
  // Each session has its own counts: a new one starts afresh.
  const [next] = await SmtpClient.connect(receiver.port);
  try {
    equal((await next.command("EHLO mx.shop.example")).code, 250);
    equal((await next.command("MAIL FROM:<a@shop.example>")).code, 250);
    equal((await next.command("RCPT TO:<guess9@in.example.com>")).code, 550);
  } finally {
    next.close();
  }
});
