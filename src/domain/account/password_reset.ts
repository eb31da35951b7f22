/** Reset mail per address: at most 3 an hour, whatever the addresses' requests come from. */
export const RESET_MAILS_PER_ADDRESS = 3;
export const RESET_MAIL_WINDOW_MS = 60 * 60 * 1000;

/**
 * Forgot-password answers no sooner than this after its work starts. Account or not, the work is
 * the same (same reads, one commit of the same size), but reading a value that exists costs a
 * few microseconds more than reading none; a floor well above the work's own time (a few
 * milliseconds, tens on a remote KV) leaves nothing of that to measure.
 */
export const RESET_ANSWER_FLOOR_MS = 250;

export type ResetMailTurn =
  | { ok: true; times: number[] }
  | { ok: false; retryAfterMs: number };

/**
 * The sliding window of one address: the times of its requests within the hour, and whether
 * one more fits (with the times to store) or when the oldest leaves the window.
 */
export function takeResetMailTurn(times: readonly number[], now: number): ResetMailTurn {
  const inWindow = (t: number) => t > now - RESET_MAIL_WINDOW_MS && t <= now;
  const recent = times.filter(inWindow).sort((a, b) => a - b);
  if (recent.length >= RESET_MAILS_PER_ADDRESS) {
    return { ok: false, retryAfterMs: recent[0] + RESET_MAIL_WINDOW_MS - now };
  }
  return { ok: true, times: [...recent, now] };
}
