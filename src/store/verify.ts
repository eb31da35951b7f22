/**
 * The verifier (`deno task verify`): recomputes from the orders every entry and counter their
 * footprints stand for (orders/footprint.ts: list copies, number, tracking and search indexes,
 * totals, buckets, insight sums), the search vocabulary their words need, and the leaderboard
 * list from the accounts, compares them with what is stored, and with `repair` writes the
 * expected values. It runs beside a serving process: an account is read against its order
 * revision (`order_rev`, rewritten by every order commit), and its repairs commit in bounded
 * batches, each checking the account record and that revision, so a concurrent change makes the
 * account be read again instead of being overwritten with figures of the past.
 */
import { onLeaderboard } from "../domain/insights/leaderboard.ts";
import type { Order } from "../domain/orders/order.ts";
import type { UserRecord } from "../domain/account/user.ts";
import { insightScope } from "./insights/sums.ts";
import { unknownFamilies } from "./key_families.ts";
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";
import { chunksOf } from "./migrations/chunks.ts";
import { orderRecordProblem, userBatch } from "./migrations/walk.ts";
import { footprint, searchIndexOf } from "./orders/footprint.ts";
import { suffixesOf } from "../domain/orders/search_terms.ts";
import type { Cursor } from "./migrations/types.ts";

/** One stored value that is not what the orders say. */
export interface Difference {
  key: Deno.KvKey;
  /** `missing`: expected, absent; `stale`: stored, not expected; `differs`: another value. */
  kind: "missing" | "stale" | "differs";
  expected?: unknown;
  actual?: unknown;
}

export interface AccountReport {
  userId: string;
  orders: number;
  differences: Difference[];
  /** Keys written or deleted by the repair. */
  repaired: number;
  /** Order records that could not be read (counted, left alone). */
  skipped: number;
  /** Read again this many times because the account changed while it was read. */
  retries: number;
  /** Changed on every attempt: nothing was concluded (run again when quieter). */
  busy?: boolean;
}

export interface VerifyReport {
  accounts: AccountReport[];
  platform: Difference[];
  platformRepaired: boolean;
  /** The platform counters changed on every attempt: nothing was concluded. */
  platformBusy?: boolean;
  /** Account records that could not be read. */
  skippedAccounts: number;
  /** Keys under first parts this release does not know, by first part: left alone. */
  unknownKeys: Record<string, number>;
}

export interface VerifyOptions {
  repair: boolean;
  /** Called with each account's report as it is done (the CLI prints them as they come). */
  onAccount?: (report: AccountReport) => void;
}

/** Reads of an account (or of the platform counters) before it is reported busy. */
const ATTEMPTS = 20;
const pause = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 10 * attempt)));
/**
 * Writes per repair commit at most (the account record and the revision are its two checks),
 * and about `COMMIT_BYTES` (migrations/chunks.ts).
 */
const WRITES_PER_COMMIT = 200;

type Expected = Map<string, { key: Deno.KvKey; value: unknown; counter: boolean }>;

/**
 * The prefixes of an account whose every key some order's footprint owns (with the two
 * single counters `orderCount` and `valueCents`).
 */
function ownedPrefixes(userId: string, generation: string): Deno.KvKey[] {
  return [
    keys.ordersByReceived(userId),
    keys.ordersByAnyStatus(userId),
    keys.ordersByNumber(userId),
    keys.trackingIndex(userId),
    keys.searchPostings(userId),
    keys.searchCounts(userId),
    keys.orderStatusCounts(userId),
    keys.allOrderBuckets(userId),
    keys.insights(userId, generation),
  ];
}

/** A key or a value as text, for comparison (bigints included). */
const id = (key: unknown) => JSON.stringify(key, (_, v) => typeof v === "bigint" ? `${v}n` : v);
const isStat = (key: Deno.KvKey) => key[0] === keys.stat("orders")[0];
const raw = (value: unknown) => value instanceof Deno.KvU64 ? value.value : value;

