import assert from "node:assert/strict";
import { AddressList, formatIp, isAddressList, parseIp } from "../../src/lib/ip.ts";
import { clientKey, refusedRange } from "../../src/net/address.ts";

/** [literal, canonical address, the refused range or null when globally reachable]. */
const TABLE: [string, string, string | null][] = [
  // IPv4 loopback, including the spellings a URL host accepts
  ["127.0.0.1", "127.0.0.1", "loopback"],
  ["127.255.255.254", "127.255.255.254", "loopback"],
  ["2130706433", "127.0.0.1", "loopback"],
  ["0x7f000001", "127.0.0.1", "loopback"],
  ["0x7f.1", "127.0.0.1", "loopback"],
  ["0177.0.0.1", "127.0.0.1", "loopback"],
  ["0177.1", "127.0.0.1", "loopback"],
  ["127.1", "127.0.0.1", "loopback"],
  ["127.0.1", "127.0.0.1", "loopback"],
  ["127.0.0.1.", "127.0.0.1", "loopback"],
  ["0x7F.0.0.0x1", "127.0.0.1", "loopback"],
  // this network, broadcast, reserved
  ["0.0.0.0", "0.0.0.0", "this network"],
  ["0", "0.0.0.0", "this network"],
  ["0.1.2.3", "0.1.2.3", "this network"],
  ["255.255.255.255", "255.255.255.255", "broadcast"],
  ["4294967295", "255.255.255.255", "broadcast"],
  ["240.0.0.1", "240.0.0.1", "reserved"],
  ["250.1.2.3", "250.1.2.3", "reserved"],
  // private, CGN, link-local
  ["10.0.0.1", "10.0.0.1", "private"],
  ["012.0.0.1", "10.0.0.1", "private"],
  ["167772161", "10.0.0.1", "private"],
  ["172.16.0.1", "172.16.0.1", "private"],
  ["172.31.255.255", "172.31.255.255", "private"],
  ["192.168.1.1", "192.168.1.1", "private"],
  ["0xc0.0xa8.1.1", "192.168.1.1", "private"],
  ["100.64.0.1", "100.64.0.1", "carrier-grade NAT"],
  ["100.127.255.255", "100.127.255.255", "carrier-grade NAT"],
  ["169.254.169.254", "169.254.169.254", "link-local"],
  ["0xa9fea9fe", "169.254.169.254", "link-local"],
  // documentation, benchmarking, protocol assignments, multicast
  ["192.0.0.8", "192.0.0.8", "IETF protocol assignments"],
  ["192.0.2.10", "192.0.2.10", "documentation"],
  ["198.51.100.7", "198.51.100.7", "documentation"],
  ["203.0.113.200", "203.0.113.200", "documentation"],
  ["198.18.0.1", "198.18.0.1", "benchmarking"],
  ["198.19.255.255", "198.19.255.255", "benchmarking"],
  ["192.88.99.1", "192.88.99.1", "reserved (6to4 relay anycast)"],
  ["224.0.0.1", "224.0.0.1", "multicast"],
  ["239.255.255.250", "239.255.255.250", "multicast"],
  // public IPv4, including neighbours of refused ranges
  ["8.8.8.8", "8.8.8.8", null],
  ["134744072", "8.8.8.8", null],
  ["1.1.1.1", "1.1.1.1", null],
  ["172.15.255.255", "172.15.255.255", null],
  ["172.32.0.1", "172.32.0.1", null],
  ["100.63.255.255", "100.63.255.255", null],
  ["100.128.0.1", "100.128.0.1", null],
  ["198.17.255.255", "198.17.255.255", null],
  ["223.255.255.254", "223.255.255.254", null],
  ["11.0.0.1", "11.0.0.1", null],
  // IPv6 loopback, unspecified, private, link-local, site-local, multicast, documentation
  ["::1", "::1", "loopback"],
  ["[::1]", "::1", "loopback"],
  ["0:0:0:0:0:0:0:1", "::1", "loopback"],
  ["::", "::", "unspecified"],
  ["fc00::1", "fc00::1", "private (unique local)"],
  ["fd12:3456:789a::1", "fd12:3456:789a::1", "private (unique local)"],
  ["fe80::1", "fe80::1", "link-local"],
  ["febf:ffff::1", "febf:ffff::1", "link-local"],
  ["fec0::1", "fec0::1", "site-local"],
  ["ff02::1", "ff02::1", "multicast"],
  ["2001:db8::1", "2001:db8::1", "documentation"],
  ["3fff::1", "3fff::1", "documentation"],
  ["2001:2::1", "2001:2::1", "benchmarking"],
  ["2001:10::1", "2001:10::1", "IETF protocol assignments"],
  ["100::1", "100::1", "discard-only"],
  ["64:ff9b:1::1", "64:ff9b:1::1", "NAT64 local-use"],
  ["4000::1", "4000::1", "reserved"],
  // IPv6 forms that embed IPv4
  ["::ffff:127.0.0.1", "127.0.0.1", "loopback"],
  ["[::ffff:7f00:1]", "127.0.0.1", "loopback"],
  ["0:0:0:0:0:ffff:a00:1", "10.0.0.1", "private"],
  ["::ffff:169.254.169.254", "169.254.169.254", "link-local"],
  ["::ffff:8.8.8.8", "8.8.8.8", null],
  ["::127.0.0.1", "::7f00:1", "loopback (IPv4-compatible 127.0.0.1)"],
  ["::10.1.2.3", "::a01:203", "private (IPv4-compatible 10.1.2.3)"],
  ["::8.8.8.8", "::808:808", "reserved"],
  ["::ffff:0:127.0.0.1", "::ffff:0:7f00:1", "loopback (IPv4-translated 127.0.0.1)"],
  ["64:ff9b::127.0.0.1", "64:ff9b::7f00:1", "loopback (NAT64 127.0.0.1)"],
  ["64:ff9b::a9fe:a9fe", "64:ff9b::a9fe:a9fe", "link-local (NAT64 169.254.169.254)"],
  ["64:ff9b::808:808", "64:ff9b::808:808", null],
  ["2002:7f00:1::", "2002:7f00:1::", "loopback (6to4 127.0.0.1)"],
  ["2002:c0a8:101::1", "2002:c0a8:101::1", "private (6to4 192.168.1.1)"],
  ["2002:808:808::1", "2002:808:808::1", null],
  // Teredo: server in bits 32-63, client XOR 0xffff in the last 32 bits
  ["2001:0:7f00:1::1", "2001:0:7f00:1::1", "loopback (Teredo server 127.0.0.1)"],
  ["2001:0:808:808::80ff:fffe", "2001:0:808:808::80ff:fffe", "loopback (Teredo client 127.0.0.1)"],
  ["2001:0:808:808::f7f7:f7f7", "2001:0:808:808::f7f7:f7f7", null],
  // public IPv6
  ["2606:4700:4700::1111", "2606:4700:4700::1111", null],
  ["2a00:1450:4001::200e", "2a00:1450:4001::200e", null],
];

