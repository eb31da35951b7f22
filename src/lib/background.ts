import type { Logger } from "./log.ts";

/**
 * Work a request starts but does not wait for (mail sending): failures are logged, and
 * shutdown (or a test) waits for what is still running.
 */
export class BackgroundTasks {
  #running = new Set<Promise<void>>();

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
