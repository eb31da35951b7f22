/**
 * Share cards: a capped collection of the workspace whose records are also copied to a global
 * key by slug, which the public page reads; both go in one commit, so a deleted share is gone
 * from the page at once.
 */
import { SHARES_MAX } from "../../domain/insights/share.ts";
import type { ShareCard } from "../../domain/events/envelope.ts";
import { type CollectionSpec, listItems } from "./collection.ts";
import { keys } from "../keys.ts";
import { backReferencedKeys, lookup } from "../kv.ts";
import type { Item, WorkspaceContext } from "../sections.ts";

/** What the public page reads: the card and whose it is. */
export interface PublicShare {
  userId: string;
  card: ShareCard;
}

export const SHARES: CollectionSpec<ShareCard> = {
  items: keys.shares,
  item: keys.share,
  count: keys.shareCount,
  max: SHARES_MAX,
  globals: (userId, card) => [{ key: keys.publicShare(card.slug), value: { userId, card } }],
};

/** The account's shares, newest first. */
export async function listShares(kv: Deno.Kv, userId: string): Promise<ShareCard[]> {
  const all = await listItems(kv, SHARES, userId);
  return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.slug.localeCompare(a.slug));
}

/** A share by slug for the public page; null when there is none (or no more). */
export async function findPublicShare(kv: Deno.Kv, slug: string): Promise<PublicShare | null> {
  return (await lookup<PublicShare>(kv, keys.publicShare(slug))).value;
}

/** Global keys of the account's shares (for account deletion). */
export const shareKeysOf = (kv: Deno.Kv, userId: string) =>
  backReferencedKeys(kv, keys.shares(userId), keys.publicShare);

/** The export's `shares`. */
export async function sharesSection(ctx: WorkspaceContext): Promise<Item[]> {
  return await listShares(ctx.kv, ctx.user.id) as unknown as Item[];
}
