/**
 * Which fields each kind of email source accepts, and how a create or an edit applies to a
 * source, as pure rules. What needs I/O stays with the caller: checking the mailbox host
 * (private addresses) and sealing the password.
 */
import {
  allowedSenderEntry,
  type EmailSourceKind,
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