Deno.test("the address table: every refused range and spelling, and public neighbours", () => {
  assert.ok(TABLE.length >= 60);
  for (const [literal, canonical, expected] of TABLE) {
    const ip = parseIp(literal);
    assert.ok(ip, `${literal} parses`);
    assert.equal(formatIp(ip), canonical, `${literal} normalises`);
    assert.equal(refusedRange(ip), expected, `${literal} classification`);
  }
});

Deno.test("host names and malformed literals are not addresses", () => {
  for (
    const text of [
      "example.com",
      "localhost",
      "127.0.0.1.example.com",
      "evil.com@127.0.0.1",
      "fe80::1%eth0",
      "1.2.3.4.5",
      "256.1.1.1",
      ":::1",
      "",
    ]
  ) {
    assert.equal(parseIp(text), null, text);
  }
});

Deno.test("the allowed list holds addresses and CIDR ranges of either family", () => {
  const list = new AddressList(["127.0.0.1", "10.1.0.0/16", "::1", "fd00::/8"]);
  const has = (text: string) => list.has(parseIp(text)!);
  assert.equal(has("127.0.0.1"), true);
  assert.equal(has("127.1"), true);
  assert.equal(has("::ffff:127.0.0.1"), true);
  assert.equal(has("127.0.0.2"), false);
  assert.equal(has("10.1.200.3"), true);
  assert.equal(has("10.2.0.1"), false);
  assert.equal(has("::1"), true);
  assert.equal(has("fd12::1"), true);
  assert.equal(has("fc00::1"), false);
  assert.equal(isAddressList(["127.0.0.1", "10.0.0.0/8", "::1/128"]), true);
  assert.equal(isAddressList(["localhost"]), false);
  assert.equal(isAddressList(["10.0.0.0/33"]), false);
  assert.throws(() => new AddressList(["nope"]));
});

Deno.test("clientKey: an IPv4 address is one client, an IPv6 /64 is one", () => {
  assert.equal(clientKey("127.0.0.2"), "127.0.0.2");
  assert.equal(clientKey("::ffff:127.0.0.2"), "127.0.0.2");
  assert.equal(clientKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(clientKey("2001:db8:1:2:bbbb::9"), "2001:db8:1:2::/64");
  assert.notEqual(clientKey("2001:db8:1:3::1"), clientKey("2001:db8:1:2::1"));
});
