import { createEmailSource } from "../../../src/store/intake/email_sources.ts";
import { createUser } from "../../../src/store/account/users.ts";
import { startDovecot } from "../../dovecot.ts";
import { freePort } from "../../service.ts";
import { SmtpClient } from "../../smtp_client.ts";
import { type Scenario, table } from "../context.ts";
import { benchMail } from "../mails.ts";
import { cpuSeconds, peakRssMiB } from "../proc.ts";

/** Issue 14's figures: a 1,000-message mailbox, SMTP at 8 connections. */
const MAILBOX_MESSAGES = 1000;
const SMTP_CONNECTIONS = 8;
const MAIL_DOMAIN = "in.bench.example";
const SLUG = "benchforward0000";

/** The first poll of a fresh source over a Dovecot mailbox of MAILBOX_MESSAGES messages. */
async function firstPoll(kvDir: string) {
  await using dovecot = await startDovecot();
  const appendStarted = performance.now();
  for (let n = 0; n < MAILBOX_MESSAGES; n += 100) {
    await dovecot.append(
      "INBOX",
      Array.from({ length: 100 }, (_, i) => ({ raw: benchMail(n + i) })),
    );
  }
  const appendS = Math.round((performance.now() - appendStarted) / 100) / 10;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "scripts/bench/poll_once.ts"],
    cwd: new URL("../../../", import.meta.url),
    env: {
      KV_PATH: `${kvDir}/poll.sqlite3`,
      LOG_LEVEL: "error",
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
      BENCH_IMAP_PORT: String(dovecot.port),
      BENCH_IMAP_USER: dovecot.username,
      BENCH_IMAP_PASSWORD: dovecot.password,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (!out.success) throw new Error(`poll_once failed: ${new TextDecoder().decode(out.stderr)}`);
  return {
    ...JSON.parse(text.split("\n").at(-1)!) as {
      ms: number;
      cpuS: number;
      polled: number;
      failed: number;
      orders: number;
      rssBeforeMiB: number;
      peakRssMiB: number;
    },
    appendS,
  };
}

/** SMTP_CONNECTIONS sessions, each delivering one message after another for `seconds`. */
async function smtpLoad(port: number, seconds: number) {
  let n = 0;
  const latencies: number[] = [];
  const codes: Record<number, number> = {};
  const until = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: SMTP_CONNECTIONS }, async () => {
    const [client] = await SmtpClient.connect(port);
    try {
      await client.command("EHLO loader.bench.example");
      while (performance.now() < until) {
        const started = performance.now();
        const replies = await client.send(
          "orders@shop.example",
          [`${SLUG}@${MAIL_DOMAIN}`],
          benchMail(n++),
        );
        const last = replies.at(-1)!.code;
        codes[last] = (codes[last] ?? 0) + 1;
        latencies.push(performance.now() - started);
      }
      await client.command("QUIT");
    } finally {
      client.close();
    }
  }));
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.ceil(p * latencies.length) - 1] * 10) / 10;
  return { delivered: codes[250] ?? 0, codes, p50: at(0.5), p99: at(0.99) };
}

export const mailArrival: Scenario = {
  name: "mail-arrival",
  title: "Mail arrival: first poll of a 1,000-message mailbox, SMTP receive throughput",
  async run(ctx) {
    const kvDir = await Deno.makeTempDir({ prefix: "bench-poll-" });
    let poll;
    try {
      poll = await firstPoll(kvDir);
    } finally {
      await Deno.remove(kvDir, { recursive: true });
    }

    const smtpPort = freePort();
    const service = await ctx.startService({
      env: { SMTP_PORT: String(smtpPort), MAIL_DOMAIN },
      seed: async (kv) => {
        const user = await createUser(kv, { email: "bench-smtp@example.com" });
        if (!user.ok) throw new Error("bench account not created");
        await createEmailSource(kv, user.user.id, {
          id: "email_bench",
          kind: "forwarding",
          name: "Bench forwarding",
          allowedSenders: [],
          active: true,
          createdAt: new Date().toISOString(),
          slug: SLUG,
        });
      },
    });
    await smtpLoad(smtpPort, 1); // warm-up
    const cpuBefore = await cpuSeconds(service.pid);
    const started = performance.now();
    const smtp = await smtpLoad(smtpPort, ctx.seconds);
    const elapsed = (performance.now() - started) / 1000;
    const cpuPct = Math.round((await cpuSeconds(service.pid) - cpuBefore) / elapsed * 100);
    const rate = Math.round(smtp.delivered / elapsed * 10) / 10;
    const sizes = Array.from({ length: 200 }, (_, n) => benchMail(n).length);
    const kib = (bytes: number) => Math.round(bytes / 1024);

    return [
      `The messages are the email benchmark's HTML order confirmations (${
        kib(Math.min(...sizes))
      } to ${kib(Math.max(...sizes))} KiB, each its own order). The machine is shared: other ` +
      "helpers' builds and tests may run at the same time, so the figures vary between runs.",
      "",
      `**First poll.** A Dovecot ${MAILBOX_MESSAGES}-message INBOX (appended over IMAP in ` +
      `${poll.appendS} s, internal dates today), a new imap source over plain IMAP on loopback; ` +
      "one run of the polling job in a process of its own (`scripts/bench/poll_once.ts`): " +
      "connect, search the last 30 days, fetch sizes, fetch in batches of up to 100 messages " +
      "or 8 MiB, read and store each as history (no events).",
      "",
      table([
        "Messages",
        "Wall time",
        "Messages/s",
        "Poller CPU",
        "Messages per CPU-second",
        "Orders stored",
        "RSS before",
        "Peak RSS",
      ], [[
        MAILBOX_MESSAGES,
        `${Math.round(poll.ms / 100) / 10} s`,
        Math.round(MAILBOX_MESSAGES / poll.ms * 10000) / 10,
        `${poll.cpuS} s`,
        Math.round(MAILBOX_MESSAGES / poll.cpuS),
        poll.orders,
        `${poll.rssBeforeMiB} MiB`,
        `${poll.peakRssMiB} MiB`,
      ]]),
      "",
      `**SMTP receive.** The service (main.ts, \`SMTP_PORT\`) with one forwarding address; ` +
      `${SMTP_CONNECTIONS} SMTP sessions on loopback (\`scripts/smtp_client.ts\`), each sending ` +
      `MAIL, RCPT, DATA and the message, one after another, for ${ctx.seconds} s after 1 s of ` +
      "warm-up. A message counts once the service answered 250, i.e. once it was read and " +
      "stored with its order and events. The sessions come from one address, so they stay " +
      "within the receiver's 10 connections per client address (`SMTP_LIMITS`).",
      "",
      table([
        "Connections",
        "Messages/s",
        "p50 ms",
        "p99 ms",
        "Replies",
        "Server CPU",
        "Messages per server CPU-second",
        "Peak RSS",
      ], [[
        SMTP_CONNECTIONS,
        rate,
        smtp.p50,
        smtp.p99,
        Object.entries(smtp.codes).map(([c, k]) => `${c}: ${k}`).join(", "),
        `${cpuPct}%`,
        cpuPct > 0 ? Math.round(rate * 100 / cpuPct) : 0,
        `${await peakRssMiB(service.pid)} MiB`,
      ]]),
      "",
      "When the load average above exceeds the machine's cores, every process gets only part of " +
      "a core: the per-CPU-second columns are then the comparable figures, and wall times are " +
      "what the contention allowed.",
    ].join("\n");
  },
};
