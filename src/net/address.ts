/** Which addresses outbound requests refuse (the private-address guard), and per-client keys. */
import ipaddr from "ipaddr.js";
import { type Ip, parseIp } from "../lib/ip.ts";

type Range<T> = { range: [T, number]; name: string };

function v4Ranges(table: [string, string][]): Range<ipaddr.IPv4>[] {
  return table.map(([cidr, name]) => ({ range: ipaddr.IPv4.parseCIDR(cidr), name }));
}

function v6Ranges(table: [string, string][]): Range<ipaddr.IPv6>[] {
  return table.map(([cidr, name]) => ({ range: ipaddr.IPv6.parseCIDR(cidr), name }));
}

/** IANA special-purpose IPv4 ranges that are not globally reachable, plus the spec's list. */
const REFUSED_V4 = v4Ranges([
  ["0.0.0.0/8", "this network"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "carrier-grade NAT"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "reserved (6to4 relay anycast)"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["255.255.255.255/32", "broadcast"],
  ["240.0.0.0/4", "reserved"],
]);

/** IPv6 ranges refused outright; checked after the forms that embed IPv4. */
const REFUSED_V6 = v6Ranges([
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["64:ff9b:1::/48", "NAT64 local-use"],
  ["100::/64", "discard-only"],
  ["2001:2::/48", "benchmarking"],
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
  ["fc00::/7", "private (unique local)"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "site-local"],
  ["ff00::/8", "multicast"],
]);

const [TEREDO, NAT64, SIX_TO_FOUR, IETF_V6, GLOBAL_UNICAST] = [
  "2001::/32",
  "64:ff9b::/96",
  "2002::/16",
  "2001::/23",
  "2000::/3",
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

const v4FromWords = (hi: number, lo: number) =>
  new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 addresses an IPv6 address carries, with the name of the form that carries them. */
function embeddedIPv4(ip: ipaddr.IPv6): { v4: ipaddr.IPv4; form: string }[] {
  const p = ip.parts;
  const zeros = (n: number) => p.slice(0, n).every((w) => w === 0);
  if (zeros(6)) return [{ v4: v4FromWords(p[6], p[7]), form: "IPv4-compatible" }];
  if (zeros(4) && p[4] === 0xffff && p[5] === 0) {
    return [{ v4: v4FromWords(p[6], p[7]), form: "IPv4-translated" }];
  }
  if (ip.match(NAT64)) return [{ v4: v4FromWords(p[6], p[7]), form: "NAT64" }];
  if (ip.match(SIX_TO_FOUR)) return [{ v4: v4FromWords(p[1], p[2]), form: "6to4" }];
  if (ip.match(TEREDO)) {
    return [
      { v4: v4FromWords(p[2], p[3]), form: "Teredo server" },
      { v4: v4FromWords(p[6] ^ 0xffff, p[7] ^ 0xffff), form: "Teredo client" },
    ];
  }
  return [];
}

function refusedV4(ip: ipaddr.IPv4): string | null {
  return REFUSED_V4.find((r) => ip.match(r.range))?.name ?? null;
}

function refusedV6(ip: ipaddr.IPv6): string | null {
  if (ip.isIPv4MappedAddress()) return refusedV4(ip.toIPv4Address());
  // `::` and `::1` are named as themselves before reading them as IPv4-compatible forms.
  const special = REFUSED_V6.slice(0, 2).find((r) => ip.match(r.range));
  if (special) return special.name;
  const embedded = embeddedIPv4(ip);
  for (const { v4, form } of embedded) {
    const name = refusedV4(v4);
    if (name) return `${name} (${form} ${v4})`;
  }
  const named = REFUSED_V6.find((r) => ip.match(r.range));
  if (named) return named.name;
  if (ip.match(NAT64)) return null;
  if (ip.match(TEREDO)) return null;
  if (ip.match(IETF_V6)) return "IETF protocol assignments";
  // Outside 2000::/3 nothing is global unicast (this covers the deprecated IPv4-compatible and
  // IPv4-translated forms, whose embedded address was public).
  return ip.match(GLOBAL_UNICAST) ? null : "reserved";
}

/**
 * Why an address may not be the target of an outbound request (`"loopback"`,
 * `"private (NAT64 10.0.0.1)"`, ...), or null when it is globally reachable.
 */
export function refusedRange(ip: Ip): string | null {
  return ip.kind() === "ipv4" ? refusedV4(ip as ipaddr.IPv4) : refusedV6(ip as ipaddr.IPv6);
}

/**
 * What a per-client limit counts as one client: an IPv4 address, or the /64 of an IPv6 address
 * (one site's network, where a single host may hold any number of addresses).
 */
export function clientKey(address: string): string {
  const ip = parseIp(address);
  if (!ip) return address;
  if (ip.kind() === "ipv4") return ip.toString();
  const net = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16)).join(":");
  return `${net}::/64`;
}
