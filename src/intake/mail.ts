/**
 * One received email, whichever way it came (import, the operator's mail worker, the SMTP
 * receiver, mailbox polling): read it with the workspace's custom templates, check the real
 * sender against the source's allow-list, and hand it to `receiveMessage`.
 */
import { senderVerdict, type StoredEmailSource } from "../domain/intake/email_source.ts";
import type { Reading } from "../domain/intake/reading.ts";
import { firstCopyOf, getIntakeEntry } from "../store/intake/log.ts";
import { listTemplates } from "../store/intake/templates.ts";
import { type CompiledTemplate, compileTemplate } from "./email/custom.ts";
import type { EmailReading } from "./email/read.ts";
import { type EmailReader, inProcessReader } from "./email/readers.ts";
import {
  type Received,
  type ReceiveDeps,
  receiveMessage,
  type ReceiveOptions,
  receiveOptions,
} from "./receive.ts";

export interface IncomingMail {
  userId: string;
  raw: Uint8Array;
  /** The source it arrived through (forwarding address, mailbox); none for a plain import. */
  source?: StoredEmailSource | null;
}

/** Where to read (the app's reader workers); this thread when not given. */
export interface ReadWith {
  reader?: EmailReader;
}

export interface MailResult {
  received: Received;
  read: EmailReading;
  /** The real sender, when the allow-list refused it. */
  blockedSender?: string;
}

/** The workspace's custom templates, newest first, compiled (a stored one always compiles). */
export async function customTemplatesOf(kv: Deno.Kv, userId: string): Promise<CompiledTemplate[]> {
  return (await listTemplates(kv, userId)).flatMap((t) => {
    const compiled = compileTemplate(t);
    return "error" in compiled ? [] : [compiled];
  });
}

/** The largest message any arrival path takes (the SMTP receiver answers 552; polling skips). */
export const MAX_MAIL_BYTES = 2 * 1024 * 1024;

/** A message read and checked against its source's allow-list, not yet stored. */
export interface ReadMail {
  read: EmailReading;
  /** The reading to store: `blocked` when the allow-list refused the real sender. */
  reading: Reading;
  blocked: boolean;
}

/** Reads a message with the workspace's custom templates (loaded when not given). */
export async function readMail(
  kv: Deno.Kv,
  mail: IncomingMail,
  now: number,
  templates?: CompiledTemplate[],
  reader: EmailReader = inProcessReader,
): Promise<ReadMail> {
  const { userId, raw, source } = mail;
  const read = await reader.read(raw, now, templates ?? await customTemplatesOf(kv, userId));
  const verdict = source ? senderVerdict(source.allowedSenders, read.realSender) : "allowed";
  let reading: Reading = read.reading;
  if (verdict !== "allowed") reading = { kind: "blocked", sender: read.realSender };
  else if (reading.kind === "order" && source) {
    reading = { ...reading, fields: { ...reading.fields, sourceId: source.id } };
  }
  return { read, reading, blocked: verdict !== "allowed" };
}

/** Stores a message read by `readMail` through `receiveMessage`. */
export async function storeMail(
  kv: Deno.Kv,
  mail: IncomingMail,
  { read, reading, blocked }: ReadMail,
  options: ReceiveOptions & { supersedes?: string },
): Promise<MailResult> {
  const { userId, raw, source } = mail;
  const { supersedes, ...receive } = options;
  const received = await receiveMessage(kv, {
    userId,
    channel: "email",
    ...(source ? { sourceId: source.id } : {}),
    identity: read.identity,
    raw,
    facts: read.facts,
    reading,
    ...(supersedes ? { supersedes } : {}),
  }, receive);
  return {
    received,
    read,
    ...(blocked && read.realSender ? { blockedSender: read.realSender } : {}),
  };
}

/** `receiveOptions` with the deployment's email reader: the options of the mail paths. */
export function mailOptions(
  deps: ReceiveDeps & { emailReader: EmailReader },
): ReceiveOptions & Required<ReadWith> {
  return { ...receiveOptions(deps), reader: deps.emailReader };
}

export async function receiveMail(
  kv: Deno.Kv,
  mail: IncomingMail,
  options: ReceiveOptions & ReadWith & { templates?: CompiledTemplate[] },
): Promise<MailResult> {
  const { templates, reader, ...receive } = options;
  const read = await readMail(kv, mail, options.now, templates, reader);
  return await storeMail(kv, mail, read, receive);
}

/** What reading a message of the history again came to. */
export type Reread =
  /** Stored now (new to the workspace, or an earlier copy that made no order now does). */
  | { kind: "stored"; result: MailResult }
  /** Already stored as part of `orderId`: that order's messages are what to re-read. */
  | { kind: "known"; orderId?: string };

/**
 * One message of a mailbox's history (a new source's first read, a rebuild): stored without
 * events, and a message the workspace already has is not logged again. A copy that made an
 * order names it (the rebuild re-reads that order's messages); a copy that made none is
 * replaced when the message now reads as an order its source allows.
 */
export async function rereadMail(
  kv: Deno.Kv,
  mail: IncomingMail,
  options: ReceiveOptions & ReadWith & { templates: CompiledTemplate[] },
): Promise<Reread> {
  const { templates, reader, ...receive } = options;
  const quiet = { ...receive, quiet: true };
  const read = await readMail(kv, mail, options.now, templates, reader);
  const first = await firstCopyOf(kv, mail.userId, "email", read.read.identity);
  if (!first) return { kind: "stored", result: await storeMail(kv, mail, read, quiet) };
  const entry = await getIntakeEntry(kv, mail.userId, first);
  if (entry?.orderId) return { kind: "known", orderId: entry.orderId };
  if (read.reading.kind !== "order") return { kind: "known" };
  return {
    kind: "stored",
    result: await storeMail(kv, mail, read, { ...quiet, supersedes: first }),
  };
}
