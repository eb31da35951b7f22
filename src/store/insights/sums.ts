/**
 * The maintained insight sums: money per month and per day, calendar counts per day, and the
 * leaderboard's per-UTC-day and all-time sums, all KvU64 counters under
 * `["ws", userId, "insight", generation]`. Every order change adds the difference of the
 * order's contributions before and after (orders/footprint.ts), in the order's own commit, so
 * the sums are exact under any interleaving of creates, merges, PATCH and DELETE.
 *
 * Days and months are those of the account's timezone. A timezone change starts a new
 * generation (users.ts, in the commit that changes the zone) that `rebuildInsights` fills from
 * the orders, page by page, each page in a commit checked against the account and the order
 * revision: orders up to the page's last id are then in the sums, and order changes keep them
 * exact from there (`isSummed`). Until the rebuild ends, readers sum a scan of the orders
 * instead: slower, never wrong.
 */
import {
  type Contribution,
  insightContributions,
  type InsightState,
  isSummed,
  LEGACY_STATE,
} from "../../domain/insights/sums.ts";
import { leaderboardContributions } from "../../domain/insights/leaderboard.ts";
import type { Order } from "../../domain/orders/order.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { safeTimeZone } from "../../lib/timezone.ts";
import { keys } from "../keys.ts";
import { addToCounter, commit, counterValue, deletePrefix } from "../kv.ts";
import { listAllOrders } from "../orders/list.ts";
import type { InsightSumCache } from "./cache.ts";

type Part = readonly string[];

/** What an account's order changes need to know to move its sums. */
export interface InsightScope {
  timeZone: string;
  state: InsightState;
}

export function insightScope(user: UserRecord): InsightScope {
  return { timeZone: safeTimeZone(user.timezone), state: user.insights ?? LEGACY_STATE };
}

/** Every sum an order adds to: the insight parts, and the leaderboard's under `"lb"`. */
function partsOf(order: Order, timeZone: string): Contribution<Part>[] {
  return [
    ...insightContributions(order, timeZone),
    ...leaderboardContributions(order).map((c) => ({ part: ["lb", ...c.part], amount: c.amount })),
  ];
}

/** The counters `order` adds to (none while the rebuild has not reached it). */
export function insightCounters(
  userId: string,
  order: Order,
  scope: InsightScope,
): { key: Deno.KvKey; amount: number }[] {
  if (!isSummed(scope.state, order.id)) return [];
  const { generation } = scope.state;
  return partsOf(order, scope.timeZone).map(({ part, amount }) => ({
    key: keys.insight(userId, generation, part),
    amount,
  }));
}

/** Parts in `[from, to)`, in KV's order of string tuples. */
export interface PartRange {
  from: Part;
  to: Part;
}

function comparePart(a: Part, b: Part): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

const inRange = (part: Part, r: PartRange) =>
  comparePart(part, r.from) >= 0 && comparePart(part, r.to) < 0;

/** A sum as read: its part and value. */
export interface PartSum {
  part: Part;
  amount: number;
}

/**
 * Reads an account's sums by part ranges: from the counters when its generation is complete,
 * else from one scan of its orders (shared by every read of this reader).
 */
export class InsightReader {
  #scan: Promise<PartSum[]> | null = null;
  #revision: Promise<string | null> | null = null;
  readonly complete: boolean;
  readonly #scope: InsightScope;

  /** With `cache`, counter reads are remembered under the workspace's order revision. */
  constructor(
    private readonly kv: Deno.Kv,
    private readonly user: UserRecord,
    private readonly cache?: InsightSumCache,
  ) {
    this.#scope = insightScope(user);
    this.complete = this.#scope.state.upTo === undefined;
  }

