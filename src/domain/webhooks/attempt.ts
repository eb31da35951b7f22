/**
 * The attempt of one (event, subscription) pair: claimed before the send, done in the commit
 * that records its outcome. The rule below decides, from the stored marker, whether a handler
 * that finds the pair sends it, waits, or leaves it.
 */

/** The stored marker of a pair's attempt; `at` is the claim time, or the outcome time once done. */
export type AttemptMarker = { state: "claimed" | "done"; at: number };

/**
 * How long past the delivery deadline a claim without an outcome still counts as under way:
 * room for the outcome's commit, a busy event loop and the clocks of other processes.
 */
export const CLAIM_MARGIN_MS = 5000;

/** Send the pair (claiming it against the marker read), look again at `until`, or leave it. */
export type AttemptStep = { step: "claim" } | { step: "wait"; until: number } | { step: "skip" };

/**
 * The re-claim rule. No marker: claim. Done: never again (its outcome is counted). Claimed
 * without an outcome: under way until the send's deadline plus {@link CLAIM_MARGIN_MS}; past
 * that the claimer died between its claim and its outcome, so the pair is claimed again and
 * sent once more with the same event id. A claim this process is still working on (`mine`)
 * waits whatever its age. A bare number is a claim time written before markers had a state:
 * its outcome is unknown and it was promised at most once, so it is left alone.
 */
export function attemptStep(
  marker: AttemptMarker | number | null,
  now: number,
  deadlineMs: number,
  mine = false,
): AttemptStep {
  if (marker === null) return { step: "claim" };
  if (typeof marker === "number" || marker.state === "done") return { step: "skip" };
  const until = marker.at + deadlineMs + CLAIM_MARGIN_MS;
  if (mine) return { step: "wait", until: Math.max(until, now + CLAIM_MARGIN_MS) };
  return now >= until ? { step: "claim" } : { step: "wait", until };
}
