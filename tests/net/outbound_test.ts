import assert from "node:assert/strict";
import {
  Outbound,
  OUTBOUND_TIMEOUT_MS,
  PRIVATE_ADDRESS_MESSAGE as PRIVATE,
} from "../../src/net/outbound.ts";
import { IDLE_CONNECTION_MS } from "../../src/net/http.ts";
import type { Resolver } from "../../src/net/resolver.ts";
import { closedPort, sleep, slowBody, startReceiver, TLS_CA } from "./receiver.ts";

/** Answers from a table; a function entry answers per call (rebinding). */
function fakeResolver(table: Record<string, string[] | ((call: number) => string[])>) {
  const calls: string[] = [];
  const resolver: Resolver = {
    resolve(host) {
      calls.push(host);
      const entry = table[host];
      if (host === "throws.test") return Promise.reject(new Error("SERVFAIL"));
      if (host === "hangs.test") return new Promise(() => {});
      const n = calls.filter((h) => h === host).length;
      return Promise.resolve(typeof entry === "function" ? entry(n) : entry ?? []);
    },
  };
  return { resolver, calls };
}

const NAMES = {
  "public.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "mixed.test": ["93.184.216.34", "10.0.0.5"],
  "v6private.test": ["2606:4700::1", "fd00::1"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "metadata.test": ["169.254.169.254"],
  "nat64.test": ["64:ff9b::a9fe:a9fe"],
  "localhost": ["127.0.0.1", "::1"],
  "loop.test": ["127.0.0.1"],
  "both.test": ["127.0.0.1", "8.8.8.8"],
  "nxdomain.test": [],
};

const GUARD_TABLE: [string, string | null][] = [
  ["https://public.test/hook", null],
  ["https://public.test:8443/x?y=1", null],
  ["HTTPS://PUBLIC.TEST/hook", null],
  ["http://public.test/hook", "must use https"],
  ["https://mixed.test/", PRIVATE],
  ["https://v6private.test/", PRIVATE],
  ["https://mapped.test/", PRIVATE],
  ["https://metadata.test/latest", PRIVATE],
  ["https://nat64.test/", PRIVATE],
  ["https://localhost/", PRIVATE],
  ["https://localhost:3000/hook", PRIVATE],
  ["https://nxdomain.test/", "host does not resolve"],
  ["https://throws.test/", "host does not resolve"],
  ["https://127.0.0.1/", PRIVATE],
  ["https://2130706433/", PRIVATE],
  ["https://0x7f.1/", PRIVATE],
  ["https://0177.0.0.1/", PRIVATE],
  ["https://127.1/", PRIVATE],
  ["https://127.0.0.1./", PRIVATE],
  ["https://%31%32%37.0.0.1/", PRIVATE],
  ["https://\uff11\uff12\uff17.0.0.1/", PRIVATE],
  ["https://[::1]/", PRIVATE],
  ["https://[::]/", PRIVATE],
  ["https://[::ffff:127.0.0.1]/", PRIVATE],
  ["https://[::ffff:7f00:1]/", PRIVATE],
  ["https://[::127.0.0.1]/", PRIVATE],
  ["https://[64:ff9b::10.0.0.1]/", PRIVATE],
  ["https://[2002:a00:1::]/", PRIVATE],
  ["https://[2001:0:7f00:1::1]/", PRIVATE],
  ["https://[fe80::1]/", PRIVATE],
  ["https://[fd00::1]/", PRIVATE],
  ["https://[ff02::1]/", PRIVATE],
  ["https://169.254.169.254/latest/meta-data", PRIVATE],
  ["https://0xa9fea9fe/", PRIVATE],
  ["https://10.0.0.1/", PRIVATE],
  ["https://172.16.5.4/", PRIVATE],
  ["https://192.168.0.1/", PRIVATE],
  ["https://100.64.1.1/", PRIVATE],
  ["https://0.0.0.0/", PRIVATE],
  ["https://0/", PRIVATE],
  ["https://255.255.255.255/", PRIVATE],
  ["https://192.0.2.1/", PRIVATE],
  ["https://198.18.0.1/", PRIVATE],
  ["https://224.0.0.1/", PRIVATE],
  ["https://240.0.0.1/", PRIVATE],
  ["https://8.8.8.8/", null],
  ["https://134744072/", null],
  ["https://[2606:4700:4700::1111]/", null],
  ["https://[::ffff:8.8.8.8]/", null],
  ["ftp://public.test/", "must use https"],
  ["javascript:alert(1)", "must use https"],
  ["file:///etc/passwd", "must use https"],
  ["not a url", "must be a valid URL"],
  ["https://", "must be a valid URL"],
  ["https://user:pass@public.test/", "must not contain credentials"],
  ["https://public.test@127.0.0.1/", "must not contain credentials"],
];

Deno.test("the guard table: schemes, spellings, resolved answers, embedded forms", async () => {
  assert.ok(GUARD_TABLE.length >= 50);
  const { resolver } = fakeResolver(NAMES);
  const outbound = new Outbound({ resolver, allowed: [] });
  for (const [url, expected] of GUARD_TABLE) {
    const checked = await outbound.check(url);
    assert.equal(checked.ok ? null : checked.error, expected, url);
  }
});

Deno.test("ALLOWED_PRIVATE_ADDRESSES exempts listed addresses; http only when all are listed", async () => {
  const { resolver } = fakeResolver(NAMES);
  const outbound = new Outbound({ resolver, allowed: ["127.0.0.1", "fd00::/8"] });
  const table: [string, string | null][] = [
    ["http://127.0.0.1:8080/hook", null],
    ["http://2130706433:8080/hook", null],
    ["https://127.0.0.1/", null],
    ["http://loop.test/", null],
    ["http://[fd00::5]/", null],
    ["http://both.test/", "must use https"],
    ["https://both.test/", null],
    ["http://127.0.0.2/", PRIVATE],
    ["https://localhost/", PRIVATE],
    ["http://8.8.8.8/", "must use https"],
  ];
  for (const [url, expected] of table) {
    const checked = await outbound.check(url);
    assert.equal(checked.ok ? null : checked.error, expected, url);
  }
});

Deno.test("a refusal names the address (and its range, for the logs)", async () => {
  const { resolver } = fakeResolver(NAMES);
  const checked = await new Outbound({ resolver, allowed: [] }).check("https://nat64.test/");
  assert.deepEqual(checked, {
    ok: false,
    error: PRIVATE,
    detail: "64:ff9b::a9fe:a9fe: link-local (NAT64 169.254.169.254)",
    address: "64:ff9b::a9fe:a9fe",
  });
});

Deno.test("rebinding: the connection goes to the address checked, with one lookup per send", async () => {
  await using receiver = startReceiver();
  // First answer loopback (allowed for the test), then a refused address.
  const { resolver, calls } = fakeResolver({
    "rebind.test": (n) => n === 1 ? ["127.0.0.1"] : ["10.1.2.3"],
  });
  const outbound = new Outbound({ resolver, allowed: ["127.0.0.1"] });
  const url = `http://rebind.test:${receiver.port}/hook`;
  const first = await outbound.request(url, { body: new TextEncoder().encode("{}") });
  assert.equal("status" in first && first.status, 200);
  assert.equal(calls.length, 1);
  assert.equal(receiver.requests[0].headers.get("host"), `rebind.test:${receiver.port}`);
  // The second send resolves again and is refused: it never reaches anything.
  const second = await outbound.request(url, { body: new TextEncoder().encode("{}") });
  assert.equal("error" in second && second.error, PRIVATE);
  assert.equal(calls.length, 2);
  assert.equal(receiver.requests.length, 1);
});

Deno.test("rebinding the other way: refused at check time, never connected", async () => {
  await using receiver = startReceiver();
  const { resolver, calls } = fakeResolver({
    "rebind.test": (n) => n === 1 ? ["10.1.2.3"] : ["127.0.0.1"],
  });
  const outbound = new Outbound({ resolver, allowed: ["127.0.0.1"] });
  const result = await outbound.request(`http://rebind.test:${receiver.port}/`);
  assert.equal("error" in result && result.error, PRIVATE);
  assert.equal(calls.length, 1);
  assert.equal(receiver.requests.length, 0);
});

function loopback(timeoutMs = 300, extra: Partial<ConstructorParameters<typeof Outbound>[0]> = {}) {
  const { resolver } = fakeResolver({
    "receiver.test": ["127.0.0.1"],
    "other.test": ["127.0.0.1"],
  });
  return new Outbound({ resolver, allowed: ["127.0.0.1"], timeoutMs, ...extra });
}

Deno.test("exchange outcomes: 2xx, 3xx not followed, 4xx, 5xx", async () => {
  await using target = startReceiver();
  await using receiver = startReceiver({
    reply: (req) => {
      const code = Number(req.path.slice(1));
      return code >= 300 && code < 400
        ? new Response(null, { status: code, headers: { location: target.url() } })
        : new Response(code === 204 ? null : "x", { status: code });
    },
  });
  const outbound = loopback();
  for (const code of [200, 204, 299, 301, 302, 307, 308, 400, 404, 410, 500, 503]) {
    const result = await outbound.request(receiver.url(`/${code}`), { body: new Uint8Array() });
    assert.ok("status" in result, `${code}: ${JSON.stringify(result)}`);
    assert.equal(result.status, code);
  }
  assert.equal(target.requests.length, 0, "redirects are not followed");
});

Deno.test("the request carries method, path, query, headers and body exactly", async () => {
  await using receiver = startReceiver();
  const body = new TextEncoder().encode('{"a":1,"b":"\u00e9"}');
  const result = await loopback().request(receiver.url("/path/x?q=1&r=2"), {
    body,
    headers: { "Content-Type": "application/json", "X-Test": "yes" },
  });
  assert.equal("status" in result && result.status, 200);
  const [req] = receiver.requests;
  assert.equal(req.method, "POST");
  assert.equal(req.path, "/path/x");
  assert.equal(req.body, '{"a":1,"b":"\u00e9"}');
  assert.equal(req.headers.get("content-type"), "application/json");
  assert.equal(req.headers.get("x-test"), "yes");
  assert.equal(req.headers.get("content-length"), String(body.byteLength));
  assert.equal(req.headers.get("host"), `127.0.0.1:${receiver.port}`);
});

Deno.test("the response body can be kept up to a bound", async () => {
  await using receiver = startReceiver({ reply: () => new Response("0123456789") });
  const result = await loopback().request(receiver.url(), { method: "GET", keepBody: 4 });
  assert.ok("status" in result);
  assert.equal(new TextDecoder().decode(result.body), "0123");
});

Deno.test("timeout: slow headers, slow body, and a resolver that never answers", async () => {
  await using receiver = startReceiver({
    reply: async (req) => {
      if (req.path === "/slow-body") return slowBody(2000);
      await sleep(2000, req.signal);
      return new Response("late");
    },
  });
  const outbound = loopback(300);
  for (const path of ["/slow-headers", "/slow-body"]) {
    const result = await outbound.request(receiver.url(path));
    assert.equal("error" in result && result.error, "timeout", path);
    assert.ok(result.durationMs >= 290 && result.durationMs < 1500, `${result.durationMs}`);
  }
  const { resolver } = fakeResolver({});
  const hung = await new Outbound({ resolver, allowed: [], timeoutMs: 200 })
    .request("https://hangs.test/");
  assert.equal("error" in hung && hung.error, "timeout");
});

Deno.test("the default deadline is 5 s for the whole exchange", async () => {
  assert.equal(OUTBOUND_TIMEOUT_MS, 5000);
  await using receiver = startReceiver({ reply: () => slowBody(7000) });
  const { resolver } = fakeResolver({});
  const outbound = new Outbound({ resolver, allowed: ["127.0.0.1"] });
  assert.equal(outbound.timeoutMs, 5000);
  const result = await outbound.request(receiver.url());
  assert.equal("error" in result && result.error, "timeout");
  assert.ok(result.durationMs >= 4990 && result.durationMs < 6000, `${result.durationMs}`);
});

Deno.test("connection failures: refused and reset", async () => {
  const outbound = loopback();
  const refused = await outbound.request(`http://127.0.0.1:${closedPort()}/`);
  assert.equal("error" in refused && refused.error, "connection refused");

  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const conn of listener) {
      await conn.read(new Uint8Array(1024));
      conn.close();
    }
  })();
  const reset = await outbound.request(`http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/`);
  assert.equal("error" in reset && reset.error, "connection reset");
  listener.close();
  await accepting;
});