  async read(range: PartRange): Promise<PartSum[]> {
    if (!this.complete) return (await this.#scanned()).filter((s) => inRange(s.part, range));
    return await this.#cached(`range ${JSON.stringify(range)}`, () => this.#counters(range));
  }

  /**
   * The first sum in `range` (in key order) that `wanted` accepts, reading no further.
   * `label` names `wanted` for the cache.
   */
  async first(
    range: PartRange,
    wanted: (sum: PartSum) => boolean,
    label: string,
  ): Promise<PartSum | null> {
    if (!this.complete) return (await this.read(range)).find(wanted) ?? null;
    const found = await this.#cached(`first ${label} ${JSON.stringify(range)}`, async () => {
      const sum = await this.#firstCounter(range, wanted);
      return sum ? [sum] : [];
    });
    return found[0] ?? null;
  }

  async #cached(name: string, read: () => Promise<PartSum[]>): Promise<PartSum[]> {
    if (!this.cache) return await read();
    // One read of the order revision serves every range of this reader.
    this.#revision ??= this.cache.revision(this.user.id);
    const key = `${this.#scope.state.generation} ${name}`;
    return await this.cache.sums(this.user.id, key, await this.#revision, read);
  }

  #selector(range: PartRange) {
    const { generation } = this.#scope.state;
    return {
      start: keys.insight(this.user.id, generation, range.from),
      end: keys.insight(this.user.id, generation, range.to),
    };
  }

  async #counters(range: PartRange): Promise<PartSum[]> {
    const prefix = keys.insights(this.user.id, this.#scope.state.generation).length;
    const out: PartSum[] = [];
    for await (const e of this.kv.list<Deno.KvU64>(this.#selector(range), { batchSize: 1000 })) {
      const amount = counterValue(e.value);
      if (amount) out.push({ part: e.key.slice(prefix) as string[], amount });
    }
    return out;
  }

  async #firstCounter(range: PartRange, wanted: (sum: PartSum) => boolean) {
    const prefix = keys.insights(this.user.id, this.#scope.state.generation).length;
    for await (const e of this.kv.list<Deno.KvU64>(this.#selector(range), { batchSize: 4 })) {
      const sum = { part: e.key.slice(prefix) as string[], amount: counterValue(e.value) };
      if (wanted(sum)) return sum;
    }
    return null;
  }

  #scanned(): Promise<PartSum[]> {
    this.#scan ??= listAllOrders(this.kv, this.user.id).then((orders) => {
      const sums = new Map<string, PartSum>();
      for (const order of orders) {
        for (const { part, amount } of partsOf(order, this.#scope.timeZone)) {
          const id = JSON.stringify(part);
          const sum = sums.get(id) ?? sums.set(id, { part, amount: 0 }).get(id)!;
          sum.amount += amount;
        }
      }
      // In key order, as the counters are read.
      return [...sums.values()].filter((s) => s.amount).sort((a, b) => comparePart(a.part, b.part));
    });
    return this.#scan;
  }
}

/** Orders per rebuild commit at most, and distinct counters at most. */
const REBUILD_PAGE = 200;
const REBUILD_COUNTERS = 500;

/**
 * Fills the account's current generation from its orders, if it is being rebuilt, and deletes
 * older generations. Each page commits only if neither the account nor any order changed since
 * it was read; a page that loses the race is read again.
 */
export async function rebuildInsights(kv: Deno.Kv, userId: string): Promise<void> {
  for (;;) {
    const [user, revision] = await kv.getMany<[UserRecord, number]>([
      keys.user(userId),
      keys.orderRevision(userId),
    ]);
    if (!user.value) return;
    const scope = insightScope(user.value);
    const { upTo, generation } = scope.state;
    if (upTo === undefined) return await dropOtherGenerations(kv, userId, generation);
    const sums = new Map<string, { key: Deno.KvKey; amount: number }>();
    let last = upTo;
    let read = 0;
    let more = false;
    const iter = kv.list<Order>({ prefix: keys.orders(userId), start: keys.order(userId, upTo) });
    for await (const { value: order } of iter) {
      if (order.id === upTo) continue;
      if (read >= REBUILD_PAGE || sums.size >= REBUILD_COUNTERS) {
        more = true;
        break;
      }
      for (const { part, amount } of partsOf(order, scope.timeZone)) {
        const key = keys.insight(userId, generation, part);
        const id = JSON.stringify(key);
        sums.set(id, { key, amount: (sums.get(id)?.amount ?? 0) + amount });
      }
      last = order.id;
      read++;
    }
    const state: InsightState = more ? { generation, upTo: last } : { generation };
    const op = kv.atomic().check(user, revision).set(user.key, { ...user.value, insights: state });
    for (const { key, amount } of sums.values()) addToCounter(op, key, amount);
    await commit(op);
  }
}

/** Deletes every generation of the account's sums but `current`. */
async function dropOtherGenerations(kv: Deno.Kv, userId: string, current: string) {
  const root = keys.insightsRoot(userId);
  let selector: Deno.KvListSelector = { prefix: root };
  for (;;) {
    let generation: string | null = null;
    for await (const e of kv.list(selector, { limit: 1 })) {
      generation = String(e.key[root.length]);
    }
    if (generation === null) return;
    if (generation !== current) await deletePrefix(kv, [...root, generation]);
    // Past every key of that generation: "g\0" sorts after ["g", anything].
    selector = { prefix: root, start: [...root, `${generation}\0`] };
  }
}

const rebuilds = new Map<string, Promise<void>>();

/** Runs the account's rebuild unless one is already under way in this process. */
export function ensureRebuilt(kv: Deno.Kv, userId: string): Promise<void> {
  let running = rebuilds.get(userId);
  if (!running) {
    running = rebuildInsights(kv, userId).finally(() => rebuilds.delete(userId));
    rebuilds.set(userId, running);
  }
  return running;
}
