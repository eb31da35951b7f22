/**
 * Group commit: order changes made at the same moment share one KV commit. Deno KV's commits
 * are serialised, so one commit per request caps a busy workspace at what one commit takes;
 * a shared commit pays its fixed cost (about 0.4 ms) and its counters' writes once for all its
 * changes (their other writes cost the same shared or not: docs/benchmarks.md).
 *
 * A change is recorded in a {@link SharedAtomic} (the `Deno.AtomicOperation` methods) and handed
 * to its store's {@link GroupCommit}. The first change of a quiet moment commits at once, alone;
 * changes that arrive while a commit is in flight wait for it and then share the next one, as
 * many as are compatible and fit KV's limits:
 * - a key one change sets or deletes is touched by no other change of the commit, and a key one
 *   change checks is written by no other (so the commit means what the changes one after another
 *   would mean: every check reads the state before the commit);
 * - sums to one key become one sum; a marker (a "last change" stamp) is written once;
 * - a change left out waits for the next commit, ahead of later arrivals touching its keys.
 * A second commit is sent while one is in flight only when it is full (see {@link GroupCommit}).
 * Each change is answered when the commit holding it is stored. A shared commit refused (a
 * failed check, or a limit the estimate missed) is committed again change by change, so the
 * change whose check failed gets its own refusal and the others are stored.
 */
import { commit, MAX_CHECKS, type SelfCommitting, writerOf } from "./kv.ts";
import { Batcher } from "../lib/batcher.ts";
import { bytesOf, keyBytes, keyId } from "./commit_size.ts";
import { metrics } from "../lib/metrics.ts";
import { batchedEnqueues, type Enqueue } from "./queue_batch.ts";

type Result = Deno.KvCommitResult | Deno.KvCommitError;
type EnqueueOptions = Parameters<Deno.AtomicOperation["enqueue"]>[1];

/** Per shared commit: checks (remote KV allows 10), mutations and bytes well inside KV's limits. */
const MAX_MUTATIONS = 900;
const MAX_KEY_BYTES_TOTAL = 60 * 1024;
const MAX_VALUE_BYTES_TOTAL = 600 * 1024;
/** Changes in one commit, whatever their size. */
const MAX_CHANGES = 64;

const U64 = 1n << 64n;

interface Sum {
  key: Deno.KvKey;
  amount: bigint;
}

/** An atomic operation recorded, to be committed alone or with others by its store. */
export class SharedAtomic implements Deno.AtomicOperation, SelfCommitting {
  readonly selfCommitting = true;
  /** Checks by key id (a key checked twice keeps its first versionstamp: both must agree). */
  readonly checks = new Map<string, Deno.AtomicCheck>();
  /** Set, delete, min and max, by key id; only the last one of a key counts, as in KV. */
  readonly writes = new Map<string, Deno.KvMutation>();
  readonly sums = new Map<string, Sum>();
  readonly markers = new Map<string, { key: Deno.KvKey; value: unknown }>();
  readonly enqueues: Enqueue[] = [];
  /** A check this operation contradicts itself on: it can only fail. */
  selfConflict = false;
  keyBytes = 0;
  valueBytes = 0;

  constructor(private readonly group: GroupCommit) {}

  check(...checks: Deno.AtomicCheck[]): this {
    for (const c of checks) {
      const id = keyId(c.key);
      const held = this.checks.get(id);
      if (held && held.versionstamp !== c.versionstamp) this.selfConflict = true;
      if (!held) {
        this.checks.set(id, c);
        this.keyBytes += keyBytes(c.key);
      }
    }
    return this;
  }

  mutate(...mutations: Deno.KvMutation[]): this {
    for (const m of mutations) {
      if (m.type === "sum") this.#sum(m.key, m.value.value);
      else this.#write(m);
    }
    return this;
  }

  sum(key: Deno.KvKey, n: bigint): this {
    this.#sum(key, n);
    return this;
  }

  min(key: Deno.KvKey, n: bigint): this {
    return this.#write({ type: "min", key, value: new Deno.KvU64(n) });
  }

