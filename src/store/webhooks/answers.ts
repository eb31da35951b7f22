import type { AttemptMarker } from "../../domain/webhooks/attempt.ts";
import { keys } from "../keys.ts";
import { getManyChunked } from "../kv.ts";
import type { EventRef } from "./attempts.ts";
import type { WebhookLogEntry } from "./logs.ts";

/** What the journal keeps of an answered attempt: enough to record its outcome later. */
export interface NotedAnswer {
  userId: string;
  /** The attempt's log entry: its event, subscription, outcome and time. */
  entry: WebhookLogEntry;
}

/** A journal file is replaced once it holds this much (and removed once its notes settle). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/**
 * The sweep leaves a file alone while it was written this recently: its process may be alive.
 * An owner that has not written for half of this checks its file is still there.
 */
const IDLE_MS = 60 * 60 * 1000;

const pairOf = (eventId: string, subId: string) => `${eventId}\n${subId}`;
const encoder = new TextEncoder();

interface OwnFile {
  path: string;
  handle: Deno.FsFile;
  bytes: number;
  /** Notes of this file whose outcome is not yet committed. */
  pending: number;
  lastWrite: number;
}

/** Another process's file as last read: its notes by pair, valid while size and time hold. */
interface ReadFile {
  size: number;
  mtime: number;
  answers: Map<string, NotedAnswer>;
}

/**
 * Answers received whose outcome is not yet committed, in journal files beside a KV file
 * (`<KV_PATH>-answers/`). An outcome reaches KV one commit after the answer, and a commit under
 * load takes tens to hundreds of milliseconds: a process killed in that time left the pair
 * claimed without an outcome, and the restart sent it again although the receiver had
 * answered. Each answer is appended to this process's journal file as it is read (one write,
 * some microseconds; a finished write survives SIGKILL: it is in the kernel's page cache). A
 * file is removed once every note in it has its outcome committed. Whoever re-claims a pair
 * whose claimer died (another process, or this one after a restart) looks the pair up in the
 * files and records the noted outcome instead of sending again, so a crash re-sends only what
 * was on the wire. Every process on the KV file shares the folder. Without a KV file (`:memory:`, a remote KV, Deno Deploy) there is no
 * journal and nothing is noted.
 */
export class AnswerJournal {
  #own: OwnFile | null = null;
  /** This process's earlier files with notes still pending, by path. */
  readonly #rotated = new Map<string, OwnFile>();
  /** The file each pending note of this process is in, by pair. */
  readonly #noted = new Map<string, OwnFile>();
  readonly #read = new Map<string, ReadFile>();
  #closed = false;

  constructor(readonly dir: string | null, private readonly now: () => number = Date.now) {}

