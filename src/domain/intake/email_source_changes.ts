/**
 * Which fields each kind of email source accepts, how a create or an edit applies to a source,
 * and which mailbox a connection test signs in to, as pure rules. What needs I/O stays with the
 * caller: checking the mailbox host (private addresses), sealing and opening the password.
 */
import {
  allowedSenderEntry,
  type EmailSourceKind,
  IMAP_DEFAULTS,
  movesMailbox,
  PASSWORD_FOR_MOVE,
  type StoredEmailSource,
} from "./email_source.ts";

/** The fields a create or an edit may send (validated for shape by the API schema). */
export interface SourceChanges {
  name?: string;
  allowedSenders?: string[];
  active?: boolean;
  host?: string;
  port?: number;
  tls?: boolean;
  username?: string;
  password?: string;
  mailbox?: string;
}

/** Fields only a mailbox (imap) source takes. */
export const IMAP_ONLY_FIELDS = ["host", "port", "tls", "username", "password", "mailbox"] as const;

/** Fields a mailbox (imap) source is created with, always. */
export const IMAP_REQUIRED_FIELDS = ["host", "username", "password"] as const;

/** A refusal names the field first, as the API's 400 does. */
export type SourceChangeOutcome =
  | { ok: true; source: StoredEmailSource }
  | { ok: false; error: string };

/** Why a new source of `kind` cannot be created from `body` (a missing field), or null. */
export function missingOnCreate(kind: EmailSourceKind, body: SourceChanges): string | null {
  if (kind !== "imap") return null;
  const missing = IMAP_REQUIRED_FIELDS.find((field) => body[field] === undefined);
  return missing ? `${missing} is required` : null;
}

/** The allow-list as stored: each entry normalised, duplicates once; a malformed one named. */
function allowList(raw: string[]): { ok: true; list: string[] } | { ok: false; error: string } {
  const out = new Set<string>();
  for (const [i, entry] of raw.entries()) {
    const normal = allowedSenderEntry(entry);
    if (!normal) return { ok: false, error: `allowedSenders.${i}: must be an address or @domain` };
    out.add(normal);
  }
  return { ok: true, list: [...out] };
}

/**
 * `body` applied to `base` (a create starts from an empty source of its kind): the fields its
 * kind accepts, the host in lower case, and a mailbox moved elsewhere only with its password
 * sent again (a stored password goes only where it was given for).
 */
export function applySourceChanges(
  base: StoredEmailSource,
  body: SourceChanges,
  now: number,
): SourceChangeOutcome {
  const next: StoredEmailSource = { ...base };
  if (body.name !== undefined) next.name = body.name;
  if (body.allowedSenders !== undefined) {
    const allowed = allowList(body.allowedSenders);
    if (!allowed.ok) return allowed;
    next.allowedSenders = allowed.list;
  }
  if (body.active !== undefined) next.active = body.active;
  if (base.kind === "imap") {
    if (body.port !== undefined) next.port = body.port;
    if (body.tls !== undefined) next.tls = body.tls;
    if (body.username !== undefined) next.username = body.username;
    if (body.mailbox !== undefined) next.mailbox = body.mailbox;
    if (body.host !== undefined) next.host = body.host.toLowerCase();
    if (body.password === undefined && movesMailbox(base, next)) {
      return { ok: false, error: PASSWORD_FOR_MOVE };
    }
  } else {
    const sent = IMAP_ONLY_FIELDS.find((f) => body[f] !== undefined);
    if (sent) return { ok: false, error: `${sent}: only for imap sources` };
  }
  next.updatedAt = new Date(now).toISOString();
  return { ok: true, source: next };
}

/** The mailbox a connection test signs in to. */
export interface MailboxTarget {
  host: string;
  port: number;
  tls: boolean;
  username: string;
  mailbox: string;
}

export type TestTargetOutcome =
  | { ok: false; error: string }
  /** `useStored`: no password was sent and the source's stored one may go to `target`. */
  | { ok: true; target: MailboxTarget; useStored: boolean };

/**
 * What a connection test signs in to: the settings sent, the rest from `source` (an imap source
 * of the caller), else the defaults. The source's stored password goes only where it was given
 * for (as polling sends it): to another host, port, TLS or username it must be sent again.
 */
export function testTarget(
  body: Omit<SourceChanges, "name" | "allowedSenders" | "active">,
  source: StoredEmailSource | undefined,
): TestTargetOutcome {
  if (source && source.kind !== "imap") return { ok: false, error: "sourceId: not an imap source" };
  const host = body.host ?? source?.host;
  const username = body.username ?? source?.username;
  const port = body.port ?? source?.port ?? IMAP_DEFAULTS.port;
  const tls = body.tls ?? source?.tls ?? IMAP_DEFAULTS.tls;
  if (!host) return { ok: false, error: "host is required" };
  if (!username) return { ok: false, error: "username is required" };
  const useStored = body.password === undefined && source !== undefined;
  if (useStored && movesMailbox(source, { host, port, tls, username })) {
    return { ok: false, error: PASSWORD_FOR_MOVE };
  }
  const mailbox = body.mailbox ?? source?.mailbox ?? IMAP_DEFAULTS.mailbox;
  return { ok: true, target: { host, port, tls, username, mailbox }, useStored };
}
