/**
 * One received email, whichever way it came (import, the operator's mail worker, the SMTP
 * receiver, mailbox polling): read it with the workspace's custom templates, check the real
 * sender against the source's allow-list, and hand it to `receiveMessage`.
 */
import { senderVerdict, type StoredEmailSource } from "../domain/email_source.ts";
import type { Reading } from "../domain/intake.ts";
import { listTemplates } from "../store/templates.ts";
import { type CompiledTemplate, compileTemplate } from "./email/custom.ts";
import { type EmailReading, readEmail } from "./email/read.ts";
import { type Received, receiveMessage, type ReceiveOptions } from "./receive.ts";

export interface IncomingMail {
  userId: string;
  raw: Uint8Array;
  /** The source it arrived through (forwarding address, mailbox); none for a plain import. */
  source?: StoredEmailSource | null;
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

export async function receiveMail(
  kv: Deno.Kv,
  mail: IncomingMail,
  options: ReceiveOptions,
): Promise<MailResult> {
  const { userId, raw, source } = mail;
  const read = await readEmail(raw, {
    now: options.now,
    customTemplates: await customTemplatesOf(kv, userId),
  });
  const verdict = source ? senderVerdict(source.allowedSenders, read.realSender) : "allowed";
  let reading: Reading = read.reading;
  if (verdict !== "allowed") reading = { kind: "blocked", sender: read.realSender };
  else if (reading.kind === "order" && source) {
    reading = { ...reading, fields: { ...reading.fields, sourceId: source.id } };
  }
  const received = await receiveMessage(kv, {
    userId,
    channel: "email",
    ...(source ? { sourceId: source.id } : {}),
    identity: read.identity,
    raw,
    facts: read.facts,
    reading,
  }, options);
  return {
    received,
    read,
    ...(verdict === "blocked" && read.realSender ? { blockedSender: read.realSender } : {}),
  };
}