  /** Notes an answered attempt before its outcome is committed. Never throws. */
  note(event: EventRef, answer: NotedAnswer): void {
    if (!this.dir || this.#closed) return;
    try {
      const file = this.#file();
      const line = encoder.encode(JSON.stringify(answer) + "\n");
      for (let at = 0; at < line.length;) at += file.handle.writeSync(line.subarray(at));
      file.bytes += line.length;
      file.lastWrite = this.now();
      file.pending++;
      this.#noted.set(pairOf(event.id, answer.entry.subscriptionId), file);
    } catch {
      // Without the note, a crash before the commit sends the pair again: at least once.
    }
  }

  /** The pair's outcome is committed: its note is no longer needed. */
  settled(event: EventRef, subId: string): void {
    const pair = pairOf(event.id, subId);
    const file = this.#noted.get(pair);
    if (!file) return;
    this.#noted.delete(pair);
    if (--file.pending === 0 && file !== this.#own) {
      this.#rotated.delete(file.path);
      remove(file.path);
    }
  }

  /**
   * The answer noted for the pair by a claimer that died (another process, this one before a
   * restart, or an attempt here whose outcome failed to commit), if any.
   */
  recall(event: EventRef, subId: string): NotedAnswer | null {
    if (!this.dir) return null;
    const pair = pairOf(event.id, subId);
    try {
      for (const file of Deno.readDirSync(this.dir)) {
        if (!file.isFile) continue;
        const answer = this.#answers(`${this.dir}/${file.name}`)?.get(pair);
        if (answer && answer.userId === event.userId) return answer;
      }
    } catch {
      // No folder yet: nothing noted.
    }
    return null;
  }

  /**
   * Removes the files nobody will read again: idle for an hour, with every note's pair done (or
   * gone). Run at start-up.
   */
  async sweep(kv: Deno.Kv): Promise<number> {
    if (!this.dir) return 0;
    let removed = 0;
    try {
      for await (const file of Deno.readDir(this.dir)) {
        const path = `${this.dir}/${file.name}`;
        const stat = await Deno.stat(path).catch(() => null);
        if (!stat?.isFile || this.#ownPath(path)) continue;
        // A file written lately may belong to a process that is alive.
        if (this.now() - (stat.mtime?.getTime() ?? 0) < IDLE_MS) continue;
        const answers = [...(this.#answers(path)?.values() ?? [])];
        const markers = await getManyChunked<AttemptMarker | number>(
          kv,
          answers.map(({ userId, entry }) =>
            keys.webhookAttempt(userId, entry.eventId, entry.subscriptionId)
          ),
        );
        const waiting = markers.some(({ value }) =>
          value !== null && typeof value === "object" && value.state === "claimed"
        );
        if (waiting) continue;
        await Deno.remove(path).catch(() => {});
        this.#read.delete(path);
        removed++;
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    return removed;
  }

  /** Closes this process's file, and removes it when every note in it is settled. */
  close(): void {
    this.#closed = true;
    const own = this.#own;
    this.#own = null;
    if (own) {
      own.handle.close();
      if (own.pending === 0) remove(own.path);
    }
    this.#rotated.clear();
    this.#noted.clear();
  }

  #ownPath(path: string): boolean {
    return path === this.#own?.path || this.#rotated.has(path);
  }

  /**
   * This process's current file: a new one when it is full, or when a sweep removed it while
   * this process was idle. A file left with notes pending is removed once they settle.
   */
  #file(): OwnFile {
    let own = this.#own;
    const idle = own && this.now() - own.lastWrite > IDLE_MS / 2;
    if (own && (own.bytes >= MAX_FILE_BYTES || (idle && !exists(own.path)))) {
      own.handle.close();
      if (own.pending === 0) remove(own.path);
      else this.#rotated.set(own.path, own);
      own = null;
    }
    if (own) return own;
    Deno.mkdirSync(this.dir!, { recursive: true });
    const path = `${this.dir}/${this.now()}-${crypto.randomUUID()}.jsonl`;
    const handle = Deno.openSync(path, { append: true, create: true });
    return this.#own = { path, handle, bytes: 0, pending: 0, lastWrite: this.now() };
  }

  /** The notes of a file by pair, read again only when it changed; null when it is gone. */
  #answers(path: string): Map<string, NotedAnswer> | null {
    let size: number;
    let mtime: number;
    let text: string;
    try {
      const stat = Deno.statSync(path);
      size = stat.size;
      mtime = stat.mtime?.getTime() ?? 0;
      const known = this.#read.get(path);
      if (known && known.size === size && known.mtime === mtime) return known.answers;
      text = Deno.readTextFileSync(path);
    } catch {
      this.#read.delete(path);
      return null;
    }
    const answers = new Map<string, NotedAnswer>();
    for (const line of text.split("\n")) {
      try {
        const answer = JSON.parse(line) as NotedAnswer;
        const { eventId, subscriptionId } = answer.entry;
        if (typeof eventId === "string" && typeof subscriptionId === "string") {
          answers.set(pairOf(eventId, subscriptionId), answer);
        }
      } catch {
        // A line a kill cut short (or the empty one after the last) is no note.
      }
    }
    this.#read.set(path, { size, mtime, answers });
    return answers;
  }
}

function remove(path: string) {
  try {
    Deno.removeSync(path);
  } catch {
    // Gone already (a sweep), or left for the next sweep.
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}
