/**
 * IP addresses as text: the literal spellings a URL host accepts, their canonical form, and the
 * address lists of the configuration (`ALLOWED_PRIVATE_ADDRESSES`, `TRUSTED_PROXIES`). Parsing
 * only; which addresses outbound requests refuse is `net/address.ts`.
 */
import ipaddr from "ipaddr.js";

/** An IP address as ipaddr.js holds it. IPv4-mapped IPv6 addresses are unwrapped to IPv4. */
export type Ip = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Reads an IP literal in any spelling a URL host accepts (`2130706433`, `0x7f.1`, `0177.0.0.1`,
 * `127.1`, `[::ffff:127.0.0.1]`) and returns the address it names, or null for a host name.
 * IPv4 spellings go through the WHATWG host parser, so the address checked is the one a URL
 * with that host connects to.
 */
export function parseIp(text: string): Ip | null {
  let host = text.trim();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host.includes(":")) {
    // Zone ids (`fe80::1%eth0`) only name interfaces of this machine.
    if (!/^[0-9a-f:.]+$/i.test(host)) return null;
    const canonical = urlHost(`[${host}]`)?.slice(1, -1);
    // ipaddr.js would read `::127.0.0.1` as IPv4-mapped; the URL parser's hex form is exact.
    return canonical && ipaddr.IPv6.isValid(canonical) ? unmap(ipaddr.IPv6.parse(canonical)) : null;
  }
  if (!/^[0-9a-fx.]+$/i.test(host)) return null;
  const canonical = urlHost(host);
  return canonical && ipaddr.IPv4.isValidFourPartDecimal(canonical)
    ? ipaddr.IPv4.parse(canonical)
    : null;
}

/** The WHATWG URL parser's canonical form of a host, or null when it is not a valid host. */
function urlHost(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

function unmap(ip: ipaddr.IPv6): Ip {
  return ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip;
}

/** The canonical text of an address: dotted quad or RFC 5952 IPv6 (no brackets). */
export function formatIp(ip: Ip): string {
  return ip.kind() === "ipv6" ? (ip as ipaddr.IPv6).toRFC5952String() : ip.toString();
}

/** One entry of `ALLOWED_PRIVATE_ADDRESSES`: an address or a CIDR range. */
function parseEntry(entry: string): [Ip, number] | null {
  if (entry.includes("/")) {
    if (!ipaddr.isValidCIDR(entry)) return null;
    const [ip, bits] = ipaddr.parseCIDR(entry);
    return [ip, bits];
  }
  const ip = parseIp(entry);
  return ip ? [ip, ip.kind() === "ipv4" ? 32 : 128] : null;
}

/** True when every entry is an IP address or CIDR range (config validation). */
export function isAddressList(entries: string[]): boolean {
  return entries.every((e) => parseEntry(e) !== null);
}

/** A set of addresses and ranges, as `ALLOWED_PRIVATE_ADDRESSES` lists them. */
export class AddressList {
  readonly #ranges: [Ip, number][];

  constructor(entries: string[]) {
    this.#ranges = entries.map((e) => {
      const range = parseEntry(e);
      if (!range) throw new Error(`not an IP address or CIDR range: ${e}`);
      return range;
    });
  }

  has(ip: Ip): boolean {
    return this.#ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
  }
}