/** What the orders of an account (and the account) say its owned keys hold. */
async function expectedOf(kv: Deno.Kv, user: UserRecord) {
  const scope = insightScope(user);
  const expected: Expected = new Map();
  const words = new Set<string>();
  let orders = 0;
  let skipped = 0;
  for await (const entry of kv.list<unknown>({ prefix: keys.orders(user.id) })) {
    if (orderRecordProblem(entry)) {
      skipped++;
      continue;
    }
    orders++;
    for (const word of searchIndexOf(user.id, entry.value as Order).words) words.add(word);
    const fp = footprint(user.id, entry.value as Order, scope);
    // The order record is what the rest is recomputed from.
    fp.entries.delete(id(entry.key));
    for (const [k, e] of fp.entries) {
      expected.set(k, { key: e.key, value: e.value, counter: false });
    }
    for (const [k, c] of fp.counters) {
      if (isStat(c.key)) continue;
      const sum = (expected.get(k)?.value as bigint | undefined) ?? 0n;
      expected.set(k, { key: c.key, value: sum + BigInt(c.amount), counter: true });
    }
  }
  for (const e of expected.values()) if (e.counter && e.value === 0n) expected.delete(id(e.key));
  return { expected, words, orders, skipped, scope };
}

/**
 * The vocabulary entries the orders' words need and lack. Entries of words no order has any
 * more are not differences: they stay, as every order change leaves them.
 */
async function missingVocabulary(kv: Deno.Kv, userId: string, words: Set<string>) {
  // Suffix and word only (not the whole key): a large account has millions of entries.
  const stored = new Set<string>();
  for await (const e of kv.list({ prefix: keys.searchVocabulary(userId) }, { batchSize: 1000 })) {
    stored.add(`${String(e.key.at(-2))}\0${String(e.key.at(-1))}`);
  }
  const out: Difference[] = [];
  for (const word of words) {
    for (const suffix of suffixesOf(word)) {
      if (stored.has(`${suffix}\0${word}`)) continue;
      out.push({ key: keys.searchSuffix(userId, suffix, word), kind: "missing", expected: true });
    }
  }
  return out;
}

/** Compares what is stored under the owned prefixes (and the leaderboard entry) with `expected`. */
async function differences(kv: Deno.Kv, user: UserRecord, expected: Expected, generation: string) {
  const out: Difference[] = [];
  const seen = new Set<string>();
  const compare = (key: Deno.KvKey, actual: unknown) => {
    const k = id(key);
    seen.add(k);
    const want = expected.get(k);
    const value = raw(actual);
    if (!want) {
      if (!(value === 0n)) out.push({ key, kind: "stale", actual: value });
    } else if (id(want.value) !== id(value)) {
      out.push({ key, kind: "differs", expected: want.value, actual: value });
    }
  };
  for (const prefix of ownedPrefixes(user.id, generation)) {
    for await (const e of kv.list({ prefix }, { batchSize: 1000 })) compare(e.key, e.value);
  }
  // Single keys (a list by prefix reads only the keys below them).
  for (const e of await kv.getMany([keys.orderCount(user.id), keys.valueCents(user.id)])) {
    if (e.versionstamp) compare(e.key, e.value);
  }
  for (const [k, want] of expected) {
    if (!seen.has(k)) out.push({ key: want.key, kind: "missing", expected: want.value });
  }
  const member = await kv.get(keys.leaderboardMember(user.id));
  if (onLeaderboard(user) && member.value !== true) {
    const kind = member.versionstamp ? "differs" : "missing";
    out.push({ key: member.key, kind, expected: true, actual: member.value ?? undefined });
  } else if (!onLeaderboard(user) && member.versionstamp) {
    out.push({ key: member.key, kind: "stale", actual: member.value });
  }
  return out;
}

/** Writes the expected values of `diffs`, in bounded commits checked against `guards`. */
async function repairAll(
  kv: Deno.Kv,
  diffs: Difference[],
  guards: Deno.AtomicCheck[],
): Promise<{ ok: boolean; written: number }> {
  let written = 0;
  const bytes = (d: Difference) => id(d.expected ?? null).length + 200;
  for (const chunk of chunksOf(diffs, WRITES_PER_COMMIT, bytes)) {
    const op = kv.atomic().check(...guards);
    for (const d of chunk) {
      if (d.kind === "stale") op.delete(d.key);
      else if (typeof d.expected === "bigint") op.set(d.key, new Deno.KvU64(d.expected));
      else op.set(d.key, d.expected);
    }
    if (!(await commit(op)).ok) return { ok: false, written };
    written += chunk.length;
  }
  return { ok: true, written };
}