Deno.test("https: the TLS server name and Host are the URL's host, the socket the checked address", async () => {
  await using receiver = startReceiver({ tls: true });
  const outbound = loopback(2000, { ca: [TLS_CA] });
  const ok = await outbound.request(`https://receiver.test:${receiver.port}/hook`);
  assert.equal("status" in ok && ok.status, 200);
  assert.equal(receiver.requests[0].headers.get("host"), `receiver.test:${receiver.port}`);
  // A certificate for another name is refused: the name is verified, not just the address.
  const wrongName = await outbound.request(`https://other.test:${receiver.port}/hook`);
  assert.ok(
    "error" in wrongName && wrongName.error.startsWith("TLS error"),
    JSON.stringify(wrongName),
  );
  // Without the test CA, the self-signed certificate is not trusted.
  const untrusted = await loopback(2000).request(`https://receiver.test:${receiver.port}/hook`);
  assert.ok("error" in untrusted && untrusted.error.startsWith("TLS error"));
  assert.equal(receiver.requests.length, 1);
});

Deno.test("keep-alive: requests to one checked address share a connection; close() ends it", async () => {
  await using receiver = startReceiver();
  using outbound = loopback(2000);
  for (let i = 0; i < 3; i++) {
    const result = await outbound.request(receiver.url(), { body: new Uint8Array() });
    assert.equal("status" in result && result.status, 200);
  }
  assert.equal(new Set(receiver.requests.map((r) => r.remotePort)).size, 1);
  outbound.close();
  await outbound.request(receiver.url(), { body: new Uint8Array() });
  assert.equal(new Set(receiver.requests.map((r) => r.remotePort)).size, 2);
});