  max(key: Deno.KvKey, n: bigint): this {
    return this.#write({ type: "max", key, value: new Deno.KvU64(n) });
  }

  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): this {
    return this.#write({ type: "set", key, value, expireIn: options?.expireIn });
  }

  delete(key: Deno.KvKey): this {
    return this.#write({ type: "delete", key });
  }

  /**
   * Sets a marker: a key every change of its kind stamps (the time of a workspace's last order
   * change), whose one latest value is enough when changes share a commit.
   */
  mark(key: Deno.KvKey, value: unknown): this {
    const id = keyId(key);
    if (!this.markers.has(id)) this.keyBytes += keyBytes(key);
    this.markers.set(id, { key, value });
    return this;
  }

  enqueue(value: unknown, options?: EnqueueOptions): this {
    const bytes = bytesOf(value);
    this.enqueues.push({ value, options, bytes });
    this.valueBytes += bytes;
    return this;
  }

  commit(): Promise<Result> {
    return this.group.submit(this);
  }

  get mutationCount(): number {
    return this.writes.size + this.sums.size + this.markers.size + this.enqueues.length;
  }

  #sum(key: Deno.KvKey, n: bigint) {
    const id = keyId(key);
    const held = this.sums.get(id);
    if (!held) this.keyBytes += keyBytes(key);
    this.sums.set(id, { key, amount: ((held?.amount ?? 0n) + n) % U64 });
  }

  #write(m: Deno.KvMutation): this {
    const id = keyId(m.key);
    if (!this.writes.has(id)) this.keyBytes += keyBytes(m.key);
    this.writes.delete(id); // KV applies mutations in order: the last one of a key stays.
    this.writes.set(id, m);
    if (m.type === "set") this.valueBytes += bytesOf(m.value);
    return this;
  }
}

interface Waiting {
  op: SharedAtomic;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/** The keys a commit being assembled touches, to tell whether one more change fits in. */
class Batch {
  readonly members: Waiting[] = [];
  readonly checks = new Map<string, Deno.AtomicCheck>();
  readonly written = new Set<string>();
  readonly sums = new Set<string>();
  readonly markers = new Set<string>();
  mutations = 0;
  keyBytes = 0;
  valueBytes = 0;
  /** A change was left out for the commit's limits: waiting longer cannot make it larger. */
  full = false;

  /** Takes `w` when it is compatible with the changes already in and the commit stays small. */
  offer(w: Waiting): boolean {
    const { op } = w;
    if (this.members.length && !this.#fits(op)) return false;
    this.note(op);
    this.mutations += op.mutationCount;
    this.keyBytes += op.keyBytes;
    this.valueBytes += op.valueBytes;
    this.members.push(w);
    return true;
  }

  /** Records the keys `op` touches (of a change taken, or of one left waiting). */
  note(op: SharedAtomic): void {
    for (const [id, c] of op.checks) this.checks.set(id, c);
    for (const id of op.writes.keys()) this.written.add(id);
    for (const id of op.sums.keys()) this.sums.add(id);
    for (const id of op.markers.keys()) this.markers.add(id);
  }

  /**
   * Whether `op` must wait for this commit, in flight (or for changes left waiting before it): it checks a key this commit changes, or
   * changes a key this commit checks or sets. Sums and markers may land in either order.
   */
  holdsBack(op: SharedAtomic): boolean {
    for (const id of op.checks.keys()) {
      if (this.written.has(id) || this.sums.has(id) || this.markers.has(id)) return true;
    }
    for (const id of op.writes.keys()) if (this.written.has(id) || this.checks.has(id)) return true;
    for (const id of op.sums.keys()) if (this.checks.has(id)) return true;
    for (const id of op.markers.keys()) if (this.checks.has(id)) return true;
    return false;
  }

  #fits(op: SharedAtomic): boolean {
    if (op.selfConflict || this.members[0].op.selfConflict) return false;
    let newChecks = 0;
    for (const id of op.checks.keys()) if (!this.checks.has(id)) newChecks++;
    if (
      this.members.length >= MAX_CHANGES ||
      this.mutations + op.mutationCount > MAX_MUTATIONS ||
      this.keyBytes + op.keyBytes > MAX_KEY_BYTES_TOTAL ||
      this.valueBytes + op.valueBytes > MAX_VALUE_BYTES_TOTAL ||
      this.checks.size + newChecks > MAX_CHECKS
    ) {
      this.full = true;
      return false;
    }
    for (const [id, c] of op.checks) {
      const held = this.checks.get(id);
      if (held && held.versionstamp !== c.versionstamp) return false;
      if (this.written.has(id) || this.sums.has(id) || this.markers.has(id)) return false;
    }
    for (const id of op.writes.keys()) {
      if (this.written.has(id) || this.checks.has(id) || this.sums.has(id)) return false;
      if (this.markers.has(id)) return false;
    }
    for (const id of op.sums.keys()) {
      if (this.written.has(id) || this.checks.has(id) || this.markers.has(id)) return false;
    }
    for (const id of op.markers.keys()) {
      if (this.written.has(id) || this.checks.has(id) || this.sums.has(id)) return false;
    }
    return true;
  }
}

/**
 * One atomic operation holding the changes, sums to one key and markers folded, their queue
 * messages enqueued as few (queue_batch.ts).
 */
function atomicOf(kv: Deno.Kv, members: Waiting[]): Deno.AtomicOperation {
  const op = kv.atomic();
  const sums = new Map<string, Sum>();
  const markers = new Map<string, { key: Deno.KvKey; value: unknown }>();
  // A key several changes check (their account) is checked once: KV counts every check.
  const checks = new Map<string, Deno.AtomicCheck>();
  const enqueues: Enqueue[] = [];
  for (const { op: member } of members) {
    for (const [id, c] of member.checks) checks.set(id, c);
    op.mutate(...member.writes.values());
    enqueues.push(...member.enqueues);
    for (const [id, s] of member.sums) {
      sums.set(id, { key: s.key, amount: ((sums.get(id)?.amount ?? 0n) + s.amount) % U64 });
    }
    for (const [id, m] of member.markers) markers.set(id, m);
  }
  op.check(...checks.values());
  for (const { value, options } of batchedEnqueues(enqueues)) op.enqueue(value, options);
  for (const { key, amount } of sums.values()) op.sum(key, amount);
  for (const { key, value } of markers.values()) op.set(key, value);
  return op;
}

/**
 * Whether the waiting changes, all together, reach a limit of one commit: without that, a
 * commit of them cannot be full (a cheap test before assembling one while another is in flight).
 */
function mayFill(waiting: Waiting[]): boolean {
  if (waiting.length > MAX_CHANGES) return true;
  let checks = 0, mutations = 0, keyBytes = 0, valueBytes = 0;
  for (const { op } of waiting) {
    checks += op.checks.size;
    mutations += op.mutationCount;
    keyBytes += op.keyBytes;
    valueBytes += op.valueBytes;
  }
  return checks > MAX_CHECKS || mutations > MAX_MUTATIONS || keyBytes > MAX_KEY_BYTES_TOTAL ||
    valueBytes > MAX_VALUE_BYTES_TOTAL;
}

/**
 * One store's changes waiting to share a commit. One commit is in flight at a time, and a
 * second only when the next one is full (a change was left out for its limits, so it cannot
 * grow by waiting) and none of its changes must wait for the first (`holdsBack`): under load the
 * connection has the next commit queued when one ends, instead of idling while this process
 * answers the ended one and assembles the next.
 */
export class GroupCommit {
  readonly #inFlight = new Map<Waiting[], Batch>();
  readonly #batcher = new Batcher<Waiting>({
    parallel: 2,
    take: (waiting) => {
      const running = [...this.#inFlight.values()];
      if (running.length && !mayFill(waiting)) return [];
      const batch = new Batch();
      // The keys of changes left waiting: a later change touching them waits too, behind them.
      const skipped = new Batch();
      const left = waiting.filter((w) => {
        const wait = running.some((b) => b.holdsBack(w.op)) || skipped.holdsBack(w.op) ||
          !batch.offer(w);
        if (wait) skipped.note(w.op);
        return wait;
      });
      if (running.length && !batch.full) return [];
      waiting.splice(0, waiting.length, ...left);
      if (batch.members.length) this.#inFlight.set(batch.members, batch);
      return batch.members;
    },
    run: (members) => this.#commit(members).finally(() => this.#inFlight.delete(members)),
  });

