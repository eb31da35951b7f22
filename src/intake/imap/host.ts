/**
 * The mailbox host rule, one place for the source routes (create, PATCH) and every connection
 * (as DNS can change): the private-address rule of webhook URLs, and plain IMAP only for hosts
 * in ALLOWED_PRIVATE_ADDRESSES (as `http:` receivers). `loginOf` is where a session connects.
 */
import type { IntakeDeps } from "../deps.ts";
import { mailboxBinding, type StoredEmailSource } from "../../domain/intake/email_source.ts";
import { SecretBox } from "../../lib/secret_box.ts";
import { formatIp } from "../../lib/ip.ts";
import type { Outbound } from "../../net/outbound.ts";
import { MailboxError, type MailboxLogin } from "./client.ts";

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

/**
 * The connection's target (the checked address) and the opened password. The password opens
 * only for the host, port, TLS and username it was sealed with (`mailboxBinding`), so a source
 * pointed elsewhere without the password given again has none to send.
 */
export async function loginOf(
  deps: IntakeDeps,
  source: StoredEmailSource,
  signal: AbortSignal,
): Promise<MailboxLogin> {
  const binding = mailboxBinding(source);
  const [host, port, tls, username] = binding;
  const check = await checkMailboxHost(deps.outbound, host, tls, signal);
  if (!check.ok) throw new MailboxError(`${check.field}: ${check.error}`);
  const password = source.sealedPassword && deps.secrets
    ? await deps.secrets.open(source.sealedPassword, source.id, binding)
    : null;
  if (password === null) {
    throw new MailboxError("The mailbox password cannot be decrypted here; set it again");
  }
  return {
    address: check.address,
    port,
    tls,
    host,
    username,
    password,
    mailbox: source.mailbox ?? "INBOX",
    ca: deps.outbound.tlsRoots,
  };
}

/**
 * A password sealed before bindings existed (to the source's id alone), sealed again bound to
 * the fields it has just signed in with; null when it is bound already.
 */
export async function rebindPassword(
  deps: IntakeDeps,
  source: StoredEmailSource,
  password: string,
): Promise<string | null> {
  if (!source.sealedPassword || !deps.secrets || SecretBox.isBound(source.sealedPassword)) {
    return null;
  }
  return await deps.secrets.seal(password, source.id, mailboxBinding(source));
}
