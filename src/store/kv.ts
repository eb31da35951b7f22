import { dirname } from "node:path";
import { type Persistence, persistenceOf } from "../config.ts";
import { ConflictError } from "../errors.ts";
import type { EventEnvelope } from "../domain/events/envelope.ts";
import { metrics } from "../lib/metrics.ts";

/**
 * What a change with events commits through: the event bus (`events/bus.ts`) as the store sees
 * it, so the store does not import the event path that imports the store.
 */
export interface EventCommitter {
  commit(
    op: Deno.AtomicOperation,
    events: EventEnvelope[],
  ): Promise<Deno.KvCommitResult | Deno.KvCommitError>;
}

export interface OpenedStore {
  kv: Deno.Kv;
  persistence: Persistence;
  /** Closes `kv` and the store's other connections. */
  close(): void;
}

/** A store's connection for shared order commits, where it has one of its own. */
const writers = new WeakMap<Deno.Kv, Deno.Kv>();

/**
 * The connection `kv`'s shared commits (`group_commit.ts`) go through: a second connection to
 * the same SQLite file where {@link openStore} opened one, else `kv` itself.
 */
export function writerOf(kv: Deno.Kv): Deno.Kv {
  return writers.get(kv) ?? kv;
}

/**
 * Opens KV at a file (parent directories created), `:memory:`, a KV Connect URL, or, with no
 * path (on Deno Deploy), the app's own database.
 *
 * A file gets a second connection for the shared order commits. Deno KV runs one
 * connection's reads and writes one after another, so every read of a request (its token, the
 * account, the order number) would wait for the order commit in progress; SQLite (WAL) lets
 * one connection read while another writes, each read seeing every commit finished before it.
 */
export async function openStore(path: string | undefined): Promise<OpenedStore> {
  const persistence = persistenceOf(path);
  if (path === undefined) return opened(await Deno.openKv(), persistence);
  if (persistence !== "sqlite") return opened(await Deno.openKv(path), persistence);
  await Deno.mkdir(dirname(path), { recursive: true });
  const kv = await Deno.openKv(path);
  const writer = await Deno.openKv(path);
  writers.set(kv, writer);
  return opened(kv, persistence, writer);
}

function opened(kv: Deno.Kv, persistence: Persistence, writer?: Deno.Kv): OpenedStore {
  return {
    kv,
    persistence,
    close: () => {
      writer?.close();
      kv.close();
    },
  };
}

/** A page of a list: what the paging rules of the spec leave after clamping. */
export interface Paging {
  limit: number;
  offset: number;
}

/** Local KV allows 100 checks per commit, remote 10: the code stays within 10 everywhere. */
export const MAX_CHECKS = 10;
/** getMany reads at most 10 keys. */
export const MAX_GET_MANY = 10;

/**
 * Another connection to the same SQLite file (a second process in a rolling restart) won the
 * write lock after this commit read its checks: SQLite refuses it whole, nothing written.
 */
const LOCKED = /database is locked/i;
/** How long a commit keeps trying for the write lock before giving up with ConflictError. */
const LOCKED_BUDGET_MS = 3000;
const LOCKED_BACKOFF_MAX_MS = 40;

/**
 * An operation that commits through its own path (a change that may share its commit with
 * others, `group_commit.ts`): {@link commit} hands it over.
 */
export interface SelfCommitting {
  readonly selfCommitting: true;
  commit(): Promise<Deno.KvCommitResult | Deno.KvCommitError>;
}

/**
 * Commits `op`; every write to KV goes through here. A commit refused because another
 * connection held the file's write lock is tried again (the same operation, whose checks then
 * read afresh) with a jittered backoff of at most {@link LOCKED_BACKOFF_MAX_MS} for up to
 * {@link LOCKED_BUDGET_MS}; then ConflictError. Any other error is thrown at once.
 */
