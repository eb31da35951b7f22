/**
 * The mailbox host rule, one place for the source routes (create, PATCH) and the poller (every
 * connection, as DNS can change): the private-address rule of webhook URLs, and plain IMAP only
 * for hosts in ALLOWED_PRIVATE_ADDRESSES (as `http:` receivers).
 */
import { formatIp } from "../../net/address.ts";
import type { Outbound } from "../../net/outbound.ts";

export const PLAIN_IMAP_MESSAGE =
  "plain IMAP is only allowed for hosts in ALLOWED_PRIVATE_ADDRESSES";

export type HostCheck =
  /** `address`: the checked IP address, the one the connection must go to. */
  | { ok: true; address: string }
  /** `field`: which source field is at fault; `error` is safe to show the owner. */
  | { ok: false; field: "host" | "tls"; error: string };

/** A host name or IP address as a source's `host` may spell it. */
export const MAILBOX_HOST = /^[a-z0-9.:[\]-]+$/i;

export async function checkMailboxHost(
  outbound: Outbound,
  host: string,
  tls: boolean,
  signal?: AbortSignal,
): Promise<HostCheck> {
  if (!MAILBOX_HOST.test(host)) {
    return { ok: false, field: "host", error: "must be a host name or address" };
  }
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const check = await outbound.check(`${tls ? "https" : "http"}://${urlHost}/`, signal);
  if (check.ok) return { ok: true, address: formatIp(check.addresses[0]) };
  if (!tls && check.error === "must use https") {
    return { ok: false, field: "tls", error: PLAIN_IMAP_MESSAGE };
  }
  return { ok: false, field: "host", error: check.error };
}