  /** `shared` false: every change commits alone at once, as without group commit. */
  constructor(private readonly kv: Deno.Kv, private readonly shared = true) {}

  submit(op: SharedAtomic): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      if (this.shared) this.#batcher.add({ op, resolve, reject });
      else this.#alone({ op, resolve, reject });
    });
  }

  async #commit(members: Waiting[]) {
    metrics.kvGroupCommit(members.length);
    if (members.length === 1) return await this.#alone(members[0]);
    let result: Result | null = null;
    try {
      result = await commit(atomicOf(this.kv, members));
    } catch {
      // A limit the estimate missed, or storage busy: each change goes on its own below.
    }
    if (result?.ok) {
      for (const m of members) m.resolve(result);
      return;
    }
    metrics.kvRetry("group_split");
    await Promise.all(members.map((m) => this.#alone(m)));
  }

  async #alone(w: Waiting) {
    try {
      w.resolve(await commit(atomicOf(this.kv, [w])));
    } catch (err) {
      w.reject(err);
    }
  }
}

const groups = new WeakMap<Deno.Kv, GroupCommit>();

/**
 * An atomic operation on `kv` that may share its commit with others made at the same moment
 * (order creates and merges, intake). Its `commit()`, or the store's `commit(op)`, hands it over.
 * It commits through the store's writing connection (`writerOf`).
 */
export function sharedAtomic(kv: Deno.Kv): SharedAtomic {
  let group = groups.get(kv);
  if (!group) groups.set(kv, group = new GroupCommit(writerOf(kv)));
  return new SharedAtomic(group);
}

/**
 * Makes every change on `kv` commit alone, one commit per change (the benchmarks' one-commit
 * ceiling), through the same connection as shared commits would. Call before its first change.
 */
export function commitEachAlone(kv: Deno.Kv): void {
  groups.set(kv, new GroupCommit(writerOf(kv), false));
}

/** Sets `key` as a marker when `op` may share its commit, else as a plain set. */
export function setMarker(op: Deno.AtomicOperation, key: Deno.KvKey, value: unknown): void {
  if (op instanceof SharedAtomic) op.mark(key, value);
  else op.set(key, value);
}
