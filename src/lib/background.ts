import type { Logger } from "./log.ts";

/**
 * Work a request starts but does not wait for (mail sending, mailbox rebuilds): failures are
 * logged, and shutdown (or a test) waits for what is still running. Long work watches
 * `signal`, which `stop()` aborts at shutdown.
 */
export class BackgroundTasks {
  #running = new Set<Promise<void>>();
  #stop = new AbortController();

  /** Aborted by `stop()`: long tasks end early and leave the rest for another time. */
  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  stop(): void {
    this.#stop.abort();
  }

  constructor(private log: Logger) {}

  run(name: string, task: () => Promise<void>): void {
    const running: Promise<void> = task()
      .catch((err) =>
        this.log.error(`${name} failed`, {
          error: err instanceof Error ? err.message : String(err),
        })
      )
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  async drain(): Promise<void> {
    while (this.#running.size) await Promise.all(this.#running);
  }
}
