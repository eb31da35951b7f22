/**
 * The footprint of an order: every key its existence sets and every counter it adds to. Every
 * order change (create, merge, PATCH, delete, import) is written as the difference between the
 * footprints before and after, so indexes and counters can never disagree with the order.
 */
import { bucketsOf } from "../../domain/orders/buckets.ts";
import { normaliseOrderNumber, type Order, ORDER_STATUSES } from "../../domain/orders/order.ts";
import { searchText, suffixesOf, termsOfText } from "../../domain/orders/search_terms.ts";
import { trackingKey } from "../../domain/tracking/number.ts";
import { keys } from "../keys.ts";
import { addToCounter, commit, counterValue, getManyChunked } from "../kv.ts";
import { setMarker } from "../group_commit.ts";
import { POSTING_ORDER_CHARS, type SearchPosting } from "./search_read.ts";
import { CHANGE_TTL_MS, changeEntryOf } from "./search_memory.ts";
import { insightCounters, type InsightScope } from "../insights/sums.ts";

export interface Footprint {
  entries: Map<string, { key: Deno.KvKey; value: unknown }>;
  counters: Map<string, { key: Deno.KvKey; amount: number }>;
}

type Entries = Footprint["entries"];

/**
 * The order's part of the `q` index (store/orders/search_index.ts): a posting per term, the
 * terms' counts (+1), and its words (whose vocabulary entries `vocabularyOf` adds when a word
 * is new to the workspace). A posting holds the order itself (a page of matches is one range
 * read) unless the order is large, then what a search filters and checks on.
 */
export function searchIndexOf(userId: string, order: Order) {
  const ms = Date.parse(order.receivedAt);
  const text = searchText(order);
  const posting: SearchPosting = JSON.stringify(order).length <= POSTING_ORDER_CHARS
    ? order
    : [ORDER_STATUSES.indexOf(order.status), text];
  const { terms, words } = termsOfText(text);
  return {
    postings: terms.map((term) => ({
      key: keys.searchPosting(userId, term, ms, order.id),
      value: posting,
    })),
    counts: terms.map((term) => keys.searchCount(userId, term)),
    words,
  };
}

/**
 * The vocabulary entries of the words `words` brings to the workspace: those whose count is
 * zero (one read of their counts). A word with orders always has its entries: the commit that
 * took its count from zero wrote them, and nothing deletes them but the account's deletion.
 */
export async function vocabularyOf(
  kv: Deno.Kv,
  userId: string,
  words: Iterable<string>,
): Promise<Deno.KvKey[]> {
  const list = [...new Set(words)];
  if (!list.length) return [];
  const counts = await getManyChunked<Deno.KvU64>(
    kv,
    list.map((w) => keys.searchCount(userId, w)),
  );
  return list.flatMap((word, i) =>
    counterValue(counts[i].value) > 0
      ? []
      : suffixesOf(word).map((suffix) => keys.searchSuffix(userId, suffix, word))
  );
}

/** Vocabulary entries per commit when they are committed on their own. */
const ENTRIES_PER_COMMIT = 500;

/**
 * Commits vocabulary entries on their own (bulk writes, before the commits that count their
 * words): no check, since an entry is right whenever it is written.
 */
export async function commitVocabulary(
  kv: Deno.Kv,
  entries: Deno.KvKey[],
  commitOp: (op: Deno.AtomicOperation) => Promise<unknown> = commit,
): Promise<void> {
  for (let i = 0; i < entries.length; i += ENTRIES_PER_COMMIT) {
    const op = kv.atomic();
    for (const key of entries.slice(i, i + ENTRIES_PER_COMMIT)) op.set(key, true);
    await commitOp(op);
  }
}

/** The words the changes add to the index (an order's words it did not have indexed before). */
export function wordsAdded(userId: string, changes: Change[]): Set<string> {
  const added = new Set<string>();
  for (const { before, after, search = "stored" } of changes) {
    if (!after || search === "untouched") continue;
    const had = new Set(
      before && search === "stored" ? searchIndexOf(userId, before).words : [],
    );
    for (const w of searchIndexOf(userId, after).words) if (!had.has(w)) added.add(w);
  }
  return added;
}

/** The keys `order`'s existence sets, with their values (the order, its copies, its indexes). */
export function footprintEntries(userId: string, order: Order, withSearch = true): Entries {
  return entriesOf(userId, order, withSearch ? searchIndexOf(userId, order) : null);
}

type SearchIndex = ReturnType<typeof searchIndexOf>;

function entriesOf(userId: string, order: Order, search: SearchIndex | null): Entries {
  const entries: Entries = new Map();
  const entry = (key: Deno.KvKey, value: unknown) =>
    entries.set(JSON.stringify(key), { key, value });
  const ms = Date.parse(order.receivedAt);
  entry(keys.order(userId, order.id), order);
  entry(keys.orderByReceived(userId, ms, order.id), order);
  entry(keys.orderByStatus(userId, order.status, ms, order.id), order);
  if (order.orderNumber) {
    entry(keys.orderByNumber(userId, normaliseOrderNumber(order.orderNumber)), order.id);
  }
  const tracking = order.trackingNumber ? trackingKey(order.trackingNumber) : null;
  if (tracking) entry(keys.orderByTracking(userId, tracking, order.id), order.id);
  for (const { key, value } of search?.postings ?? []) entry(key, value);
  return entries;
}

