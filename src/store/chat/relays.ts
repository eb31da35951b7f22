/**
 * Order updates announced to a workspace's `updatesWebhook`: each event is claimed before it is
 * sent, so the copies of one event (the hand-over at commit, the queue's redelivery, the outbox
 * drain) announce it at most once.
 */
import { keys } from "../keys.ts";
import { commit } from "../kv.ts";

/** Longer than any event is delivered for (six days), so a late copy still finds the claim. */
const RELAY_MARKER_TTL_MS = 7 * 86_400_000;

/** True for the one caller that may announce the event. */
export async function claimRelay(
  kv: Deno.Kv,
  userId: string,
  eventId: string,
  now: number,
): Promise<boolean> {
  const key = keys.chatRelay(userId, eventId);
  const claimed = await commit(
    kv.atomic().check({ key, versionstamp: null })
      .set(key, { at: now }, { expireIn: RELAY_MARKER_TTL_MS }),
  );
  return claimed.ok;
}
