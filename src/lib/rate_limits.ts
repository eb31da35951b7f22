/** In-memory sliding-window rate limiting (the spec counts limits in server memory). */

const WINDOW_MS = 60_000;

/**
 * Sliding 60-second windows counted in this process's memory, as the spec says. Each key keeps
 * the times of its accepted hits; stale keys are swept as the map grows.
 */
export class SlidingWindowLimiter {
  #hits = new Map<string, number[]>();
  #lastSweep = 0;

  constructor(readonly limit: number, readonly windowMs = WINDOW_MS) {}

  /** Records a hit for `key` unless it is over the limit; true when allowed. */
  take(key: string, now = Date.now()): boolean {
    this.#sweep(now);
    const since = now - this.windowMs;
    const hits = (this.#hits.get(key) ?? []).filter((t) => t > since);
    if (hits.length >= this.limit) {
      this.#hits.set(key, hits);
      return false;
    }
    hits.push(now);
    this.#hits.set(key, hits);
    return true;
  }

  #sweep(now: number) {
    if (now - this.#lastSweep < this.windowMs) return;
    this.#lastSweep = now;
    const since = now - this.windowMs;
    for (const [key, hits] of this.#hits) {
      if (hits[hits.length - 1] <= since) this.#hits.delete(key);
    }
  }
}

/** Named limiters of one app instance, so endpoints that share a limit share its counts. */
export class RateLimits {
  #limiters = new Map<string, SlidingWindowLimiter>();

  get(name: string, limit: number): SlidingWindowLimiter {
    let limiter = this.#limiters.get(name);
    if (!limiter) this.#limiters.set(name, limiter = new SlidingWindowLimiter(limit));
    return limiter;
  }
}
