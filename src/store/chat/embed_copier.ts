/**
 * The embed copier's submission URL, `<BASE_URL>/api/embed-copier/submit/<token>`: the token is
 * kept in the workspace (its owner sees the URL) and found through a global lookup by its
 * SHA-256, so the lookup's timing tells nothing about it. Rotating replaces both in one commit.
 */
import { sha256Hex } from "../../lib/crypto.ts";
import { randomToken } from "../../lib/ids.ts";
import { keys } from "../keys.ts";
import { commit, withRetry } from "../kv.ts";

export interface CopierRecord {
  token: string;
  createdAt: string;
}

export async function getCopier(kv: Deno.Kv, userId: string): Promise<CopierRecord | null> {
  return (await kv.get<CopierRecord>(keys.embedCopier(userId))).value;
}

/** Issues a new token (the first, or in place of the old one); null when the account is gone. */
export async function rotateCopier(
  kv: Deno.Kv,
  userId: string,
  now: number,
): Promise<CopierRecord | null> {
  const next: CopierRecord = { token: randomToken(24), createdAt: new Date(now).toISOString() };
  const lookupKey = keys.embedCopierByHash(await sha256Hex(next.token));
  return await withRetry(async () => {
    const [user, current] = await kv.getMany<[unknown, CopierRecord]>([
      keys.user(userId),
      keys.embedCopier(userId),
    ]);
    if (!user.versionstamp) return { commit: null, value: null };
    const op = kv.atomic().check(user, current).check({ key: lookupKey, versionstamp: null })
      .set(current.key, next).set(lookupKey, userId);
    if (current.value) op.delete(keys.embedCopierByHash(await sha256Hex(current.value.token)));
    return { commit: await commit(op), value: next };
  });
}

/** The account a submission token belongs to, or null. */
export async function findCopierUser(kv: Deno.Kv, token: string): Promise<string | null> {
  const key = keys.embedCopierByHash(await sha256Hex(token));
  return (await kv.get<string>(key)).value;
}

/** The global lookup an account owns (for account deletion). */
export async function copierKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  const record = await getCopier(kv, userId);
  return record ? [keys.embedCopierByHash(await sha256Hex(record.token))] : [];
}
