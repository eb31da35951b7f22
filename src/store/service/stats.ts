/** Platform-wide figures (health, landing page) from the counters every change maintains. */
import { roughly, snapshotServes } from "../../domain/service/landing.ts";
import { keys } from "../keys.ts";
import { commit, counterValue } from "../kv.ts";

export interface PlatformCounts {
  users: number;
  orders: number;
  valueCents: number;
}

/** The platform's users, orders and summed order cost, in one read. */
export async function platformCounts(kv: Deno.Kv): Promise<PlatformCounts> {
  const [users, orders, value] = await kv.getMany<[Deno.KvU64, Deno.KvU64, Deno.KvU64]>([
    keys.stat("users"),
    keys.stat("orders"),
    keys.stat("value_cents"),
  ]);
  return {
    users: counterValue(users.value),
    orders: counterValue(orders.value),
    valueCents: counterValue(value.value),
  };
}

/**
 * Writes a fresh stamp and reads it back with the platform counts: true when storage answered
 * with what was written.
 */
export async function probeStorage(kv: Deno.Kv): Promise<{ ok: boolean; counts: PlatformCounts }> {
  const stamp = crypto.randomUUID();
  await commit(kv.atomic().set(keys.healthProbe(), stamp));
  const [probe, counts] = await Promise.all([
    kv.get<string>(keys.healthProbe()),
    platformCounts(kv),
  ]);
  return { ok: probe.value === stamp, counts };
}

/** The landing page's figures as taken at `takenAt` (epoch ms), rounded. */
export interface LandingSnapshot {
  takenAt: number;
  orders: number;
  valueCents: number;
}

/**
 * The landing figures: the stored snapshot while it serves (the same UTC hour), else a new one
 * from the counters, stored for every instance (the first writer of the hour wins).
 */
export async function landingSnapshot(kv: Deno.Kv, now: number): Promise<LandingSnapshot> {
  const key = keys.landingSnapshot();
  const entry = await kv.get<LandingSnapshot>(key);
  if (entry.value && snapshotServes(entry.value.takenAt, now)) return entry.value;
  const counts = await platformCounts(kv);
  const taken = {
    takenAt: now,
    orders: roughly(counts.orders),
    valueCents: roughly(counts.valueCents),
  };
  if ((await commit(kv.atomic().check(entry).set(key, taken))).ok) return taken;
  return (await kv.get<LandingSnapshot>(key)).value ?? taken;
}
