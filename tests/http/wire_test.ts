import assert from "node:assert/strict";
import { join } from "node:path";
import { clientIp } from "../../src/http/client_ip.ts";
import { runToExit, startService } from "../../scripts/service.ts";
import { testApp } from "../helpers.ts";
import { logLines, RawClient, waitFor } from "./raw_client.ts";
import { serve } from "../serve.ts";

const MiB = 1024 * 1024;
const TOO_LARGE = JSON.stringify({ error: "Request body too large (limit 2 MiB)." });
const encoder = new TextEncoder();

/** Body bytes written so far. */
interface Progress {
  sent: number;
}

/** Writes `total` bytes of body in 64 KiB pieces, stopping quietly if the server hangs up. */
async function streamBody(client: RawClient, total: number, chunked: boolean, progress?: Progress) {
  const piece = new Uint8Array(64 * 1024).fill(120);
  const frame = chunked
    ? new Uint8Array([...encoder.encode(`${piece.byteLength.toString(16)}\r\n`), ...piece, 13, 10])
    : piece;
  const state = progress ?? { sent: 0 };
  try {
    while (state.sent < total) {
      await client.write(frame);
      state.sent += piece.byteLength;
    }
    if (chunked) await client.write("0\r\n\r\n");
  } catch {
    // The server hung up; the assertions say whether it should have.
  }
}

function post(path: string, extra: string) {
  return `POST ${path} HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n${extra}\r\n`;
}

Deno.test("wire: a chunked body over 2 MiB without Content-Length gets 413", async () => {
  await using ctx = await testApp();
  await using server = serve(ctx.app);
  const client = await RawClient.connect(server.port);
  await client.write(post("/api/nope", "transfer-encoding: chunked\r\n"));
  await streamBody(client, 2 * MiB + 64 * 1024, true);
  const res = await client.response();
  assert.equal(res.status, 413);
  assert.equal(res.body, TOO_LARGE);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  client.close();
});

Deno.test("wire: a 3 MiB upload is read and discarded; the client reads 413 and can go on", async () => {
  await using ctx = await testApp();
  await using server = serve(ctx.app);
  const client = await RawClient.connect(server.port);
  await client.write(post("/api/nope", `content-length: ${3 * MiB}\r\n`));
  await streamBody(client, 3 * MiB, false);
  const res = await client.response();
  assert.equal(res.status, 413);
  assert.equal(res.body, TOO_LARGE);
  assert.notEqual(res.headers.get("connection"), "close");

  // The body was drained, so the same connection serves the next request.
  await client.write("GET /api/nope HTTP/1.1\r\nhost: test\r\n\r\n");
  const next = await client.response();
  assert.equal(next.status, 404);
  assert.equal(next.body, JSON.stringify({ error: "Not found" }));
  client.close();
});

/**
 * Past 16 MiB the 413 goes out while the client is still sending, and the connection is closed
 * once the body ends (Deno reads the rest of the body and throws it away before closing).
 */
async function assertAnsweredEarlyThenClosed(head: string, total: number, chunked: boolean) {
  await using ctx = await testApp();
  await using server = serve(ctx.app);
  const client = await RawClient.connect(server.port);
  await client.write(head);
  const progress = { sent: 0 };
  const sending = streamBody(client, total, chunked, progress);
  const res = await client.response();
  assert.ok(progress.sent < total, "the 413 arrives before the upload is over");
  assert.equal(res.status, 413);
  assert.equal(res.body, TOO_LARGE);
  assert.equal(res.headers.get("connection"), "close");
  assert.ok(await client.closedWithin(10_000), "the server closes the connection");
  client.close();
  await sending;
}

Deno.test("wire: a declared 64 MiB upload gets 413 at once and a closed connection", async () => {
  await assertAnsweredEarlyThenClosed(
    post("/api/nope", `content-length: ${64 * MiB}\r\n`),
    64 * MiB,
    false,
  );
});

Deno.test("wire: a chunked upload past 16 MiB gets 413 at once and a closed connection", async () => {
  await assertAnsweredEarlyThenClosed(
    post("/api/nope", "transfer-encoding: chunked\r\n"),
    128 * MiB,
    true,
  );
});

Deno.test("wire: without X-Forwarded-For the client IP is the connection's address", async () => {
  await using ctx = await testApp();
  ctx.app.get("/api/test/ip", (c) => c.json({ ip: clientIp(c) }));
  await using server = serve(ctx.app);
  const direct = await fetch(`${server.url}/api/test/ip`);
  assert.deepEqual(await direct.json(), { ip: "127.0.0.1" });
  const forwarded = await fetch(`${server.url}/api/test/ip`, {
    headers: { "x-forwarded-for": "203.0.113.9, 10.0.0.1" },
  });
  assert.deepEqual(await forwarded.json(), { ip: "203.0.113.9" });
});

Deno.test("process: SIGTERM logs, closes idle connections and exits 0", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const kvPath = join(dir, "nested", "deeper", "kv.sqlite3");
    const service = await startService({ env: { KV_PATH: kvPath, LOG_LEVEL: "info" } });
    let client: RawClient | undefined;
    try {
      await waitFor(
        () => logLines(service.stdout).some((l) => l.msg === "listening"),
        "the listening line",
      );
      const listening = logLines(service.stdout).find((l) => l.msg === "listening")!;
      assert.equal(listening.port, service.port);
      assert.equal(listening.persistence, "sqlite");
      assert.ok((await Deno.stat(kvPath)).isFile, "KV file created with its parent directories");

      // A keep-alive connection left idle must not hold the shutdown up.
      client = await RawClient.connect(service.port);
      await client.write("GET /api/healthz HTTP/1.1\r\nhost: test\r\n\r\n");
      assert.equal((await client.response()).status, 200);
    } catch (err) {
      client?.close();
      await service.stop("SIGKILL");
      throw err;
    }

    const exit = await service.stop("SIGTERM");
    assert.ok(await client.closedWithin(1000), "the idle connection is closed");
    client.close();
    assert.equal(exit.code, 0, exit.stderr.join("\n"));
    const shutdown = logLines(exit.stdout).find((l) => l.msg === "shutting down");
    assert.equal(shutdown?.signal, "SIGTERM");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("process: a bad environment value stops start-up naming the variable", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const exit = await runToExit({ env: { PORT: "abc", KV_PATH: join(dir, "kv.sqlite3") } });
    assert.equal(exit.code, 1);
    assert.match(exit.stderr.join("\n"), /^Configuration error: Invalid PORT: /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
