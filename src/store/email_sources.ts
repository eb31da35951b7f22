/**
 * Email sources in KV. A forwarding source owns a global lookup `["email_forward", slug]`,
 * written and removed in the source's own commits, so mail to a deleted address finds nothing
 * at once; account deletion removes it through `forwardingKeysOf`.
 */
import { publicSource, type StoredEmailSource } from "../domain/email_source.ts";
import { AccountGoneError } from "../errors.ts";
import { keys } from "./keys.ts";
import { changeValue, commit, deleteValue, listValues, lookup } from "./kv.ts";
import type { WorkspaceContext } from "./sections.ts";

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

/** Deletes a source and its forwarding address; false when not found. */
export function deleteEmailSource(kv: Deno.Kv, userId: string, id: string): Promise<boolean> {
  return deleteValue<StoredEmailSource>(kv, keys.emailSource(userId, id), (op, source) => {
    if (source.slug) op.delete(keys.forwardingAddress(source.slug));
  });
}

/** The source a forwarding address leads to, or null (unknown, deleted). */
export async function findForwardingTarget(
  kv: Deno.Kv,
  slug: string,
): Promise<ForwardingTarget | null> {
  return (await lookup<ForwardingTarget>(kv, keys.forwardingAddress(slug.toLowerCase()))).value;
}

/** The forwarding lookups of an account's sources: what deleting the account removes. */
export async function forwardingKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  return (await listEmailSources(kv, userId)).flatMap((s) =>
    s.slug ? [keys.forwardingAddress(s.slug)] : []
  );
}

/** The snapshot's and export's `emailSources`: as the API shows them (no passwords). */
export async function emailSourcesSection(ctx: WorkspaceContext) {
  return (await listEmailSources(ctx.kv, ctx.user.id)).map((s) => publicSource(s, ctx.mailDomain));
}
