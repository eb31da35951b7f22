/**
 * How one carrier API is kept within its limits in this process: calls spaced apart, a pause
 * after a 429 for as long as the carrier asks, and a growing pause after repeated failures.
 * research/carriers.md section 3 has the carriers' published limits.
 */

/** Spaces the calls to one API at least `gapMs` apart (real time), in the order they ask. */
export class Pacer {
  #next = 0;

  constructor(readonly gapMs: number) {}

  async wait(): Promise<void> {
    if (this.gapMs <= 0) return;
    const now = performance.now();
    const slot = Math.max(now, this.#next);
    this.#next = slot + this.gapMs;
    if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
  }
}

/** Longest pause a `Retry-After` can ask for; without one, a 429 pauses a minute. */
const MAX_RETRY_AFTER_MS = 3_600_000;
const DEFAULT_RETRY_AFTER_MS = 60_000;

/** `Retry-After` as seconds or an HTTP date, in ms from `now`, bounded. */
export function retryAfterMs(header: string | null, now: number): number {
  const value = header?.trim() ?? "";
  let ms = DEFAULT_RETRY_AFTER_MS;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else if (value && Number.isFinite(Date.parse(value))) ms = Date.parse(value) - now;
  return Math.min(Math.max(ms, 1000), MAX_RETRY_AFTER_MS);
}

/** Failures in a row (5xx, timeouts, refused credentials) before calls pause. */
export const FAILURES_BEFORE_PAUSE = 3;
const FIRST_PAUSE_MS = 60_000;
const MAX_PAUSE_MS = 15 * 60_000;

/** Whether calls may go out now, and why not. Times from the service's clock. */
export class Breaker {
  #until = 0;
  #why = "";
  #failures = 0;

  /** Ms left of the pause, and its reason; null when calls may go out. */
  paused(now: number): { ms: number; why: string } | null {
    return now < this.#until ? { ms: this.#until - now, why: this.#why } : null;
  }

  /** The carrier answered 429: pause as long as it asks. */
  rateLimited(now: number, ms: number): void {
    this.#until = Math.max(this.#until, now + ms);
    this.#why = "asked for fewer requests";
  }

  /** From the third failure in a row, pause 1 minute, doubling up to 15. */
  failed(now: number): void {
    this.#failures++;
    if (this.#failures < FAILURES_BEFORE_PAUSE) return;
    const ms = Math.min(
      FIRST_PAUSE_MS * 2 ** (this.#failures - FAILURES_BEFORE_PAUSE),
      MAX_PAUSE_MS,
    );
    this.#until = Math.max(this.#until, now + ms);
    this.#why = "is failing";
  }

  succeeded(): void {
    this.#failures = 0;
  }
}
