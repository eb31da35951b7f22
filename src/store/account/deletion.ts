import type { UserRecord } from "../../domain/account/user.ts";
import { apiKeyLookupKeysOf } from "./api_keys.ts";
import { botUrlKeysOf } from "../chat/bots.ts";
import { digestKeysOf } from "../chat/digest.ts";
import { sourceLookupKeysOf } from "../intake/email_sources.ts";
import { sessionKeysOf } from "./credentials.ts";
import { copierKeysOf } from "../chat/embed_copier.ts";
import { keys } from "../keys.ts";
import { addToCounter, commit, counterValue, deleteKeys, deletePrefix, withRetry } from "../kv.ts";
import { resetKeysOf } from "./password_resets.ts";
import { invitationKeysOf } from "./invitations.ts";
import { lookupKeysOf } from "./users.ts";
import { shareKeysOf } from "../insights/shares.ts";
import { verificationKeysOf } from "./email_verifications.ts";
import { billingCustomerKeysOf } from "../billing/provider.ts";

/**
 * Finders of the global keys an account owns beyond its record's lookups, each read from
 * back-references under its workspace. A capability that adds a global lookup adds its
 * finder here, so deleting the account removes it.
 */
const OWNED_GLOBAL_KEYS: ((kv: Deno.Kv, userId: string) => Promise<Deno.KvKey[]>)[] = [
  sessionKeysOf,
  apiKeyLookupKeysOf,
  resetKeysOf,
  invitationKeysOf,
  sourceLookupKeysOf,
  botUrlKeysOf,
  copierKeysOf,
  digestKeysOf,
  shareKeysOf,
  verificationKeysOf,
  billingCustomerKeysOf,
  (_kv, userId) => Promise.resolve([keys.leaderboardMember(userId)]),
];

/**
 * Platform counters that include the workspace: each is lowered by the workspace's own
 * counter (users by one).
 */
const PLATFORM_SHARES = [
  { stat: keys.stat("orders"), share: keys.orderCount },
  { stat: keys.stat("value_cents"), share: keys.valueCents },
];

/**
 * Deletes everything the account owns, in an order that leaves nothing behind:
 * 1. the account record, its email/username/handle/identity lookups and its shares of the
 *    platform counters, in one commit (from here no sign-in, session or key creation can
 *    succeed for it: those check the record in their own commits);
 * 2. the global lookups found through the workspace (sessions, API key hashes, reset tokens):
 *    every credential stops working;
 * 3. the whole `["ws", userId]` prefix (orders, events, keys, counters, ...).
 * False when there is no such account.
 */
export async function deleteAccount(kv: Deno.Kv, userId: string): Promise<boolean> {
  const deleted = await withRetry(async () => {
    const user = await kv.get<UserRecord>(keys.user(userId));
    if (!user.value) return { commit: null, value: false };
    const shares = await kv.getMany<Deno.KvU64[]>(PLATFORM_SHARES.map((p) => p.share(userId)));
    const op = kv.atomic().check(user, ...shares).delete(user.key);
    for (const key of lookupKeysOf(user.value)) op.delete(key);
    addToCounter(op, keys.stat("users"), -1);
    PLATFORM_SHARES.forEach(({ stat }, i) => {
      addToCounter(op, stat, -counterValue(shares[i].value));
      op.delete(shares[i].key);
    });
    return { commit: await commit(op), value: true };
  });
  if (!deleted) return false;
  const owned = await Promise.all(OWNED_GLOBAL_KEYS.map((find) => find(kv, userId)));
  await deleteKeys(kv, owned.flat());
  await deletePrefix(kv, keys.workspace(userId));
  return true;
}
