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
  /**
   * The mailbox password, sealed for this source's id and bound to `mailboxBinding` (older
   * values: to the id alone, until a poll signs in with them); never shown.
   */
  sealedPassword?: string;
  lastPolledAt?: string;
  lastError?: string;
}

/** What the API, the snapshot and the export show: never the password. */
export function publicSource(source: StoredEmailSource, mailDomain: string) {
  const { slug, sealedPassword: _, ...rest } = source;
  return slug ? { ...rest, forwardingAddress: `${slug}@${mailDomain}` } : rest;
}

/** The fields a mailbox password is given for: it is sent nowhere else. */
export const MAILBOX_BINDING_FIELDS = ["host", "port", "tls", "username"] as const;

/** A source's values of `MAILBOX_BINDING_FIELDS`, defaults filled in (what a login uses). */
export function mailboxBinding(
  source: Pick<StoredEmailSource, typeof MAILBOX_BINDING_FIELDS[number]>,
): [string, number, boolean, string] {
  return [
    source.host ?? "",
    source.port ?? IMAP_DEFAULTS.port,
    source.tls ?? IMAP_DEFAULTS.tls,
    source.username ?? "",
  ];
}

/**
 * Whether `next` points a mailbox elsewhere than `source` (host, port, TLS or username): its
 * stored password, bound to where it was given for, is then not used; the caller sends it again.
 */
export function movesMailbox(
  source: Pick<StoredEmailSource, typeof MAILBOX_BINDING_FIELDS[number]>,
  next: Pick<StoredEmailSource, typeof MAILBOX_BINDING_FIELDS[number]>,
): boolean {
  const was = mailboxBinding(source);
  return mailboxBinding(next).some((value, i) => value !== was[i]);
}

/** Why a request that moves a mailbox must carry its password. */
export const PASSWORD_FOR_MOVE = `password: required when ${
  MAILBOX_BINDING_FIELDS.join(", ")
} change`;

/** Where polling a mailbox has got to; kept apart from the source (the API never shows it). */
export interface MailboxCursor {
  /** Which mailbox (`mailboxIdentity`): a source moved to another mailbox starts again. */
  mailbox: string;
  /** The UIDVALIDITY the UIDs belong to (IMAP allows 32 bits; a string, as imapflow's is a bigint). */
  uidValidity: string;
  /** The highest UID read (0: none yet). */
  lastUid: number;
  /**
   * History: UIDs up to this one were in the mailbox when it was first read; of those, only
   * the ones received since `historySince` (epoch ms) are imported, without events.
   */
  historyUntil: number;
  historySince: number;
}

/** A new source (or one whose UIDVALIDITY changed) imports this much of what the mailbox holds. */
export const HISTORY_DAYS = 30;
const DAY_MS = 86_400_000;

/** A source's mailbox as the cursor names it: user, host, port and folder. */
export function mailboxIdentity(source: StoredEmailSource): string {
  return `${source.username}@${source.host}:${source.port}/${source.mailbox}`;
}

/**
 * The cursor a poll goes on from: the stored one while it is for the same mailbox and the
 * mailbox keeps its UIDVALIDITY, else a fresh one (UIDs of another mailbox or validity mean
 * nothing) whose history is what the mailbox holds now from the last `HISTORY_DAYS` days.
 */
export function cursorFor(
  stored: MailboxCursor | null,
  mailbox: { identity: string; uidValidity: string; uidNext: number },
  now: number,
): MailboxCursor {
  if (
    stored && stored.mailbox === mailbox.identity && stored.uidValidity === mailbox.uidValidity
  ) return stored;
  return {
    mailbox: mailbox.identity,
    uidValidity: mailbox.uidValidity,
    lastUid: 0,
    historyUntil: Math.max(0, mailbox.uidNext - 1),
    historySince: now - HISTORY_DAYS * DAY_MS,
  };
}

/**
 * Whether a source is due for a poll: active, imap, and not polled in the last interval (a
 * little early counts, so a tick that fires a few seconds late does not skip a round).
 */
export function pollDue(source: StoredEmailSource, now: number, intervalMs: number): boolean {
  if (source.kind !== "imap" || !source.active) return false;
  if (!source.lastPolledAt) return true;
  return Date.parse(source.lastPolledAt) <= now - intervalMs + Math.min(30_000, intervalMs / 2);
}

/** The start of a rebuild's window: `sinceDays` days before `now`. */
export function sinceDaysStart(sinceDays: number, now: number): number {
  return now - sinceDays * DAY_MS;
}

/**
 * The slug of a forwarding address at `mailDomain` (`<slug>@<domain>`, also `<slug>+tag@...`
 * and `Name <...>`, in any case); null for any other address.
 */
export function forwardingSlugOf(address: string, mailDomain: string): string | null {
  let a = address.trim().toLowerCase();
  const bracketed = /<([^<>]*)>$/.exec(a);
  if (bracketed) a = bracketed[1].trim();
  const at = a.lastIndexOf("@");
  if (at <= 0 || a.slice(at + 1) !== mailDomain.toLowerCase()) return null;
  const local = a.slice(0, at).split("+")[0];
  return /^[a-z0-9._-]{1,64}$/.test(local) ? local : null;
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
