/**
 * The intake log: one entry per received message with its indexes (by channel, by source, by
 * order), its dedupe key and its stored raw copy. Entries are written by `logWrites` inside the
 * commit that stores the message's order (or alone, when no order comes of it).
 */
import type { IntakeChannel, IntakeLogEntry } from "../../domain/intake/reading.ts";
import { getBlob, type StagedBlob } from "../blob.ts";
import { keys } from "../keys.ts";
import { commit, getManyChunked, keyFits, withRetry } from "../kv.ts";
import type { InCommit, StoredOutcome } from "../orders/orders.ts";
import type { Item, WorkspaceContext } from "../sections.ts";

/** Adds an entry and its index entries to `op`. */
export function logWrites(op: Deno.AtomicOperation, userId: string, entry: IntakeLogEntry): void {
  op.set(keys.intakeLog(userId, entry.id), entry)
    .set(keys.intakeByChannelEntry(userId, entry.channel, entry.id), null);
  if (entry.sourceId) op.set(keys.intakeBySourceEntry(userId, entry.sourceId, entry.id), null);
  if (entry.orderId) op.set(keys.orderMessage(userId, entry.orderId, entry.id), null);
}

/** How a message is kept: its dedupe identity (none: no deduplication) and its raw copy. */
export interface Keeping {
  userId: string;
  channel: IntakeChannel;
  identity?: string;
  staged?: StagedBlob | null;
  /**
   * The log id of an earlier copy that made no order and that this one may replace as the
   * dedupe key's target (a rebuild reading it again as an order); any other copy still stops it.
   */
  supersedes?: string;
  /** The channel's own writes that go with the entry (a bot's tallies, an ignored post's sample). */
  alsoWrite?: (op: Deno.AtomicOperation, entry: IntakeLogEntry) => void;
  /**
   * Keys the channel reads with the order's own read (no round trip of their own), checked in
   * its commit; `seen` gets their entries on every attempt.
   */
  alsoRead?: AlsoRead;
}

export interface AlsoRead {
  keys: Deno.KvKey[];
  seen(entries: Deno.KvEntryMaybe<unknown>[]): void;
}

/** A repeat of a message already logged: the entry of its first copy. */
export interface Repeat {
  duplicateOf: string;
}

const dedupeKeyOf = ({ userId, channel, identity }: Keeping) =>
  identity ? keys.intakeDedupe(userId, channel, identity) : null;

const repeatOf = (
  first: Deno.KvEntryMaybe<unknown> | undefined,
  supersedes?: string,
): Repeat | undefined =>
  first?.value && first.value !== supersedes ? { duplicateOf: first.value as string } : undefined;

/** The entry with its indexes, the dedupe key pointing at it, and the raw copy. */
function keepWrites(op: Deno.AtomicOperation, keeping: Keeping, entry: IntakeLogEntry) {
  logWrites(op, keeping.userId, entry);
  const dedupe = dedupeKeyOf(keeping);
  if (dedupe) op.set(dedupe, entry.id);
  keeping.staged?.commit(op);
  keeping.alsoWrite?.(op, entry);
}

/**
 * The message's share of the order commit: its dedupe key checked (a copy already seen stops
 * the operation) and set, its entry with its indexes, and its raw copy.
 */
export function messageInCommit(
  keeping: Keeping,
  entryOf: (outcome: StoredOutcome) => IntakeLogEntry,
): InCommit<Repeat> {
  const dedupe = dedupeKeyOf(keeping);
  const own = dedupe ? [dedupe] : [];
  return {
    keys: [...own, ...keeping.alsoRead?.keys ?? []],
    stop: (entries) => {
      keeping.alsoRead?.seen(entries.slice(own.length));
      return dedupe ? repeatOf(entries[0], keeping.supersedes) : undefined;
    },
    write: (op, outcome) => keepWrites(op, keeping, entryOf(outcome)),
  };
}

/**
 * Logs a message that makes no order (ignored, unreadable, blocked, rejected) in a commit of its
 * own, with its dedupe key unless `keeping.identity` is absent.
 */
