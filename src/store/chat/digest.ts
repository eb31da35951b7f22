/**
 * The digest setting (`PATCH /api/chat/settings`) and its schedule: the workspace's record holds
 * the cadence and the next due time, and a global index `["chat_digest_due", dueMs, userId]`
 * lets the digest job read only what is due. Record and index change in one commit; a job
 * claims a due digest by moving it to its next time before sending (at most once per slot).
 */
import { DIGEST_PERIOD_MS, type DigestCadence, nextDue } from "../../domain/chat/outgoing.ts";
import { keys } from "../keys.ts";
import { commit, withRetry } from "../kv.ts";

export interface DigestRecord {
  digest: DigestCadence;
  /** Epoch ms of the next digest; absent when off. */
  nextAt?: number;
  lastSentAt?: string;
  updatedAt: string;
}

const OFF: DigestRecord = { digest: "off", updatedAt: new Date(0).toISOString() };

export async function getDigest(kv: Deno.Kv, userId: string): Promise<DigestRecord> {
  return (await kv.get<DigestRecord>(keys.chatDigest(userId))).value ?? OFF;
}

/**
 * Sets the cadence: the first digest is due one period from now (a daily digest arrives at the
 * time of day it was turned on). Setting the cadence it already has keeps its schedule. Null
 * when the account is gone.
 */
export async function setDigest(
  kv: Deno.Kv,
  userId: string,
  digest: DigestCadence,
  now: number,
): Promise<DigestRecord | null> {
  return await withRetry(async () => {
    const [user, entry] = await kv.getMany<[unknown, DigestRecord]>([
      keys.user(userId),
      keys.chatDigest(userId),
    ]);
    if (!user.versionstamp) return { commit: null, value: null };
    const current = entry.value ?? OFF;
    const same = current.digest === digest;
    const nextAt = digest === "off"
      ? undefined
      : same
      ? current.nextAt
      : now + DIGEST_PERIOD_MS[digest];
    const next: DigestRecord = {
      ...current,
      digest,
      updatedAt: new Date(now).toISOString(),
    };
    if (nextAt === undefined) delete next.nextAt;
    else next.nextAt = nextAt;
    const op = kv.atomic().check(user, entry).set(entry.key, next);
    if (current.nextAt !== undefined && current.nextAt !== nextAt) {
      op.delete(keys.chatDigestDue(current.nextAt, userId));
    }
    if (nextAt !== undefined) op.set(keys.chatDigestDue(nextAt, userId), null);
    return { commit: await commit(op), value: next };
  });
}

/** Up to `limit` digests due at `now`, oldest first. */
export async function dueDigests(kv: Deno.Kv, now: number, limit: number) {
  const out: { userId: string; dueAt: number }[] = [];
  const prefix = keys.chatDigestsDue();
  const iter = kv.list({ start: [...prefix], end: [...prefix, now + 1] }, { limit });
  for await (const e of iter) out.push({ dueAt: Number(e.key[1]), userId: String(e.key[2]) });
  return out;
}

/**
 * Claims a due digest: moves it to its next slot and records the send, in a commit checked
 * against the record. The cadence to send, or null when another run took it, the setting
 * changed, or the account is gone (its stale index entry is then removed).
 */
export async function claimDigest(
  kv: Deno.Kv,
  userId: string,
  dueAt: number,
  now: number,
): Promise<"daily" | "weekly" | null> {
  return await withRetry(async () => {
    const entry = await kv.get<DigestRecord>(keys.chatDigest(userId));
    const record = entry.value;
    const dueKey = keys.chatDigestDue(dueAt, userId);
    if (!record || record.digest === "off" || record.nextAt !== dueAt) {
      // Not this record's slot: an index entry nothing points at any more.
      const op = kv.atomic().check(entry).delete(dueKey);
      return { commit: await commit(op), value: null };
    }
    const nextAt = nextDue(dueAt, DIGEST_PERIOD_MS[record.digest], now);
    const next: DigestRecord = { ...record, nextAt, lastSentAt: new Date(now).toISOString() };
    const op = kv.atomic().check(entry).set(entry.key, next).delete(dueKey)
      .set(keys.chatDigestDue(nextAt, userId), null);
    return { commit: await commit(op), value: record.digest };
  });
}

/** The global index entry an account owns (for account deletion). */
export async function digestKeysOf(kv: Deno.Kv, userId: string): Promise<Deno.KvKey[]> {
  const { nextAt } = await getDigest(kv, userId);
  return nextAt === undefined ? [] : [keys.chatDigestDue(nextAt, userId)];
}
