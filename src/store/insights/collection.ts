/**
 * A capped collection of small records under the workspace (recurring costs, shares): create
 * (the count checked in the commit that raises it, the account checked so nothing outlives its
 * deletion), list, get, change under optimistic concurrency, delete. A record may have global
 * copies (a public lookup) written and deleted in the same commits.
 */
import type { UserRecord } from "../../domain/account/user.ts";
import { keys } from "../keys.ts";
import {
  addToCounter,
  commit as commitOp,
  counterValue,
  listValues,
  lookup,
  lookupMany,
  withRetry,
} from "../kv.ts";

export interface CollectionSpec<T> {
  items: (userId: string) => Deno.KvKey;
  item: (userId: string, id: string) => Deno.KvKey;
  count: (userId: string) => Deno.KvKey;
  max: number;
  /** Global keys holding a copy of the record. */
  globals?: (userId: string, record: T) => { key: Deno.KvKey; value: unknown }[];
}

export type CreateOutcome = "created" | "limit" | "account_gone";

/** How a commit is made: plain, or through the event bus with the change's events. */
export type Committer = (
  op: Deno.AtomicOperation,
) => Promise<Deno.KvCommitResult | Deno.KvCommitError>;

export function createItem<T>(
  kv: Deno.Kv,
  spec: CollectionSpec<T>,
  userId: string,
  id: string,
  record: T,
  commit: Committer = commitOp,
): Promise<CreateOutcome> {
  const key = spec.item(userId, id);
  return withRetry<CreateOutcome>(async () => {
    const [user, count] = await lookupMany<[UserRecord, Deno.KvU64]>(kv, [
      keys.user(userId),
      spec.count(userId),
    ]);
    if (!user.value) return { commit: null, value: "account_gone" };
    if (counterValue(count.value) >= spec.max) return { commit: null, value: "limit" };
    const op = kv.atomic().check(user, count, { key, versionstamp: null }).set(key, record);
    for (const g of spec.globals?.(userId, record) ?? []) {
      op.check({ key: g.key, versionstamp: null }).set(g.key, g.value);
    }
    addToCounter(op, spec.count(userId), 1);
    return { commit: await commit(op), value: "created" };
  });
}

/** Every record, in key (creation) order. */
export function listItems<T>(kv: Deno.Kv, spec: CollectionSpec<T>, userId: string) {
  return listValues<T>(kv, { prefix: spec.items(userId) });
}

export async function getItem<T>(
  kv: Deno.Kv,
  spec: CollectionSpec<T>,
  userId: string,
  id: string,
): Promise<T | null> {
  return (await lookup<T>(kv, spec.item(userId, id))).value;
}

/** Applies `change` to a record; null when there is none. */
export function changeItem<T>(
  kv: Deno.Kv,
  spec: CollectionSpec<T>,
  userId: string,
  id: string,
  change: (record: T) => T,
): Promise<T | null> {
  return withRetry<T | null>(async () => {
    const entry = await lookup<T>(kv, spec.item(userId, id));
    if (!entry.value) return { commit: null, value: null };
    const next = change(entry.value);
    const op = kv.atomic().check(entry).set(entry.key, next);
    for (const g of spec.globals?.(userId, next) ?? []) op.set(g.key, g.value);
    return { commit: await commitOp(op), value: next };
  });
}

/** Deletes a record with its global copies; false when there is none. */
export function deleteItem<T>(
  kv: Deno.Kv,
  spec: CollectionSpec<T>,
  userId: string,
  id: string,
): Promise<boolean> {
  return withRetry(async () => {
    const entry = await lookup<T>(kv, spec.item(userId, id));
    if (!entry.value) return { commit: null, value: false };
    const op = kv.atomic().check(entry).delete(entry.key);
    for (const g of spec.globals?.(userId, entry.value) ?? []) op.delete(g.key);
    addToCounter(op, spec.count(userId), -1);
    return { commit: await commitOp(op), value: true };
  });
}
