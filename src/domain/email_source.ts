/**
 * Email sources as pure rules: the two kinds, their public view, and the allow-list that
 * decides whether a message's real sender may create orders through a source.
 */

export const EMAIL_SOURCE_KINDS = ["forwarding", "imap"] as const;
export type EmailSourceKind = typeof EMAIL_SOURCE_KINDS[number];

/** Default mailbox port and folder for an IMAP source. */
export const IMAP_DEFAULTS = { port: 993, tls: true, mailbox: "INBOX" } as const;

export interface StoredEmailSource {
  id: string;
  kind: EmailSourceKind;
  name: string;
  /** Lower-case addresses (`orders@shop.com`) or domains (`@shop.com`); empty: any sender. */
  allowedSenders: string[];
  active: boolean;
  createdAt: string;
  updatedAt?: string;
  /** forwarding: the local part of the forwarding address. */
  slug?: string;
  /** imap */
  host?: string;
  port?: number;
  tls?: boolean;
  username?: string;
  mailbox?: string;
  /** The mailbox password, sealed for this source's id; never shown. */
  sealedPassword?: string;
  lastPolledAt?: string;
  lastError?: string;
}

/** What the API, the snapshot and the export show: never the password. */
export function publicSource(source: StoredEmailSource, mailDomain: string) {
  const { slug, sealedPassword: _, ...rest } = source;
  return slug ? { ...rest, forwardingAddress: `${slug}@${mailDomain}` } : rest;
}

export function defaultSourceName(kind: EmailSourceKind, host?: string): string {
  return kind === "forwarding" ? "Forwarding address" : `Mailbox ${host ?? ""}`.trim();
}

/** `Orders@Shop.com` -> `orders@shop.com`, `@Shop.com` -> `@shop.com`; null when neither. */
export function allowedSenderEntry(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  const domain = /^@?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})$/;
  if (value.startsWith("@")) return domain.test(value) ? value : null;
  const at = value.lastIndexOf("@");
  if (at <= 0 || value.length > 254) return null;
  return domain.test(value.slice(at + 1)) && !/\s/.test(value.slice(0, at)) ? value : null;
}

export type SenderVerdict = "allowed" | "blocked" | "no_sender";

/**
 * Whether `sender` (the real sender, lower case) may use a source: an empty list allows
 * anyone; an address entry matches exactly; a domain entry matches the domain and its
 * subdomains. A message with no sender is blocked by a non-empty list.
 */
export function senderVerdict(
  allowed: readonly string[],
  sender: string | undefined,
): SenderVerdict {
  if (allowed.length === 0) return "allowed";
  if (!sender) return "no_sender";
  const address = sender.toLowerCase();
  const domain = address.slice(address.lastIndexOf("@") + 1);
  for (const entry of allowed) {
    if (entry.startsWith("@")) {
      const d = entry.slice(1);
      if (domain === d || domain.endsWith(`.${d}`)) return "allowed";
    } else if (entry === address) return "allowed";
  }
  return "blocked";
}
