/**
 * Micro-benchmark of the email reader alone (no HTTP, no KV): `readEmail` over the intake
 * benchmark's mails (`benchMail`, 28-86 KB of HTML) and over the fixture mails, after a
 * warm-up. Prints the median and 90th percentile of wall and CPU time per message; CPU time
 * (`process.cpuUsage`) is steadier than wall time on a shared machine.
 *
 *   deno run -A scripts/bench/read_email.ts [messages=200]
 */
import process from "node:process";
import { join } from "node:path";
import { readEmail } from "../../src/intake/email/read.ts";
import { benchMail } from "./mails.ts";

const count = Number(Deno.args[0] ?? 200);
const now = Date.parse("2026-11-01T00:00:00Z");
const encoder = new TextEncoder();

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

async function measure(name: string, mails: Uint8Array[]): Promise<void> {
  for (const raw of mails.slice(0, 30)) await readEmail(raw, { now });
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const raw of mails) {
    const [w, c] = [performance.now(), cpuMs()];
    await readEmail(raw, { now });
    wall.push(performance.now() - w);
    cpu.push(cpuMs() - c);
  }
  const kb = mails.reduce((n, m) => n + m.length, 0) / mails.length / 1024;
  const ms = (v: number) => v.toFixed(2).padStart(6);
  console.log(
    `${name.padEnd(16)} ${String(mails.length).padStart(4)} mails, ${kb.toFixed(0)} KiB avg | ` +
      `wall p50 ${ms(quantile(wall, 0.5))} p90 ${ms(quantile(wall, 0.9))} ms | ` +
      `cpu p50 ${ms(quantile(cpu, 0.5))} p90 ${ms(quantile(cpu, 0.9))} ms`,
  );
}

async function fixtureMails(dir: string): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await fixtureMails(path));
    else if (entry.name.endsWith(".eml")) out.push(await Deno.readFile(path));
  }
  return out;
}

await measure("benchMail", Array.from({ length: count }, (_, n) => encoder.encode(benchMail(n))));
await measure("fixtures", await fixtureMails("tests/fixtures/email"));
