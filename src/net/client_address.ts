import { AddressList, formatIp, parseIp } from "../lib/ip.ts";

/**
 * Who the client is, for the per-IP rate limits and the bot check (docs/architecture.md,
 * Conventions).
 *
 * Without trusted proxies (the spec's rule): the first `X-Forwarded-For` address, else the
 * connection's address. Whoever sends the header chooses it.
 *
 * With `TRUSTED_PROXIES`: the header is believed only on a connection from a listed address.
 * Each proxy appends the address it was connected from, so the entries are read from the right:
 * listed addresses (the proxies) are skipped and the first other entry is the client. Everything
 * right of it was written by trusted proxies, so a client cannot choose it; what a client sends
 * itself stays to its left. When every entry is a proxy, the leftmost is the client.
 */
export class ClientAddress {
  readonly #trusted: AddressList | null;

  constructor(trustedProxies: string[]) {
    this.#trusted = trustedProxies.length > 0 ? new AddressList(trustedProxies) : null;
  }

  /** The client, from the `X-Forwarded-For` value and the connection's address. */
  of(forwardedFor: string | undefined, peer: string | undefined): string {
    const entries = (forwardedFor ?? "").split(",").map((entry) => entry.trim());
    const connection = peer ?? "unknown";
    if (!this.#trusted) return entries[0] || connection;
    if (!this.#isTrusted(peer)) return connection;
    const hops = entries.filter(Boolean);
    const client = hops.findLast((hop) => !this.#isTrusted(hop)) ?? hops[0];
    return client === undefined ? connection : canonical(client);
  }

  #isTrusted(address: string | undefined): boolean {
    const ip = address === undefined ? null : parseIp(withoutPort(address));
    return ip !== null && this.#trusted!.has(ip);
  }
}

/** `198.51.100.7:5000` and `[2001:db8::7]:443` as some proxies write them, without the port. */
function withoutPort(entry: string): string {
  const match = /^\[([^\]]+)\](?::\d+)?$/.exec(entry) ?? /^([\d.]+):\d+$/.exec(entry);
  return match ? match[1] : entry;
}

/** One spelling per address, so a proxy's notation cannot split one client's count. */
function canonical(entry: string): string {
  const ip = parseIp(withoutPort(entry));
  return ip ? formatIp(ip) : entry;
}
