import { keys } from "./keys.ts";
import { commit } from "./kv.ts";

interface Lease {
  /** The process holding it (for diagnosis). */
  owner: string;
  /** Epoch ms after which anyone may take it (`expireIn` alone is only a lower bound). */
  until: number;
}

const OWNER = crypto.randomUUID();

/** The lease was taken over by another process (it ran out): the holder must stop writing. */
export class LeaseLostError extends Error {
  constructor(name: string) {
    super(`The lease ${name} was taken over by another process`);
  }
}

/**
 * A lease this process holds for long work: every commit made through `commit` checks that
 * the lease is still ours and extends it by its time to live, so it lasts as long as the work
 * makes progress and runs out soon after the holder dies.
 */
export class HeldLease {
  #versionstamp: string;

  constructor(
    private readonly kv: Deno.Kv,
    readonly name: string,
    versionstamp: string,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {
    this.#versionstamp = versionstamp;
  }

  /**
   * Commits `op` with the lease checked and extended. Resolves to the commit's result (not ok
   * when one of the caller's own checks failed); throws LeaseLostError when the lease is gone.
   */
  async commit(op: Deno.AtomicOperation): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
    const key = keys.lease(this.name);
    const until = this.now() + this.ttlMs;
    op.check({ key, versionstamp: this.#versionstamp })
      .set(key, { owner: OWNER, until } satisfies Lease, { expireIn: this.ttlMs });
    const result = await commit(op);
    if (result.ok) this.#versionstamp = result.versionstamp;
    else if ((await this.kv.get(key)).versionstamp !== this.#versionstamp) {
      throw new LeaseLostError(this.name);
    }
    return result;
  }

  /** Gives the lease back (only our own: one taken over after it ran out stays). */
  async release(): Promise<void> {
    const key = keys.lease(this.name);
    await commit(this.kv.atomic().check({ key, versionstamp: this.#versionstamp }).delete(key));
  }
}

/** Takes the lease `name` for `ttlMs` unless another holder's lease is still valid (null). */
export async function takeLease(
  kv: Deno.Kv,
  name: string,
  ttlMs: number,
  now: () => number,
): Promise<HeldLease | null> {
  const key = keys.lease(name);
  const current = await kv.get<Lease>(key);
  const at = now();
  if (current.value && current.value.until > at) return null;
  const taken = await commit(
    kv.atomic()
      .check(current)
      .set(key, { owner: OWNER, until: at + ttlMs } satisfies Lease, { expireIn: ttlMs }),
  );
  return taken.ok ? new HeldLease(kv, name, taken.versionstamp, ttlMs, now) : null;
}

/**
 * Runs `job` only while holding its lease, so that of several processes on one store (each
 * firing the same cron) one runs it at a time. The lease is taken with a check on its current
 * version, lasts `ttlMs` (longer than the job may run), and is given back when the job ends.
 * Resolves to false, without running, when another holder's lease is still valid.
 */
export async function withLease(
  kv: Deno.Kv,
  name: string,
  ttlMs: number,
  now: () => number,
  job: () => Promise<void>,
): Promise<boolean> {
  const lease = await takeLease(kv, name, ttlMs, now);
  if (!lease) return false;
  try {
    await job();
  } finally {
    await lease.release();
  }
  return true;
}