export function logAlone(
  kv: Deno.Kv,
  keeping: Keeping,
  entry: IntakeLogEntry,
): Promise<"stored" | "account_gone" | Repeat> {
  const dedupe = dedupeKeyOf(keeping);
  return withRetry<"stored" | "account_gone" | Repeat>(async () => {
    const [user, first] = await kv.getMany<unknown[]>([
      keys.user(keeping.userId),
      ...(dedupe ? [dedupe] : []),
    ]);
    if (!user.value) return { commit: null, value: "account_gone" };
    const repeat = repeatOf(first, keeping.supersedes);
    if (repeat) return { commit: null, value: repeat };
    const op = kv.atomic().check(user, ...(first ? [first] : []));
    keepWrites(op, keeping, entry);
    return { commit: await commit(op), value: "stored" };
  });
}

export interface LogQuery {
  channel?: IntakeChannel;
  sourceId?: string;
  orderId?: string;
  limit: number;
}

/** Entries newest first, from the narrowest index the query names, and how many there are. */
export async function listIntakeLog(
  kv: Deno.Kv,
  userId: string,
  query: LogQuery,
): Promise<{ items: IntakeLogEntry[]; total: number }> {
  const prefix = query.orderId
    ? keys.orderMessages(userId, query.orderId)
    : query.sourceId
    ? keys.intakeBySource(userId, query.sourceId)
    : keys.intakeByChannel(userId, query.channel ?? "email");
  const ids: string[] = [];
  // An id longer than any real one names nothing (and could not be a key part).
  if (!keyFits([...prefix, ""])) return { items: [], total: 0 };
  for await (const e of kv.list({ prefix }, { reverse: true, batchSize: 500 })) {
    ids.push(String(e.key.at(-1)));
  }
  const items = (await entriesOf(kv, userId, ids.slice(0, query.limit)))
    .filter((e) => !query.channel || e.channel === query.channel);
  return { items, total: ids.length };
}

/**
 * The newest `limit` entries of one source (a bot's log), or of a channel: a bounded read of
 * the index, no total.
 */
export async function latestIntakeEntries(
  kv: Deno.Kv,
  userId: string,
  from: { sourceId: string } | { channel: IntakeChannel },
  limit: number,
): Promise<IntakeLogEntry[]> {
  const prefix = "sourceId" in from
    ? keys.intakeBySource(userId, from.sourceId)
    : keys.intakeByChannel(userId, from.channel);
  const ids: string[] = [];
  for await (const e of kv.list({ prefix }, { reverse: true, limit, batchSize: limit })) {
    ids.push(String(e.key.at(-1)));
  }
  return await entriesOf(kv, userId, ids);
}

async function entriesOf(kv: Deno.Kv, userId: string, ids: string[]) {
  const entries = await getManyChunked<IntakeLogEntry>(
    kv,
    ids.map((id) => keys.intakeLog(userId, id)),
  );
  return entries.flatMap((e) => e.value ? [e.value] : []);
}

/** The ids of the workspace's orders that have at least one logged message. */
export async function ordersWithMessages(kv: Deno.Kv, userId: string): Promise<string[]> {
  const ids = new Set<string>();
  const prefix = keys.orderMessagesAll(userId);
  for await (const e of kv.list({ prefix }, { batchSize: 1000 })) ids.add(String(e.key.at(-2)));
  return [...ids];
}

/** The log id of the first copy of a message (by its dedupe identity), or null. */
export async function firstCopyOf(
  kv: Deno.Kv,
  userId: string,
  channel: IntakeChannel,
  identity: string,
): Promise<string | null> {
  const key = keys.intakeDedupe(userId, channel, identity);
  return keyFits(key) ? (await kv.get<string>(key)).value : null;
}

export async function getIntakeEntry(
  kv: Deno.Kv,
  userId: string,
  logId: string,
): Promise<IntakeLogEntry | null> {
  return (await kv.get<IntakeLogEntry>(keys.intakeLog(userId, logId))).value;
}

/** The stored raw message of an entry, or null when none is stored. */
export function getRawMessage(kv: Deno.Kv, userId: string, logId: string) {
  return getBlob(kv, keys.intakeRaw(userId, logId));
}

/**
 * The export's `intakeMessages`: every logged email and chat post, oldest first, with the
 * stored message as text (`raw`) where one is kept.
 */
export async function intakeMessagesSection(ctx: WorkspaceContext): Promise<Item[]> {
  const { kv, user } = ctx;
  const out: Item[] = [];
  for await (const e of kv.list<IntakeLogEntry>({ prefix: keys.intakeLogs(user.id) })) {
    const raw = e.value.rawSize ? await getRawMessage(kv, user.id, e.value.id) : null;
    out.push(raw ? { ...e.value, raw: new TextDecoder().decode(raw) } : { ...e.value });
  }
  return out;
}
