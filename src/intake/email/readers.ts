/**
 * Where messages are read. Reading a mail is synchronous CPU work of a few milliseconds (MIME,
 * HTML, templates, extraction); done on the thread that serves requests it queues every other
 * request behind it and uses one core of the machine. A pool of reader workers
 * (`EMAIL_READERS`, reader_worker.ts) reads on other cores, and bounds the wall time of one
 * reading: a worker that takes longer than the limit is stopped and replaced, and the message is
 * `unreadable` (stored and logged like any unreadable message, never lost).
 */
import type { Logger } from "../../lib/log.ts";
import type { CompiledTemplate } from "./custom.ts";
import { type EmailReading, readEmail, unreadableEmail } from "./read.ts";
import type { ReadRequest } from "./reader_worker.ts";
import { annotate, tracingOn, withSpan } from "../../lib/tracing.ts";

export interface EmailReader {
  /** Reads one message with the workspace's templates. Never throws. */
  read(raw: Uint8Array, now: number, templates?: CompiledTemplate[]): Promise<EmailReading>;
  /** Stops the workers; what they had not finished is read on the calling thread. */
  close(): void;
  /** Workers running, how many of them are reading, and messages waiting for one. */
  stats(): ReaderStats;
}

export interface ReaderStats {
  workers: number;
  busy: number;
  waiting: number;
}

/** Reads on the calling thread (`EMAIL_READERS=0`, and where workers are not available). */
export const inProcessReader: EmailReader = {
  read: (raw, now, templates) => readEmail(raw, { now, customTemplates: templates }),
  close() {},
  stats: () => ({ workers: 0, busy: 0, waiting: 0 }),
};

/** Reads a message the user asked to make into an order: the order rule's refusals are waived. */
export const asOrderReader: EmailReader = {
  ...inProcessReader,
  read: (raw, now, templates) => readEmail(raw, { now, customTemplates: templates, asOrder: true }),
};

interface Job {
  raw: Uint8Array;
  now: number;
  templates: CompiledTemplate[];
  resolve(read: EmailReading): void;
}

/** One worker and the job it is reading (one at a time, so a limit applies to one message). */
class Reader {
  readonly #worker: Worker;
  #job: { id: number; job: Job; timer: ReturnType<typeof setTimeout> } | null = null;
  #ids = 0;

  constructor(private readonly pool: ReaderPool) {
    this.#worker = new Worker(new URL("./reader_worker.ts", import.meta.url), { type: "module" });
    this.#worker.onmessage = ({ data }: MessageEvent<{ id: number; read: EmailReading }>) => {
      const current = this.#job;
      if (!current || current.id !== data.id) return;
      clearTimeout(current.timer);
      this.#job = null;
      current.job.resolve(data.read);
      this.pool.idle();
    };
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.fail(`unreadable: the reader stopped (${event.message})`);
    };
  }

  get busy(): boolean {
    return this.#job !== null;
  }

  start(job: Job, timeoutMs: number) {
    const id = ++this.#ids;
    const timer = setTimeout(
      () => this.fail(`unreadable: reading took longer than ${timeoutMs} ms`),
      timeoutMs,
    );
    this.#job = { id, job, timer };
    const { raw, now, templates } = job;
    // Compiled expressions do not cross to a worker: their definitions do.
    const sources = templates.map((t) => t.source);
    this.#worker.postMessage({ id, raw, now, templates: sources } satisfies ReadRequest);
  }

  /** Ends the reader: its job becomes an unreadable reading, and the pool replaces it. */
  fail(why: string) {
    this.#worker.terminate();
    const current = this.#job;
    this.#job = null;
    if (current) {
      clearTimeout(current.timer);
      unreadableEmail(current.job.raw, why).then(current.job.resolve);
    }
    this.pool.replace(this, why);
  }

  /** Stops the worker; returns the job it was reading, unfinished. */
  stop(): Job | null {
    const current = this.#job;
    this.#job = null;
    if (current) clearTimeout(current.timer);
    this.#worker.terminate();
    return current?.job ?? null;
  }
}

export interface ReaderPoolOptions {
  size: number;
  /** Longest one reading may take (wall time, from when its worker gets it). */
  timeoutMs: number;
  log: Logger;
}

/** `size` reader workers, started on first use; messages wait their turn in arrival order. */
export class ReaderPool implements EmailReader {
  #readers: Reader[] = [];
  #waiting: Job[] = [];
  #closed = false;

  constructor(private readonly options: ReaderPoolOptions) {}

  read(raw: Uint8Array, now: number, templates: CompiledTemplate[] = []): Promise<EmailReading> {
    if (this.#closed) return inProcessReader.read(raw, now, templates);
    return new Promise((resolve) => {
      this.#waiting.push({ raw, now, templates, resolve });
      this.#next();
    });
  }

  close(): void {
    this.#closed = true;
    const unfinished = this.#readers.flatMap((reader) => reader.stop() ?? []);
    this.#readers = [];
    // What no worker finished is read here instead.
    for (const { raw, now, templates, resolve } of [...unfinished, ...this.#waiting.splice(0)]) {
      inProcessReader.read(raw, now, templates).then(resolve);
    }
  }

  stats(): ReaderStats {
    return {
      workers: this.#readers.length,
      busy: this.#readers.filter((r) => r.busy).length,
      waiting: this.#waiting.length,
    };
  }

  /** A reader finished its job. */
  idle() {
    this.#next();
  }

  /** A reader was stopped (too slow, or it failed): another takes its place. */
  replace(reader: Reader, why: string) {
    this.#readers = this.#readers.filter((r) => r !== reader);
    this.options.log.warn("email reader replaced", { why });
    this.#next();
  }

  #next() {
    while (this.#waiting.length && !this.#closed) {
      let reader = this.#readers.find((r) => !r.busy);
      if (!reader && this.#readers.length < this.options.size) {
        reader = new Reader(this);
        this.#readers.push(reader);
      }
      if (!reader) return;
      reader.start(this.#waiting.shift()!, this.options.timeoutMs);
    }
  }
}

/** The reader for `size` workers: in process when 0. */
export function createEmailReader(options: ReaderPoolOptions): EmailReader {
  const reader = options.size > 0 ? new ReaderPool(options) : inProcessReader;
  return tracingOn() ? traced(reader, options.size > 0 ? "worker" : "in-process") : reader;
}

/** Each reading in an `email.read` span (size and what it read as; never the content). */
function traced(reader: EmailReader, where: string): EmailReader {
  return {
    read: (raw, now, templates) =>
      withSpan("email.read", { "email.bytes": raw.byteLength, "email.reader": where }, async () => {
        const read = await reader.read(raw, now, templates);
        annotate({ "email.reading": read.reading.kind });
        return read;
      }),
    close: () => reader.close(),
    stats: () => reader.stats(),
  };
}
