import assert from "node:assert/strict";
import { join } from "node:path";
import { type RunningService, startService } from "../../scripts/service.ts";
import { logLines, RawClient, waitFor } from "./raw_client.ts";

/** Descriptors the service may hold in the flood test: far fewer than the flood. */
const LIMIT = 256;

/** Polls `GET /api/healthz` until it answers 200; returns how long that took. */
async function answersWithin(url: string, ms: number): Promise<number> {
  const start = Date.now();
  while (true) {
    try {
      const res = await fetch(`${url}/api/healthz`);
      await res.body?.cancel();
      if (res.status === 200) return Date.now() - start;
    } catch {
      // Refused or reset while the listener is replaced.
    }
    if (Date.now() - start > ms) throw new Error(`no 200 from /api/healthz within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs `body` against main.ts in a child process with its own KV file, then stops it. */
async function withService(
  options: { env?: Record<string, string>; maxOpenFiles?: number },
  body: (service: RunningService) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  try {
    const service = await startService({
      maxOpenFiles: options.maxOpenFiles,
      env: { KV_PATH: join(dir, "kv.sqlite3"), LOG_LEVEL: "debug", ...options.env },
    });
    try {
      await body(service);
    } catch (err) {
      await service.stop("SIGKILL");
      throw err;
    }
    const exit = await service.stop("SIGTERM");
    assert.equal(exit.code, 0, exit.stderr.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("process: silent connections past the descriptor limit are shed and the service answers again", async () => {
  await withService({ maxOpenFiles: LIMIT }, async (service) => {
    await waitFor(
      () => logLines(service.stdout).some((l) => l.msg === "listening"),
      "the listening line",
    );
    const listening = logLines(service.stdout).find((l) => l.msg === "listening")!;
    assert.equal(listening.maxOpenFiles, LIMIT, "the limit in force is logged at start");

    const flood: RawClient[] = [];
    try {
      for (let i = 0; i < LIMIT + 150; i++) {
        try {
          flood.push(await RawClient.connect(service.port));
        } catch {
          // Refused or reset while the listener is replaced.
        }
      }
      const failed = () =>
        logLines(service.stderr).find((l) => String(l.msg).startsWith("listener failed"));
      await waitFor(() => failed() !== undefined, "the listener failure");
      assert.match(String(failed()!.error), /Too many open files/);

      // The failed listener's connections are closed by the service, not by the client.
      const closed = await Promise.all(flood.map((c) => c.closedWithin(3000)));
      const shed = closed.filter(Boolean).length;
      assert.ok(shed >= LIMIT - 64, `only ${shed} of ${flood.length} flood connections were shed`);

      const waited = await answersWithin(service.url, 5000);
      console.log(`shed ${shed} of ${flood.length}; /api/healthz 200 after ${waited} ms`);
      assert.ok(
        logLines(service.stdout).some((l) => l.msg === "listening again"),
        "the new listener is logged",
      );
    } finally {
      for (const c of flood) c.close();
    }
    // Once the client has closed the rest too, the service still answers.
    await answersWithin(service.url, 5000);
  });
});

Deno.test("process: with LISTENER_RECYCLE_SECONDS=1, silent, half-sent and idle connections close within a second or so", async () => {
  await withService({ env: { LISTENER_RECYCLE_SECONDS: "1" } }, async (service) => {
    const silent = await RawClient.connect(service.port);
    const half = await RawClient.connect(service.port);
    const idle = await RawClient.connect(service.port);
    try {
      await half.write("GET /api/healthz HTTP/1.1\r\nhost: test\r\nx-slow: ");
      await idle.write("GET /api/healthz HTTP/1.1\r\nhost: test\r\n\r\n");
      assert.equal((await idle.response()).status, 200);
      const start = Date.now();
      // One recycle period, plus slack for a busy machine.
      const closed = await Promise.all([silent, half, idle].map((c) => c.closedWithin(3000)));
      assert.deepEqual(closed, [true, true, true], "silent, half-sent, idle");
      console.log(`all three closed within ${Date.now() - start} ms`);
    } finally {
      for (const c of [silent, half, idle]) c.close();
    }
    await answersWithin(service.url, 5000);
    assert.ok(logLines(service.stdout).some((l) => l.msg === "listener recycled"));
  });
});