Deno.test("keep-alive: a name that now resolves to another address gets a connection to that one", async () => {
  // Two receivers on one port, at 127.0.0.1 and 127.0.0.2; the name moves between them.
  await using first = startReceiver();
  await using second = startReceiver({ hostname: "127.0.0.2", port: first.port });
  const { resolver, calls } = fakeResolver({
    "moving.test": (n) => n === 2 ? ["127.0.0.2"] : ["127.0.0.1"],
  });
  using outbound = new Outbound({ resolver, allowed: ["127.0.0.0/8"], timeoutMs: 2000 });
  const url = `http://moving.test:${first.port}/hook`;
  for (let i = 0; i < 3; i++) {
    const result = await outbound.request(url, { body: new Uint8Array() });
    assert.equal("status" in result && result.status, 200);
  }
  assert.equal(calls.length, 3, "every send resolves and checks again");
  assert.equal(first.requests.length, 2);
  assert.equal(second.requests.length, 1, "the idle connection to 127.0.0.1 was not used");
  assert.equal(second.requests[0].headers.get("host"), `moving.test:${first.port}`);
  assert.equal(new Set(first.requests.map((r) => r.remotePort)).size, 1);
});

Deno.test("keep-alive: an address refused at send time is not reached over an idle connection", async () => {
  await using receiver = startReceiver();
  const { resolver } = fakeResolver({
    "rebind.test": (n) => n === 1 ? ["127.0.0.1"] : ["10.1.2.3"],
    "direct.test": ["127.0.0.1"],
  });
  using outbound = new Outbound({ resolver, allowed: ["127.0.0.1"], timeoutMs: 2000 });
  const ok = await outbound.request(`http://direct.test:${receiver.port}/`);
  assert.equal("status" in ok && ok.status, 200);
  await outbound.request(`http://rebind.test:${receiver.port}/`);
  const refused = await outbound.request(`http://rebind.test:${receiver.port}/`);
  assert.equal("error" in refused && refused.error, PRIVATE);
  assert.equal(receiver.requests.length, 2);
});

