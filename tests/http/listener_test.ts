import assert from "node:assert/strict";
import { listen } from "../../src/http/listener.ts";
import { createLogger } from "../../src/lib/log.ts";
import { parseOpenFilesLimit } from "../../src/lib/limits.ts";
import { logLines, RawClient, waitFor } from "./raw_client.ts";

Deno.test("listener: a request running through a recycle finishes, then the new server answers", async () => {
  const logs: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  let entered = false;
  const listener = listen({
    hostname: "127.0.0.1",
    port: 0,
    log: createLogger("debug", (line) => logs.push(line)),
    recycleMs: 100,
    handler: async (req) => {
      if (new URL(req.url).pathname === "/slow") {
        entered = true;
        await gate;
      }
      return new Response("done");
    },
  });
  const slow = await RawClient.connect(listener.addr.port);
  const silent = await RawClient.connect(listener.addr.port);
  try {
    await slow.write("GET /slow HTTP/1.1\r\nhost: test\r\n\r\n");
    await waitFor(() => entered, "the slow request to start");
    await waitFor(() => recycledCount(logs) >= 2, "two recycles");
    release();
    const res = await slow.response();
    assert.deepEqual([res.status, res.body], [200, "done"]);
    assert.ok(await slow.closedWithin(1000), "the retired server closes it after the response");
    assert.ok(await silent.closedWithin(1000), "a silent connection is closed by the recycle");

    const next = await RawClient.connect(listener.addr.port);
    await next.write("GET / HTTP/1.1\r\nhost: test\r\n\r\n");
    assert.equal((await next.response()).status, 200);
    next.close();
  } finally {
    release();
    slow.close();
    silent.close();
    await listener.shutdown();
  }
  const after = recycledCount(logs);
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(recycledCount(logs), after, "no recycle after shutdown");
});

function recycledCount(logs: string[]) {
  return logLines(logs).filter((l) => l.msg === "listener recycled").length;
}

Deno.test("listener: without recycling an idle connection stays open until shutdown closes it", async () => {
  const listener = listen({
    hostname: "127.0.0.1",
    port: 0,
    log: createLogger("error"),
    handler: () => new Response("ok"),
  });
  const idle = await RawClient.connect(listener.addr.port);
  try {
    await idle.write("GET / HTTP/1.1\r\nhost: test\r\n\r\n");
    assert.equal((await idle.response()).status, 200);
    let closedAt = 0;
    const closing = idle.closedWithin(2000).then((closed) => closedAt = closed ? Date.now() : 0);
    await new Promise((r) => setTimeout(r, 300));
    const shutdownAt = Date.now();
    await listener.shutdown();
    await closing;
    assert.ok(closedAt >= shutdownAt, "open until shutdown, closed by it");
  } finally {
    idle.close();
  }
});

Deno.test("open-files limit: the soft and hard values of /proc/self/limits", () => {
  const text = [
    "Limit                     Soft Limit           Hard Limit           Units     ",
    "Max cpu time              unlimited            unlimited            seconds   ",
    "Max open files            1024                 524288               files     ",
  ].join("\n");
  assert.deepEqual(parseOpenFilesLimit(text), { soft: 1024, hard: 524288 });
  assert.deepEqual(
    parseOpenFilesLimit(
      "Max open files            unlimited            unlimited            files",
    ),
    { soft: null, hard: null },
  );
  assert.equal(parseOpenFilesLimit("Max cpu time unlimited unlimited seconds"), undefined);
  assert.equal(parseOpenFilesLimit("Max open files  lots  many  files"), undefined);
});
