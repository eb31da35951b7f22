/**
 * Email sources in KV. A forwarding source owns a global lookup `["email_forward", slug]`, an
 * imap source an entry in the polling index `["email_poll", userId, id]`; both are written and
 * removed in the source's own commits, so mail to a deleted address finds nothing at once and
 * a deleted mailbox is not polled again. Account deletion removes them through
 * `sourceLookupKeysOf`.
 */
import {
  type MailboxCursor,
  publicSource,
  type StoredEmailSource,
} from "../../domain/intake/email_source.ts";
import { AccountGoneError } from "../../errors.ts";
import { keys } from "../keys.ts";
import { changeValue, commit, deleteValue, listValues, lookup, withRetry } from "../kv.ts";
import type { WorkspaceContext } from "../sections.ts";

/** Where a forwarding address leads. */
export interface ForwardingTarget {
  userId: string;
  sourceId: string;
}

/**
 * Stores a new source with its forwarding lookup, in a commit that checks the account (a
 * deleted account gets nothing). False when the forwarding slug is already taken.
 */
export async function createEmailSource(
  kv: Deno.Kv,
  userId: string,
  source: StoredEmailSource,
): Promise<boolean> {
  const user = await kv.get(keys.user(userId));
  if (!user.value) throw new AccountGoneError();
  const key = keys.emailSource(userId, source.id);
  const op = kv.atomic().check(user).check({ key, versionstamp: null }).set(key, source);
  if (source.slug) {
    const forward = keys.forwardingAddress(source.slug);
    const target: ForwardingTarget = { userId, sourceId: source.id };
    op.check({ key: forward, versionstamp: null }).set(forward, target);
  }
  if (source.kind === "imap") op.set(keys.mailboxToPoll(userId, source.id), null);
  return (await commit(op)).ok;
}

/** The account's sources, newest first (ids sort in creation order). */
export function listEmailSources(kv: Deno.Kv, userId: string): Promise<StoredEmailSource[]> {
  return listValues<StoredEmailSource>(kv, { prefix: keys.emailSources(userId) }, {
    reverse: true,
  });
}

export async function getEmailSource(
  kv: Deno.Kv,
  userId: string,
  id: string,
): Promise<StoredEmailSource | null> {
  return (await lookup<StoredEmailSource>(kv, keys.emailSource(userId, id))).value;
}

/**
 * Applies `change` to the stored source with optimistic concurrency (a poller recording
 * `lastPolledAt` and a user's PATCH never overwrite each other). Null when not found.
 */
export function changeEmailSource(
  kv: Deno.Kv,
  userId: string,
  id: string,
  change: (source: StoredEmailSource) => StoredEmailSource,
): Promise<StoredEmailSource | null> {
  return changeValue(kv, keys.emailSource(userId, id), change);
}

/** Deletes a source, its forwarding address or polling entry and cursor; false when not found. */
export function deleteEmailSource(kv: Deno.Kv, userId: string, id: string): Promise<boolean> {
  return deleteValue<StoredEmailSource>(kv, keys.emailSource(userId, id), (op, source) => {
    if (source.slug) op.delete(keys.forwardingAddress(source.slug));
    op.delete(keys.mailboxToPoll(userId, id)).delete(keys.mailboxCursor(userId, id))
      .delete(keys.emailSourceRebuild(userId, id));
  });
}

/** The source a forwarding address leads to, or null (unknown, deleted). */
export async function findForwardingTarget(
  kv: Deno.Kv,
  slug: string,
): Promise<ForwardingTarget | null> {
  return (await lookup<ForwardingTarget>(kv, keys.forwardingAddress(slug.toLowerCase()))).value;
}

/** The active source a forwarding slug leads to, with its owner; null for any other. */
export async function findForwardingSource(
  kv: Deno.Kv,
  slug: string,
): Promise<{ userId: string; source: StoredEmailSource } | null> {
  const target = await findForwardingTarget(kv, slug);
  const source = target && await getEmailSource(kv, target.userId, target.sourceId);
  return source?.active ? { userId: target!.userId, source } : null;
}

/** The global keys of an account's sources: what deleting the account removes. */
export async function sourceLookupKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  return (await listEmailSources(kv, userId)).map((s) =>
    s.slug ? keys.forwardingAddress(s.slug) : keys.mailboxToPoll(userId, s.id)
  );
}

/** A mailbox the polling job walks. */
export interface MailboxRef {
  userId: string;
  sourceId: string;
}

/** Every imap source of the deployment, as the polling index lists them. */
export async function listMailboxesToPoll(kv: Deno.Kv): Promise<MailboxRef[]> {
  const out: MailboxRef[] = [];
  for await (const e of kv.list({ prefix: keys.mailboxesToPoll() }, { batchSize: 1000 })) {
    out.push({ userId: String(e.key[1]), sourceId: String(e.key[2]) });
  }
  return out;
}

/** Drops an index entry whose source is gone (an account deletion cut short). */
export async function forgetMailboxToPoll(kv: Deno.Kv, ref: MailboxRef): Promise<void> {
  await commit(kv.atomic().delete(keys.mailboxToPoll(ref.userId, ref.sourceId)));
}

export async function getMailboxCursor(
  kv: Deno.Kv,
  userId: string,
  sourceId: string,
): Promise<MailboxCursor | null> {
  return (await kv.get<MailboxCursor>(keys.mailboxCursor(userId, sourceId))).value;
}

/** Stores how far a mailbox was read, while its source exists; false when it is gone. */
export async function saveMailboxCursor(
  kv: Deno.Kv,
  userId: string,
  sourceId: string,
  cursor: MailboxCursor,
): Promise<boolean> {
  const source = keys.emailSource(userId, sourceId);
  return await withRetry(async () => {
    const entry = await kv.get(source);
    if (!entry.value) return { commit: null, value: false };
    const op = kv.atomic().check(entry).set(keys.mailboxCursor(userId, sourceId), cursor);
    return { commit: await commit(op), value: true };
  });
}

/** The snapshot's and export's `emailSources`: as the API shows them (no passwords). */
export async function emailSourcesSection(ctx: WorkspaceContext) {
  return (await listEmailSources(ctx.kv, ctx.user.id)).map((s) => publicSource(s, ctx.mailDomain));
}

/** How a source's latest rebuild went, or is going. */
export interface RebuildProgress {
  startedAt: string;
  sinceDays: number;
  /** Messages read so far, and how many of them were stored (new, or now an order). */
  read: number;
  stored: number;
  /** Orders re-read with today's templates, once the messages are done. */
  reparsed?: number;
  finishedAt?: string;
  /** Why the mailbox could not be read. */
  error?: string;
}

/** Records a rebuild's progress (the source's one record of it, replaced by the next). */
export async function saveRebuildProgress(
  kv: Deno.Kv,
  userId: string,
  sourceId: string,
  progress: RebuildProgress,
): Promise<void> {
  await commit(kv.atomic().set(keys.emailSourceRebuild(userId, sourceId), progress));
}

export async function getRebuildProgress(
  kv: Deno.Kv,
  userId: string,
  sourceId: string,
): Promise<RebuildProgress | null> {
  return (await lookup<RebuildProgress>(kv, keys.emailSourceRebuild(userId, sourceId))).value;
}