export async function commit(
  op: Deno.AtomicOperation,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  if ((op as Partial<SelfCommitting>).selfCommitting) return op.commit();
  const started = Date.now();
  for (let attempt = 0;; attempt++) {
    try {
      const result = await op.commit();
      metrics.kvCommit(result.ok ? "ok" : "check_failed");
      return result;
    } catch (err) {
      const locked = err instanceof Error && LOCKED.test(err.message);
      if (!locked || Date.now() - started > LOCKED_BUDGET_MS) {
        metrics.kvCommit("error");
        if (!locked) throw err;
        throw new ConflictError("Storage is busy, try again");
      }
      metrics.kvRetry("locked");
      const ceiling = Math.min(LOCKED_BACKOFF_MAX_MS, 2 ** attempt);
      await new Promise((r) => setTimeout(r, ceiling / 2 + Math.random() * ceiling / 2));
    }
  }
}

/**
 * Runs a read-check-write attempt until its commit succeeds. `attempt` returns the commit
 * result (null when it decided to write nothing) and whatever it wants to hand back.
 */
export async function withRetry<T>(
  attempt: () => Promise<{ commit: Deno.KvCommitResult | Deno.KvCommitError | null; value: T }>,
  attempts = 50,
): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const { commit, value } = await attempt();
    if (commit === null || commit.ok) return value;
    metrics.kvRetry("conflict");
    if (i > 3) await new Promise((r) => setTimeout(r, Math.random() * 5 * i));
  }
  throw new ConflictError("Too many concurrent changes, try again");
}

/** KV refuses a key whose encoding is longer, to write (and, from one byte more, to read). */
export const MAX_KEY_BYTES = 2048;

const utf8 = new TextEncoder();

/** Bytes of one key part in KV's (FoundationDB tuple) encoding. */
function partSize(part: Deno.KvKeyPart): number {
  if (typeof part === "number") return 9;
  if (typeof part === "boolean" || typeof part === "symbol") return 1;
  if (typeof part === "bigint") {
    const magnitude = part < 0n ? -part : part;
    const bytes = magnitude === 0n ? 0 : Math.ceil(magnitude.toString(16).length / 2);
    return 1 + bytes + (bytes > 8 ? 1 : 0);
  }
  // Strings and bytes: a type byte, the bytes with each 0x00 escaped to two, a terminator.
  const bytes = typeof part === "string" ? utf8.encode(part) : part;
  return 2 + bytes.length + bytes.filter((b) => b === 0).length;
}

/** Bytes of a key in KV's encoding (what its limits count). */
export function keySize(key: Deno.KvKey): number {
  let size = 0;
  for (const part of key) size += partSize(part);
  return size;
}

/** Whether KV can hold `key`: a longer one can be neither written nor read. */
export function keyFits(key: Deno.KvKey): boolean {
  return keySize(key) <= MAX_KEY_BYTES;
}

const absent = <T>(key: Deno.KvKey): Deno.KvEntryMaybe<T> => ({
  key,
  value: null,
  versionstamp: null,
});

/**
 * `kv.get` for a lookup by a value from outside (an id, an identity): a key too long for KV
 * cannot hold anything, so it reads as absent instead of throwing. HTTP bounds such values
 * first; this keeps a missed bound from becoming a 500.
 */
export function lookup<T>(kv: Deno.Kv, key: Deno.KvKey): Promise<Deno.KvEntryMaybe<T>> {
  return keyFits(key) ? kv.get<T>(key) : Promise.resolve(absent<T>(key));
}

/** `kv.getMany` (one snapshot, at most ten keys) with {@link lookup}'s rule for each key. */
export async function lookupMany<T extends readonly unknown[]>(
  kv: Deno.Kv,
  keys: Deno.KvKey[],
): Promise<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
  const read = await kv.getMany<unknown[]>(keys.filter(keyFits));
  let i = 0;
  return keys.map((key) => keyFits(key) ? read[i++] : absent(key)) as {
    [K in keyof T]: Deno.KvEntryMaybe<T[K]>;
  };
}

