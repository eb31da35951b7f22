/**
 * Groups work that arrives concurrently into shared batches (KV commits): at most `parallel`
 * batches run at once, and what arrives meanwhile waits for the next one. A lone item starts at
 * once, so batching costs no latency at light load and grows with the load.
 */
export class Batcher<T> {
  #waiting: T[] = [];
  #running = 0;

  constructor(
    private readonly options: {
      parallel: number;
      /** Removes the next batch from `waiting` (may leave items that cannot go yet). */
      take: (waiting: T[]) => T[];
      /** Runs a batch; settles its items itself and never rejects. */
      run: (batch: T[]) => Promise<void>;
    },
  ) {}

  add(item: T): void {
    this.#waiting.push(item);
    this.#pump();
  }

  #pump() {
    while (this.#running < this.options.parallel && this.#waiting.length) {
      const batch = this.options.take(this.#waiting);
      if (batch.length === 0) return;
      this.#running++;
      this.options.run(batch).finally(() => {
        this.#running--;
        this.#pump();
      });
    }
  }
}
