/**
 * A stop (systemd, a rolling restart, Deno Deploy's SIGINT) can come at any moment, also while
 * the service is starting: main.ts takes SIGINT and SIGTERM before its first await, so the
 * real service (a child process) stops gracefully (exit 0, "stopped") wherever the signal
 * lands, instead of being killed by it (exit 143).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type SpawnedService, spawnService } from "../../scripts/service.ts";
import { sleep } from "../net/receiver.ts";

const START_TIMEOUT_MS = 30_000;

/** Polls `ready` (about every millisecond) until it holds; fails if the service exits first. */
async function until(service: SpawnedService, what: string, ready: () => Promise<boolean>) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!await ready()) {
    if (service.exited()) {
      const report = await service.stop();
      assert.fail(`exited (${report.code}) before ${what}: ${report.stderr.join("\n")}`);
    }
    if (Date.now() > deadline) assert.fail(`no ${what} within ${START_TIMEOUT_MS} ms`);
    await sleep(1);
  }
}

/** Whether the process holds the file open (Linux: its descriptors in /proc). */
async function holdsOpen(pid: number, path: string): Promise<boolean> {
  try {
    for await (const fd of Deno.readDir(`/proc/${pid}/fd`)) {
      const target = await Deno.readLink(`/proc/${pid}/fd/${fd.name}`).catch(() => "");
      if (target === path) return true;
    }
  } catch {
    // The process is gone or not yet visible.
  }
  return false;
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/healthz`);
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

async function stopsGracefully(service: SpawnedService, signal: Deno.Signal) {
  const exit = await service.stop(signal);
  assert.equal(exit.code, 0, `exit ${exit.code}: ${exit.stderr.join("\n")}`);
  assert.ok(exit.stdout.some((l) => l.includes('"msg":"stopped"')), exit.stdout.join("\n"));
}

Deno.test({
  name: "process: SIGTERM or SIGINT while the service is still starting stops it with status 0",
  // The moment is found through /proc (the process's open files).
  ignore: Deno.build.os !== "linux",
}, async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const [i, signal] of (["SIGTERM", "SIGINT"] as const).entries()) {
      // The KV file is opened early in the start-up, well before the listener.
      const kvPath = join(dir, `kv${i}.sqlite3`);
      const service = spawnService({ env: { KV_PATH: kvPath, LOG_LEVEL: "info" } });
      await until(service, "the KV file open", () => holdsOpen(service.pid, kvPath));
      await stopsGracefully(service, signal);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("process: SIGTERM as soon as the first health answer arrives stops it with status 0", async () => {
  for (let i = 0; i < 2; i++) {
    const service = spawnService({ env: { KV_PATH: ":memory:", LOG_LEVEL: "info" } });
    await until(service, "a health answer", () => answers(service.url));
    await stopsGracefully(service, "SIGTERM");
  }
});
