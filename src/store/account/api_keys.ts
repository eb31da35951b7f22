import {
  API_KEY_LIMIT,
  API_KEY_PREFIX_LENGTH,
  apiKeyName,
  type ApiKeyRecord,
} from "../../domain/account/api_key.ts";
import { AccountGoneError } from "../../errors.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { newId, randomToken } from "../../lib/ids.ts";
import type { ApiKeyUseRecorder } from "./api_key_use.ts";
import type { ApiKeyLookup } from "./credentials.ts";
import { keys } from "../keys.ts";
import { addToCounter, commit, counterValue, listValues, lookup, withRetry } from "../kv.ts";

/** As stored: the record plus the key's SHA-256 (never returned, needed to revoke). */
interface StoredApiKey extends Omit<ApiKeyRecord, "lastUsedAt"> {
  hash: string;
}

export type CreateApiKeyResult = { ok: true; key: string; record: ApiKeyRecord } | {
  ok: false;
  limit: number;
};

/**
 * Creates a key: `sk_` + 32 random bytes (base64url). The count check and the increment sit in
 * the same commit as the key, so concurrent creates never pass 25; the account check keeps a
 * key from outliving a concurrent account deletion.
 */
export async function createApiKey(
  kv: Deno.Kv,
  userId: string,
  name: string | null | undefined,
  now = Date.now(),
): Promise<CreateApiKeyResult> {
  const key = `sk_${randomToken(32)}`;
  const stored: StoredApiKey = {
    id: newId("key", now),
    name: apiKeyName(name),
    prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
    createdAt: new Date(now).toISOString(),
    hash: await sha256Hex(key),
  };
  return withRetry<CreateApiKeyResult>(async () => {
    const [user, count] = await kv.getMany<[unknown, Deno.KvU64]>([
      keys.user(userId),
      keys.apiKeyCount(userId),
    ]);
    if (!user.versionstamp) throw new AccountGoneError();
    if (counterValue(count.value) >= API_KEY_LIMIT) {
      return { commit: null, value: { ok: false, limit: API_KEY_LIMIT } };
    }
    const lookup: ApiKeyLookup = { userId, keyId: stored.id };
    const op = kv.atomic()
      .check(user)
      .check(count)
      .set(keys.apiKey(userId, stored.id), stored)
      .set(keys.apiKeyByHash(stored.hash), lookup);
    addToCounter(op, keys.apiKeyCount(userId), 1);
    return { commit: await commit(op), value: { ok: true, key, record: toRecord(stored) } };
  });
}

function toRecord(stored: StoredApiKey, lastUsed?: number): ApiKeyRecord {
  const { hash: _secret, ...record } = stored;
  return lastUsed === undefined
    ? record
    : { ...record, lastUsedAt: new Date(lastUsed).toISOString() };
}

/**
 * The account's keys, newest first, each with its latest use: the stored time, or a use the
 * recorder has not written yet. Pending uses are read before the stored times, so a write
 * that lands in between is seen in one or the other.
 */
export async function listApiKeys(
  kv: Deno.Kv,
  userId: string,
  use: ApiKeyUseRecorder,
): Promise<ApiKeyRecord[]> {
  const stored = await listValues<StoredApiKey>(kv, { prefix: keys.apiKeys(userId) }, {
    reverse: true,
  });
  const pending = new Map(stored.map((key) => [key.id, use.pending(key.id)]));
  const lastUsed = new Map<string, number>();
  for await (const entry of kv.list<number>({ prefix: keys.apiKeysLastUsed(userId) })) {
    lastUsed.set(String(entry.key.at(-1)), entry.value);
  }
  return stored.map((key) => {
    const times = [lastUsed.get(key.id), pending.get(key.id)].filter((t) => t !== undefined);
    return toRecord(key, times.length ? Math.max(...times) : undefined);
  });
}

/**
 * Revokes a key: its record, hash lookup and last-use time go in one commit, so the next
 * request with it gets 401. False when the account has no such key.
 */
export function revokeApiKey(kv: Deno.Kv, userId: string, keyId: string): Promise<boolean> {
  return withRetry(async () => {
    const entry = await lookup<StoredApiKey>(kv, keys.apiKey(userId, keyId));
    if (!entry.value) return { commit: null, value: false };
    const op = kv.atomic()
      .check(entry)
      .delete(entry.key)
      .delete(keys.apiKeyByHash(entry.value.hash))
      .delete(keys.apiKeyLastUsed(userId, keyId));
    addToCounter(op, keys.apiKeyCount(userId), -1);
    return { commit: await commit(op), value: true };
  });
}

/**
 * Revokes every key of the account (a password reset). Passes again while keys remain, since
 * a key being revoked can still create one in between (the 25-key cap bounds that); answers
 * how many were revoked.
 */
export async function revokeAllApiKeys(kv: Deno.Kv, userId: string): Promise<number> {
  let revoked = 0;
  for (let pass = 0; pass < 5; pass++) {
    const stored = await listValues<StoredApiKey>(kv, { prefix: keys.apiKeys(userId) });
    if (!stored.length) break;
    for (const key of stored) if (await revokeApiKey(kv, userId, key.id)) revoked++;
  }
  return revoked;
}

/** The global hash lookups of every key of the account: what account deletion removes. */
export async function apiKeyLookupKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  const stored = await listValues<StoredApiKey>(kv, { prefix: keys.apiKeys(userId) });
  return stored.map((key) => keys.apiKeyByHash(key.hash));
}