Deno.test("keep-alive: the deadline covers a reused connection, which is then dropped", async () => {
  await using receiver = startReceiver({
    reply: async (req) => {
      if (req.path === "/slow-body") return slowBody(2000);
      if (req.path === "/slow") await sleep(2000, req.signal);
      return new Response("fine");
    },
  });
  using outbound = loopback(300);
  const paths = ["/fast", "/slow", "/fast", "/slow-body", "/fast"];
  const results = [];
  for (const path of paths) results.push(await outbound.request(receiver.url(path)));
  assert.deepEqual(
    results.map((r) => "status" in r ? r.status : r.error),
    [200, "timeout", 200, "timeout", 200],
  );
  await sleep(100);
  assert.equal(receiver.requests.length, 5, "no request is sent again on another connection");
  const ports = receiver.requests.map((r) => r.remotePort);
  assert.equal(ports[0], ports[1], "the slow request reused the idle connection");
  assert.notEqual(ports[2], ports[1], "a timed-out connection is not used again");
  assert.notEqual(ports[4], ports[3]);
});

Deno.test("keep-alive: idle connections close after IDLE_CONNECTION_MS or the receiver's hint", async () => {
  await using receiver = startReceiver({
    reply: (req) =>
      new Response("ok", {
        headers: req.path === "/close" ? { connection: "close" } : {},
      }),
  });
  using outbound = loopback(2000);
  const send = (path: string) => outbound.request(receiver.url(path));
  await send("/a");
  await send("/close");
  await send("/b");
  await sleep(IDLE_CONNECTION_MS + 300);
  await send("/c");
  const [a, closed, b, c] = receiver.requests.map((r) => r.remotePort);
  assert.equal(closed, a);
  assert.notEqual(b, closed, "Connection: close is honoured");
  assert.notEqual(c, b, "an idle connection is closed after IDLE_CONNECTION_MS");
});
