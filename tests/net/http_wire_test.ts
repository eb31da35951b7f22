import assert from "node:assert/strict";
import { MAX_HEAD_BYTES } from "../../src/net/http_wire.ts";
import { Outbound } from "../../src/net/outbound.ts";
import { sleep } from "./receiver.ts";

/**
 * A receiver that writes raw bytes: the answer for each request is picked by its path, so the
 * tests control framing exactly. Records which connection carried each request.
 */
function rawServer(answers: Record<string, string | Uint8Array>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: { path: string; conn: number; head: string; body: string }[] = [];
  const conns = new Set<Deno.Conn>();
  const decoder = new TextDecoder();
  let connCount = 0;
  const serveConn = async (conn: Deno.Conn, id: number) => {
    let buffered = "";
    const chunk = new Uint8Array(65536);
    try {
      while (true) {
        let end: number;
        while ((end = buffered.indexOf("\r\n\r\n")) < 0) {
          const n = await conn.read(chunk);
          if (n === null) return;
          buffered += decoder.decode(chunk.subarray(0, n));
        }
        const head = buffered.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        while (buffered.length < end + 4 + length) {
          const n = await conn.read(chunk);
          if (n === null) return;
          buffered += decoder.decode(chunk.subarray(0, n));
        }
        const body = buffered.slice(end + 4, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        const path = head.split(" ")[1];
        seen.push({ path, conn: id, head, body });
        const answer = answers[path] ?? "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
        const bytes = typeof answer === "string" ? new TextEncoder().encode(answer) : answer;
        for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
        if (path.startsWith("/then-close")) return;
      }
    } catch {
      // The client closed the connection.
    } finally {
      if (conns.delete(conn)) conn.close();
    }
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      void serveConn(conn, ++connCount);
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    seen,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of conns) conn.close();
      conns.clear();
      await accepting;
      await sleep(10);
    },
  };
}

const outbound = () =>
  new Outbound({ resolver: { resolve: () => Promise.resolve([]) }, allowed: ["127.0.0.1"] });

async function exchange(o: Outbound, url: string, keepBody = 1024) {
  const result = await o.request(url, { body: new TextEncoder().encode('{"a":1}'), keepBody });
  return "status" in result
    ? { status: result.status, body: new TextDecoder().decode(result.body) }
    : { error: result.error };
}

Deno.test("wire: the request line, Host, Content-Length and body are written exactly", async () => {
  await using server = rawServer({ "/x?y=1": "HTTP/1.1 204 No Content\r\n\r\n" });
  using o = outbound();
  await o.request(server.url("/x?y=1"), {
    body: new TextEncoder().encode('{"a":1}'),
    headers: { "X-Test": "yes", "Content-Length": "999", Host: "evil.test" },
  });
  const [req] = server.seen;
  assert.equal(req.body, '{"a":1}');
  assert.deepEqual(req.head.split("\r\n"), [
    "POST /x?y=1 HTTP/1.1",
    `Host: ${new URL(server.url("/")).host}`,
    "X-Test: yes",
    "Content-Length: 7",
  ]);
});

Deno.test("wire: framing by length, chunks (extensions, trailers) and interim responses", async () => {
  await using server = rawServer({
    "/length": "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    "/same-lengths": "HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok",
    "/chunked": "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n" +
      "3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nX-Trailer: t\r\n\r\n",
    "/interim": "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" +
      "HTTP/1.1 202 Accepted\r\nContent-Length: 4\r\n\r\ndone",
    "/no-content": "HTTP/1.1 204 No Content\r\n\r\n",
    "/kept": "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 10\r\n\r\n0123456789",
  });
  using o = outbound();
  assert.deepEqual(await exchange(o, server.url("/length")), { status: 200, body: "hello" });
  assert.deepEqual(await exchange(o, server.url("/same-lengths")), { status: 200, body: "ok" });
  assert.deepEqual(await exchange(o, server.url("/chunked")), {
    status: 201,
    body: "abc0123456789abcdef",
  });
  assert.deepEqual(await exchange(o, server.url("/interim")), { status: 202, body: "done" });
  assert.deepEqual(await exchange(o, server.url("/no-content")), { status: 204, body: "" });
  assert.deepEqual(await exchange(o, server.url("/kept"), 4), { status: 500, body: "0123" });
  assert.deepEqual(await exchange(o, server.url("/length")), { status: 200, body: "hello" });
  assert.equal(new Set(server.seen.map((r) => r.conn)).size, 1, "one connection carried all");
});

Deno.test("wire: a connection is not reused after close, HTTP/1.0, an unframed body or extra bytes", async () => {
  await using server = rawServer({
    "/ok": "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    "/close": "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
    "/http10": "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n",
    "/then-close-unframed": "HTTP/1.1 200 OK\r\n\r\nall of it",
    "/extra": "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
    "/hint-short": "HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 0\r\n\r\n",
  });
  using o = outbound();
  const paths = ["/ok", "/close", "/ok", "/http10", "/ok", "/then-close-unframed", "/ok"];
  const results = [];
  for (const path of [...paths, "/extra", "/ok", "/hint-short", "/ok"]) {
    results.push(await exchange(o, server.url(path)));
  }
  assert.equal(results[5].body, "all of it", "a body without framing runs to the close");
  const conns = server.seen.map((r) => r.conn);
  assert.deepEqual(conns, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
});

Deno.test("wire: malformed or cut-short responses fail the attempt and drop the connection", async () => {
  const huge = "HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(MAX_HEAD_BYTES) + "\r\n\r\n";
  await using server = rawServer({
    "/then-close-status": "HTTP/2 200\r\n\r\n",
    "/then-close-header": "HTTP/1.1 200 OK\r\nno colon here\r\nContent-Length: 0\r\n\r\n",
    "/then-close-length": "HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nabc",
    "/then-close-chunk": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "/then-close-short": "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this",
    "/then-close-nothing": "",
    "/then-close-huge": huge,
  });
  using o = outbound();
  const errors: Record<string, string | undefined> = {};
  for (const name of ["status", "header", "length", "chunk", "short", "nothing", "huge"]) {
    errors[name] = (await exchange(o, server.url(`/then-close-${name}`))).error;
  }
  assert.deepEqual(errors, {
    status: "connection error: invalid status line",
    header: "connection error: invalid header line",
    length: "connection error: invalid Content-Length",
    chunk: "connection error: invalid chunk size",
    short: "connection reset",
    nothing: "connection reset",
    huge: "connection error: response head too large",
  });
});

Deno.test("wire: an idle connection the receiver closed is never used for the next request", async () => {
  await using server = rawServer({
    "/then-close-after": "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
    "/ok": "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
  });
  using o = outbound();
  // The response says nothing about closing, but the server closes right after it.
  assert.deepEqual(await exchange(o, server.url("/then-close-after")), { status: 200, body: "ok" });
  await sleep(50);
  assert.deepEqual(await exchange(o, server.url("/ok")), { status: 200, body: "ok" });
  assert.deepEqual(server.seen.map((r) => r.conn), [1, 2]);
});
