/**
 * The email reader of two source trees side by side in one process (two module graphs), over
 * the same bench mails in alternating rounds, so both see the same machine load: a change to the
 * reader measured against the code before it on a shared machine.
 *
 *   deno run -A scripts/bench/read_email_ab.ts <tree A> <tree B> [rounds=16]
 *
 * A tree is a checkout of the repository (`git archive <commit> | tar -x -C /tmp/a`). Prints,
 * per tree, the median and the lowest CPU time of the process per mail over the rounds.
 */
import process from "node:process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { benchMail } from "./mails.ts";

type Read = (raw: Uint8Array, options: { now: number }) => Promise<unknown>;

const [a, b, roundsArg] = Deno.args;
if (!a || !b) {
  console.error("usage: read_email_ab.ts <tree A> <tree B> [rounds]");
  Deno.exit(2);
}
const readerOf = async (tree: string): Promise<Read> =>
  (await import(pathToFileURL(resolve(tree, "src/intake/email/read.ts")).href)).readEmail;
const readers = [await readerOf(a), await readerOf(b)];
const now = Date.parse("2026-11-01T00:00:00Z");
const encoder = new TextEncoder();
const mails = Array.from({ length: 100 }, (_, n) => encoder.encode(benchMail(n)));
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

for (const read of readers) for (const raw of mails) await read(raw, { now });
const times: number[][] = [[], []];
const rounds = Number(roundsArg ?? 16);
for (let i = 0; i < rounds; i++) {
  // Alternating which goes first, so neither always follows the other's garbage.
  for (const k of i % 2 ? [1, 0] : [0, 1]) {
    const started = cpuMs();
    for (const raw of mails) await readers[k](raw, { now });
    times[k].push((cpuMs() - started) / mails.length);
  }
}
const median = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)];
for (const [k, tree] of [a, b].entries()) {
  console.log(
    `${tree}: CPU per bench mail median ${median(times[k]).toFixed(2)} ms, lowest ` +
      `${Math.min(...times[k]).toFixed(2)} ms (${rounds} rounds of ${mails.length} mails)`,
  );
}