/** Every entry and counter `order` stands for (none for null); `verify.ts` recounts with it. */
export function footprint(
  userId: string,
  order: Order | null,
  scope: InsightScope,
  withSearch = true,
): Footprint {
  if (!order) return { entries: new Map(), counters: new Map() };
  // One reading of the order's terms for its postings and their counts.
  const search = withSearch ? searchIndexOf(userId, order) : null;
  const fp: Footprint = { entries: entriesOf(userId, order, search), counters: new Map() };
  const count = (key: Deno.KvKey, amount = 1) => {
    if (amount) fp.counters.set(JSON.stringify(key), { key, amount });
  };
  const ms = Date.parse(order.receivedAt);
  count(keys.orderCount(userId));
  count(keys.stat("orders"));
  count(keys.orderStatusCount(userId, order.status));
  count(keys.valueCents(userId), order.costCents ?? 0);
  count(keys.stat("value_cents"), order.costCents ?? 0);
  bucketsOf(ms).forEach((bucket, level) => {
    count(keys.orderBucket(userId, "all", level, bucket));
    count(keys.orderBucket(userId, order.status, level, bucket));
  });
  for (const { key, amount } of insightCounters(userId, order, scope)) count(key, amount);
  for (const key of search?.counts ?? []) count(key);
  return fp;
}

export interface Change {
  before: Order | null;
  after: Order | null;
  /**
   * The `q` index of the change: `stored` (the default) moves it; `unstored` (an order stored
   * before the index existed, not yet indexed by its migration) only adds the new one;
   * `untouched` leaves it (an order not yet indexed, whose migration indexes it as it is then).
   */
  search?: "stored" | "unstored" | "untouched";
}

/**
 * Adds order moves to `op` (`before` or `after` null: create, delete): keys an order no longer
 * has are deleted, its copies rewritten, and every counter moved once by the summed difference;
 * with a change entry per order for the search memories, and the workspace's order revision.
 * `scope` comes from the account record the commit checks (its timezone and insight state);
 * `vocabulary` is `vocabularyOf` the words the changes add (`wordsAdded`), read before.
 */
export function writeChanges(
  op: Deno.AtomicOperation,
  userId: string,
  changes: Change[],
  scope: InsightScope,
  vocabulary: Deno.KvKey[],
): void {
  // A marker: changes sharing a commit may bring the same new word (one write, not a conflict).
  for (const key of vocabulary) setMarker(op, key, true);
  const deltas = new Map<string, { key: Deno.KvKey; amount: number }>();
  const add = (id: string, key: Deno.KvKey, amount: number) =>
    deltas.set(id, { key, amount: (deltas.get(id)?.amount ?? 0) + amount });
  const realNow = Date.now();
  for (const { before, after, search = "stored" } of changes) {
    const old = footprint(userId, before, scope, search === "stored");
    const next = footprint(userId, after, scope, search !== "untouched");
    for (const [id, { key }] of old.entries) if (!next.entries.has(id)) op.delete(key);
    // Every entry is written again, unchanged ones too: an index entry missing for any reason
    // (data from a release that did not write it) is repaired by the order's next change.
    for (const { key, value } of next.entries.values()) op.set(key, value);
    for (const [id, c] of old.counters) add(id, c.key, -c.amount);
    for (const [id, c] of next.counters) add(id, c.key, c.amount);
    // What the search memories of every process read to stay fresh (search_changes.ts).
    const id = (after ?? before)?.id;
    if (id) {
      op.set(keys.orderChange(userId, realNow, id), changeEntryOf(after), {
        expireIn: CHANGE_TTL_MS,
      });
    }
  }
  for (const { key, amount } of deltas.values()) addToCounter(op, key, amount);
  setMarker(op, keys.orderRevision(userId), realNow);
}

/** Adds `changes` to `op` with the vocabulary of the words they add (read now). */
export async function writeNewChanges(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  userId: string,
  changes: Change[],
  scope: InsightScope,
): Promise<void> {
  const vocabulary = await vocabularyOf(kv, userId, wordsAdded(userId, changes));
  writeChanges(op, userId, changes, scope, vocabulary);
}

/**
 * Adds the change of a stored order (`before`, as read) to `op`. An order stored before the `q`
 * index existed has no postings until the migration reaches it: its terms are then not taken
 * off the counts, and the commit checks that it is still unindexed (the migration's commit
 * checks the order revision this one rewrites, so exactly one of them counts the order).
 */
export async function writeStoredChange(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  userId: string,
  before: Order,
  after: Order | null,
  scope: InsightScope,
): Promise<void> {
  const [{ stored, check }] = await indexedOf(kv, userId, [before]);
  if (check) op.check(check);
  const change: Change = { before, after, search: stored ? "stored" : "unstored" };
  await writeNewChanges(kv, op, userId, [change], scope);
}

/**
 * Whether each stored order has its `q` index (its first posting is there; an order without
 * terms counts as indexed), with the absent posting to check when it has not.
 */
export async function indexedOf(
  kv: Deno.Kv,
  userId: string,
  orders: Order[],
): Promise<{ stored: boolean; check?: Deno.AtomicCheck }[]> {
  const firsts = orders.map((o) => searchIndexOf(userId, o).postings[0]?.key);
  const read = await getManyChunked(kv, firsts.filter((k) => k !== undefined));
  let i = 0;
  return firsts.map((key) => {
    if (!key) return { stored: true };
    const posting = read[i++];
    return posting.versionstamp ? { stored: true } : { stored: false, check: posting };
  });
}