/** Verifies (and repairs) one account, read again while it changes under the reads. */
export async function verifyAccount(
  kv: Deno.Kv,
  userId: string,
  repair: boolean,
): Promise<AccountReport> {
  let repaired = 0;
  for (let retries = 0; retries < ATTEMPTS; retries++) {
    if (retries) await pause(retries);
    const [user, revision] = await kv.getMany<[UserRecord, unknown]>([
      keys.user(userId),
      keys.orderRevision(userId),
    ]);
    if (!user.value) return { userId, orders: 0, differences: [], repaired, skipped: 0, retries };
    const { expected, words, orders, skipped, scope } = await expectedOf(kv, user.value);
    const diffs = [
      ...await differences(kv, user.value, expected, scope.state.generation),
      ...await missingVocabulary(kv, userId, words),
    ];
    const report = { userId, orders, differences: diffs, repaired, skipped, retries };
    if (!repair) {
      const [u, r] = await kv.getMany([user.key, revision.key]);
      if (u.versionstamp === user.versionstamp && r.versionstamp === revision.versionstamp) {
        return report;
      }
      continue;
    }
    const done = await repairAll(kv, diffs, [user, revision]);
    repaired += done.written;
    if (done.ok) return { ...report, repaired };
  }
  return {
    userId,
    orders: 0,
    differences: [],
    repaired,
    skipped: 0,
    retries: ATTEMPTS,
    busy: true,
  };
}

/** Verifies every account, then the platform counters and the leaderboard list. */
export async function verifyStore(kv: Deno.Kv, options: VerifyOptions): Promise<VerifyReport> {
  const accounts: AccountReport[] = [];
  let skippedAccounts = 0;
  let cursor: Cursor | null = null;
  do {
    const batch = await userBatch(kv, cursor, 100, () => skippedAccounts++);
    for (const user of batch.users) {
      const report = await verifyAccount(kv, user.value.id, options.repair);
      options.onAccount?.(report);
      accounts.push(report);
    }
    cursor = batch.cursor;
  } while (cursor);
  const platform = await verifyPlatform(kv, options.repair);
  return { accounts, skippedAccounts, unknownKeys: await unknownFamilies(kv), ...platform };
}

/**
 * The platform counters against the workspaces' (users: the account records) and leaderboard
 * entries of accounts that are gone; read again while any order or account changes (every
 * such commit moves one of the three counters checked).
 */
async function verifyPlatform(kv: Deno.Kv, repair: boolean) {
  const statKeys = [keys.stat("users"), keys.stat("orders"), keys.stat("value_cents")];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt) await pause(attempt);
    const stats = await kv.getMany(statKeys);
    const sums = [0n, 0n, 0n];
    const diffs: Difference[] = [];
    for await (const e of kv.list<unknown>({ prefix: keys.users() }, { batchSize: 500 })) {
      if (e.key.length !== 2) continue;
      const userId = String(e.key[1]);
      const [orders, value] = await kv.getMany([keys.orderCount(userId), keys.valueCents(userId)]);
      sums[0] += 1n;
      sums[1] += (raw(orders.value) as bigint | null) ?? 0n;
      sums[2] += (raw(value.value) as bigint | null) ?? 0n;
    }
    stats.forEach((entry, i) => {
      const actual = (raw(entry.value) as bigint | null) ?? 0n;
      if (actual !== sums[i]) {
        diffs.push({ key: entry.key, kind: "differs", expected: sums[i], actual });
      }
    });
    for await (const e of kv.list({ prefix: keys.leaderboardMembers() }, { batchSize: 500 })) {
      const user = await kv.get(keys.user(String(e.key[1])));
      if (!user.versionstamp) diffs.push({ key: e.key, kind: "stale", actual: e.value });
    }
    if (!repair) {
      const again = await kv.getMany(statKeys);
      if (again.every((e, i) => e.versionstamp === stats[i].versionstamp)) {
        return { platform: diffs, platformRepaired: false };
      }
      continue;
    }
    if ((await repairAll(kv, diffs, stats)).ok) {
      return { platform: diffs, platformRepaired: diffs.length > 0 };
    }
  }
  return { platform: [], platformRepaired: false, platformBusy: true };
}