/** Reads any number of keys, ten per getMany; results in the order of `keys`. */
export async function getManyChunked<T>(
  kv: Deno.Kv,
  keys: Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<T>[]> {
  // Chunks are separate snapshots either way, so they are read concurrently.
  const chunks: Promise<Deno.KvEntryMaybe<T>[]>[] = [];
  for (let i = 0; i < keys.length; i += MAX_GET_MANY) {
    chunks.push(kv.getMany<T[]>(keys.slice(i, i + MAX_GET_MANY)));
  }
  return (await Promise.all(chunks)).flat();
}

/** The part of a time-ordered index (`[...prefix, ms, ...]`) with `ms` in `[fromMs, toMs)`. */
export function indexSelector(
  prefix: Deno.KvKey,
  fromMs?: number,
  toMs?: number,
): Deno.KvListSelector {
  const start = fromMs === undefined ? undefined : [...prefix, fromMs];
  const end = toMs === undefined ? undefined : [...prefix, toMs];
  if (start && end) return { start, end };
  if (start) return { prefix, start };
  if (end) return { prefix, end };
  return { prefix };
}

/** All values under a prefix. */
export async function listValues<T>(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  options: Deno.KvListOptions = {},
): Promise<T[]> {
  const out: T[] = [];
  for await (const entry of kv.list<T>(selector, options)) out.push(entry.value);
  return out;
}

/** Deletes every key under a prefix, in commits of at most 500 mutations. */
export async function deletePrefix(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number> {
  let batch = kv.atomic();
  let pending = 0;
  let deleted = 0;
  for await (const entry of kv.list({ prefix })) {
    batch.delete(entry.key);
    pending++;
    deleted++;
    if (pending === 500) {
      await commit(batch);
      batch = kv.atomic();
      pending = 0;
    }
  }
  if (pending) await commit(batch);
  return deleted;
}

/**
 * Back-references: each key under `prefix` names, by its last part, a global key
 * `target(part)`. Both keys of every pair, for deleting a family of lookups.
 */
export async function backReferencedKeys(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  target: (part: string) => Deno.KvKey,
): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix })) {
    out.push(target(String(entry.key.at(-1))), entry.key);
  }
  return out;
}

/** Deletes the given keys, in commits of at most 500 mutations. */
export async function deleteKeys(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 500) {
    const op = kv.atomic();
    for (const key of keys.slice(i, i + 500)) op.delete(key);
    await commit(op);
  }
}

const U64_WRAP = 1n << 64n;

/** Adds `delta` (may be negative) to a KvU64 counter inside `op`. */
export function addToCounter(op: Deno.AtomicOperation, key: Deno.KvKey, delta: number) {
  if (delta === 0) return op;
  const n = BigInt(delta);
  return op.sum(key, n >= 0n ? n : U64_WRAP + n);
}

export async function readCounter(kv: Deno.Kv, key: Deno.KvKey): Promise<number> {
  const entry = await kv.get<Deno.KvU64>(key);
  return counterValue(entry.value);
}

/** A counter's value; a wrapped (negative) one reads as 0. */
export function counterValue(value: Deno.KvU64 | null): number {
  if (!value) return 0;
  const n = value.value;
  return n >= 1n << 63n ? 0 : Number(n);
}

/**
 * Applies `change` to the value at `key` with optimistic concurrency (retried on a conflicting
 * write); null when there is no value. `alsoWrite` adds writes to the same commit.
 */
export function changeValue<T>(
  kv: Deno.Kv,
  key: Deno.KvKey,
  change: (value: T) => T,
  alsoWrite?: (op: Deno.AtomicOperation, next: T) => void,
): Promise<T | null> {
  return withRetry<T | null>(async () => {
    const entry = await lookup<T>(kv, key);
    if (entry.value === null) return { commit: null, value: null };
    const next = change(entry.value);
    const op = kv.atomic().check(entry).set(key, next);
    alsoWrite?.(op, next);
    return { commit: await commit(op), value: next };
  });
}

/**
 * Deletes the value at `key` if it is still what was read; false when there is none.
 * `alsoWrite` adds writes to the same commit (lookups and counters the value owns).
 */
export function deleteValue<T>(
  kv: Deno.Kv,
  key: Deno.KvKey,
  alsoWrite?: (op: Deno.AtomicOperation, value: T) => void,
): Promise<boolean> {
  return withRetry(async () => {
    const entry = await lookup<T>(kv, key);
    if (entry.value === null) return { commit: null, value: false };
    const op = kv.atomic().check(entry).delete(key);
    alsoWrite?.(op, entry.value);
    return { commit: await commit(op), value: true };
  });
}
