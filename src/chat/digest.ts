/**
 * The digest: a summary of the orders a workspace received in the last day (or week), posted to
 * its `updatesWebhook` on demand (`POST /api/chat/digest`) or on its schedule by the hourly
 * `chat digest` cron job, which one process at a time runs (a KV lease).
 */
import {
  DIGEST_LATEST,
  DIGEST_PERIOD_MS,
  digestPost,
  type DigestSummary,
} from "../domain/chat/outgoing.ts";
import { claimDigest, dueDigests } from "../store/chat/digest.ts";
import { withLease } from "../store/lease.ts";
import { listOrders } from "../store/orders/list.ts";
import { getSettings } from "../store/account/settings.ts";
import { type ChatDeps, relay, type RelayResult } from "./relay.ts";

/** What the digest needs (it reads orders through the KV of `ChatDeps`). */
export type DigestDeps = ChatDeps;

/** Hourly: a digest goes out within the hour after it is due. */
export const DIGEST_SCHEDULE = "7 * * * *";
/** Longer than a run takes; another process may take over after it. */
const LEASE_MS = 15 * 60_000;
/** Due digests read per batch. */
const BATCH = 50;

/** Orders received in the period before `now`: how many, where they are now, the newest. */
export async function summarise(
  deps: DigestDeps,
  userId: string,
  cadence: "daily" | "weekly",
  now: number,
): Promise<DigestSummary> {
  const range = { fromMs: now - DIGEST_PERIOD_MS[cadence], toMs: now + 1 };
  const read = (status?: "shipped" | "delivered", limit = 1) =>
    listOrders(deps.kv, userId, { ...range, status }, { limit, offset: 0 });
  const [all, shipped, delivered] = await Promise.all([
    read(undefined, DIGEST_LATEST),
    read("shipped"),
    read("delivered"),
  ]);
  return {
    cadence,
    received: all.total,
    shipped: shipped.total,
    delivered: delivered.total,
    latest: all.items.map(({ itemSummary, store, status }) => ({ itemSummary, store, status })),
  };
}

/** Posts a digest now; `no_webhook` when the workspace has no `updatesWebhook`. */
export async function sendDigest(
  deps: DigestDeps,
  userId: string,
  cadence: "daily" | "weekly",
): Promise<RelayResult | "no_webhook"> {
  const { updatesWebhook } = await getSettings(deps.kv, userId);
  if (!updatesWebhook) return "no_webhook";
  const now = deps.now();
  const summary = await summarise(deps, userId, cadence, now);
  return await relay(deps, "digest", updatesWebhook, JSON.stringify(digestPost(summary, now)), {
    userId,
  });
}

/**
 * One run of the cron job: every digest due now is claimed (moved to its next slot) and then
 * sent, batch after batch, until none is due or shutdown begins.
 */
export async function runDigests(deps: DigestDeps, options: { signal?: AbortSignal } = {}) {
  await withLease(deps.kv, "chat digest", LEASE_MS, deps.now, async () => {
    for (;;) {
      const due = await dueDigests(deps.kv, deps.now(), BATCH);
      for (const { userId, dueAt } of due) {
        if (options.signal?.aborted) return;
        const cadence = await claimDigest(deps.kv, userId, dueAt, deps.now());
        if (cadence) await sendDigest(deps, userId, cadence);
      }
      if (due.length < BATCH) return;
    }
  });
}
