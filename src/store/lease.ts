import { keys } from "./keys.ts";
import { commit } from "./kv.ts";

interface Lease {
  /** The process holding it (for diagnosis). */
  owner: string;
  /** Epoch ms after which anyone may take it (`expireIn` alone is only a lower bound). */
  until: number;
}

const OWNER = crypto.randomUUID();

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
  const key = keys.lease(name);
  const current = await kv.get<Lease>(key);
  const at = now();
  if (current.value && current.value.until > at) return false;
  const taken = await commit(
    kv.atomic()
      .check(current)
      .set(key, { owner: OWNER, until: at + ttlMs } satisfies Lease, { expireIn: ttlMs }),
  );
  if (!taken.ok) return false;
  try {
    await job();
  } finally {
    // Only our own lease: one taken over after it ran out stays with its new holder.
    await commit(kv.atomic().check({ key, versionstamp: taken.versionstamp }).delete(key));
  }
  return true;
}
