/**
 * Walks every account, or every order of every account, a bounded batch at a time from a
 * cursor, for migrations and the verifier. Records that are not what the code expects (an
 * unknown key under a known prefix, a value cut short or of another shape) are handed to
 * `skip` with the reason, never to the caller.
 */
import { isOrderStatus, type Order } from "../../domain/orders/order.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { keys } from "../keys.ts";
import type { Cursor } from "./types.ts";

type Skip = (key: Deno.KvKey, why: string) => void;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isTime = (v: unknown) => typeof v === "string" && !Number.isNaN(Date.parse(v));

/** Why a stored account record cannot be used, or null when it can. */
export function userRecordProblem(entry: Deno.KvEntry<unknown>): string | null {
  const { key, value } = entry;
  if (key.length !== 2 || typeof key[1] !== "string") return "unknown key under user";
  if (!isObject(value)) return "account record is not an object";
  if (value.id !== key[1]) return "account record has another id";
  if (typeof value.email !== "string" || typeof value.timezone !== "string") {
    return "account record lacks email or timezone";
  }
  return null;
}

/** Why a stored order cannot be used, or null when it can. */
export function orderRecordProblem(entry: Deno.KvEntry<unknown>): string | null {
  const { key, value } = entry;
  if (key.length !== 4 || typeof key[3] !== "string") return "unknown key under order";
  if (!isObject(value)) return "order record is not an object";
  if (value.id !== key[3]) return "order record has another id";
  if (!isOrderStatus(value.status)) return "order record has no known status";
  if (!isTime(value.receivedAt) || !isTime(value.updatedAt)) {
    return "order record lacks receivedAt or updatedAt";
  }
  if (!Array.isArray(value.userEdited)) return "order record lacks userEdited";
  for (const field of ["costCents", "salePriceCents"]) {
    if (value[field] !== undefined && !Number.isSafeInteger(value[field])) {
      return `order record has a ${field} that is not a whole number`;
    }
  }
  for (const field of ["orderNumber", "trackingNumber", "actualDelivery", "estimatedDelivery"]) {
    if (value[field] !== undefined && typeof value[field] !== "string") {
      return `order record has a ${field} that is not text`;
    }
  }
  if (value.shippedAt !== undefined && !isTime(value.shippedAt)) {
    return "order record has a shippedAt that is not a time";
  }
  return null;
}

/**
 * Up to `limit` readable accounts after `cursor` (`[listCursor]`), and the next cursor (null
 * past the last). The cursor is KV's own list cursor, so unknown keys under `["user"]` are
 * passed once, whatever their shape.
 */
export async function userBatch(
  kv: Deno.Kv,
  cursor: Cursor | null,
  limit: number,
  skip: Skip,
): Promise<{ users: Deno.KvEntry<UserRecord>[]; cursor: Cursor | null }> {
  const users: Deno.KvEntry<UserRecord>[] = [];
  const iter = kv.list<unknown>({ prefix: keys.users() }, {
    limit,
    batchSize: limit,
    cursor: cursor ? String(cursor[0]) : undefined,
  });
  let read = 0;
  for await (const entry of iter) {
    read++;
    const problem = userRecordProblem(entry);
    if (problem) skip(entry.key, problem);
    else users.push(entry as Deno.KvEntry<UserRecord>);
  }
  return { users, cursor: read < limit ? null : [iter.cursor] };
}

export interface OrderOf {
  userId: string;
  entry: Deno.KvEntry<Order>;
  /**
   * The account's order revision, read before its orders: every order commit rewrites it, so a
   * commit checking it fails if any order of the account changed since.
   */
  revision: Deno.KvEntryMaybe<unknown>;
}

/**
 * Up to `limit` readable orders after `cursor` (`[userId, listCursor]`: in account, then id
 * order), and the next cursor; null when every account's orders were read.
 */
export async function orderBatch(
  kv: Deno.Kv,
  cursor: Cursor | null,
  limit: number,
  skip: Skip,
): Promise<{ orders: OrderOf[]; cursor: Cursor | null }> {
  const orders: OrderOf[] = [];
  let userId = cursor ? String(cursor[0]) : await nextUserId(kv, null);
  let from = cursor && cursor.length > 1 ? String(cursor[1]) : undefined;
  let read = 0;
  while (userId !== null) {
    const revision = await kv.get(keys.orderRevision(userId));
    const iter = kv.list<unknown>({ prefix: keys.orders(userId) }, {
      limit: limit - read,
      batchSize: limit - read,
      cursor: from,
    });
    let here = 0;
    for await (const entry of iter) {
      here++;
      const problem = orderRecordProblem(entry);
      if (problem) skip(entry.key, problem);
      else orders.push({ userId, entry: entry as Deno.KvEntry<Order>, revision });
    }
    read += here;
    // The limit reached: this account may have more, from the last one read.
    if (read >= limit) return { orders, cursor: [userId, iter.cursor] };
    userId = await nextUserId(kv, userId);
    from = undefined;
  }
  return { orders, cursor: null };
}

/** The account id after `userId` (the first with null), or null past the last. */
async function nextUserId(kv: Deno.Kv, userId: string | null): Promise<string | null> {
  // userId + "\0" is the first string after userId, and sorts after every key below it.
  const selector = userId === null
    ? { prefix: keys.users() }
    : { prefix: keys.users(), start: keys.user(`${userId}\0`) };
  for await (const entry of kv.list(selector, { batchSize: 10 })) {
    const id = entry.key[1];
    if (entry.key.length === 2 && typeof id === "string") return id;
  }
  return null;
}
