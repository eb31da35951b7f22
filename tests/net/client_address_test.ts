import assert from "node:assert/strict";
import { ClientAddress } from "../../src/net/client_address.ts";

Deno.test("client IP without TRUSTED_PROXIES: the first X-Forwarded-For address, else the connection's", () => {
  const spec = new ClientAddress([]);
  assert.equal(spec.of(" 203.0.113.9 , 10.0.0.1", "192.0.2.1"), "203.0.113.9");
  assert.equal(spec.of(undefined, "192.0.2.1"), "192.0.2.1");
  assert.equal(spec.of("", "192.0.2.1"), "192.0.2.1");
  assert.equal(spec.of(" , 203.0.113.9", "192.0.2.1"), "192.0.2.1", "an empty first entry");
  assert.equal(spec.of(undefined, undefined), "unknown");
});

Deno.test("client IP with TRUSTED_PROXIES: the header counts only from a listed proxy, read from the right", () => {
  const proxies = new ClientAddress(["10.0.0.0/8", "2001:db8:ffff::1"]);
  const cases: [string | undefined, string, string, string][] = [
    // [X-Forwarded-For, connection, client, why]
    ["198.51.100.7", "203.0.113.5", "203.0.113.5", "a direct client's header is ignored"],
    [undefined, "203.0.113.5", "203.0.113.5", "a direct client without the header"],
    ["198.51.100.7", "10.0.0.1", "198.51.100.7", "one proxy"],
    ["1.2.3.4, 198.51.100.7", "10.0.0.1", "198.51.100.7", "what the client sent stays left"],
    ["1.2.3.4, 198.51.100.7, 10.0.0.2", "10.0.0.1", "198.51.100.7", "proxy hops are skipped"],
    ["198.51.100.7, 2001:db8:ffff::1", "10.0.0.1", "198.51.100.7", "an IPv6 proxy hop"],
    ["10.0.0.3, 10.0.0.2", "10.0.0.1", "10.0.0.3", "all proxies: the leftmost"],
    [undefined, "10.0.0.1", "10.0.0.1", "a proxy's own request"],
    [" , ", "10.0.0.1", "10.0.0.1", "only empty entries"],
    ["198.51.100.7:5123", "10.0.0.1", "198.51.100.7", "a port is dropped"],
    ["[2001:DB8:0:0::7]:443", "10.0.0.1", "2001:db8::7", "IPv6 in brackets, canonical"],
    ["garbage, unknown", "10.0.0.1", "unknown", "the proxy's word, whatever it is"],
    ["198.51.100.7", "::ffff:10.0.0.1", "198.51.100.7", "an IPv4-mapped proxy connection"],
  ];
  for (const [header, peer, client, why] of cases) {
    assert.equal(proxies.of(header, peer), client, why);
  }
});
