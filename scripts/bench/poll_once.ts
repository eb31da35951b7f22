/**
 * The mailbox benchmark's poller: a process of its own (so its memory is the poll's), on the
 * KV file `KV_PATH`, that adds an account with an imap source for the Dovecot mailbox named by
 * BENCH_IMAP_PORT, BENCH_IMAP_USER and BENCH_IMAP_PASSWORD, runs the polling job once and
 * prints `{ms, cpuS, polled, failed, orders, rssBeforeMiB, peakRssMiB}` as one JSON line.
 */
import { loadConfig } from "../../src/config.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import { IMAP_DEFAULTS, mailboxBinding } from "../../src/domain/intake/email_source.ts";
import { pollMailboxes } from "../../src/intake/imap/poll.ts";
import { newId } from "../../src/lib/ids.ts";
import { createEmailSource } from "../../src/store/intake/email_sources.ts";
import { keys } from "../../src/store/keys.ts";
import { openStore } from "../../src/store/kv.ts";
import { createUser } from "../../src/store/account/users.ts";
import { cpuSeconds } from "./proc.ts";

const rssMiB = (field: "VmRSS" | "VmHWM") => {
  const status = Deno.readTextFileSync("/proc/self/status");
  return Math.round(Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))![1]) / 102.4) /
    10;
};

const env = Deno.env.toObject();
const config = loadConfig(env);
const store = await openStore(config.kvPath);
const { kv, persistence } = store;
const deps = createDeps({ kv, config, persistence });
const user = await createUser(kv, { email: "bench-imap@example.com" });
if (!user.ok) throw new Error("bench account not created");
const id = newId("email", Date.now());
const mailbox = {
  ...IMAP_DEFAULTS,
  host: "127.0.0.1",
  port: Number(env.BENCH_IMAP_PORT),
  tls: false,
  username: env.BENCH_IMAP_USER,
};
await createEmailSource(kv, user.user.id, {
  id,
  kind: "imap",
  name: "Bench mailbox",
  allowedSenders: [],
  active: true,
  createdAt: new Date().toISOString(),
  ...mailbox,
  sealedPassword: await deps.secrets!.seal(env.BENCH_IMAP_PASSWORD, id, mailboxBinding(mailbox)),
});

const rssBeforeMiB = rssMiB("VmRSS");
const cpuBefore = await cpuSeconds(Deno.pid);
const started = performance.now();
const counts = await pollMailboxes(deps, new AbortController().signal);
const ms = Math.round(performance.now() - started);
const cpuS = Math.round((await cpuSeconds(Deno.pid) - cpuBefore) * 10) / 10;
let orders = 0;
for await (const _ of kv.list({ prefix: keys.orders(user.user.id) })) orders++;
const peakRssMiB = rssMiB("VmHWM");
await drainDeps(deps);
store.close();
console.log(JSON.stringify({ ms, cpuS, ...counts, orders, rssBeforeMiB, peakRssMiB }));
