import type { AttemptMarker } from "../domain/webhook_attempt.ts";
import { keys } from "./keys.ts";
import { ATTEMPT_MARKER_TTL_MS, type EventRef } from "./webhook_attempts.ts";
import type { WebhookLogEntry } from "./webhook_logs.ts";

/** What the journal keeps of an answered attempt: enough to record its outcome later. */
export interface NotedAnswer {
  userId: string;
  /** The attempt's log entry: its event, subscription, outcome and time. */
  entry: WebhookLogEntry;
}

/** Ids that can be part of a file name as they are (ours always can). */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * Answers received whose outcome is not yet committed, one small file per pair beside a KV file
 * (`<KV_PATH>-answers/`). An outcome reaches KV one commit after the answer, and a commit under
 * load takes tens to hundreds of milliseconds: a process killed in that time would leave the
 * pair claimed without an outcome, and the restart would send it again although the receiver
 * had answered. The answer is written here first, synchronously as it is read (a finished
 * write survives SIGKILL: it is in the kernel's page cache), and removed once the outcome is
 * committed. Whoever re-claims a pair whose claimer died records the noted outcome instead of
 * sending again, so a crash re-sends only what was on the wire. Every process on the KV file
 * shares the folder. Without a KV file (`:memory:`, a remote KV, Deno Deploy) there is no
 * journal and nothing is noted.
 */
export class AnswerJournal {
  #ready = false;

  constructor(readonly dir: string | null) {}

  #path(event: EventRef, subId: string): string | null {
    if (!this.dir || !SAFE_ID.test(event.id) || !SAFE_ID.test(subId)) return null;
    return `${this.dir}/${event.id}.${subId}.json`;
  }

  /** Notes an answered attempt before its outcome is committed. Never throws. */
  note(event: EventRef, answer: NotedAnswer): void {
    const path = this.#path(event, answer.entry.subscriptionId);
    if (!path) return;
    try {
      if (!this.#ready) Deno.mkdirSync(this.dir!, { recursive: true });
      this.#ready = true;
      Deno.writeTextFileSync(path, JSON.stringify(answer));
    } catch {
      // Without the note, a crash before the commit sends the pair again: at least once.
    }
  }

  /** The answer noted for the pair, if any (a note cut short by a crash counts as none). */
  recall(event: EventRef, subId: string): NotedAnswer | null {
    const path = this.#path(event, subId);
    if (!path) return null;
    try {
      const answer = JSON.parse(Deno.readTextFileSync(path)) as NotedAnswer;
      const fits = answer.userId === event.userId && answer.entry?.eventId === event.id &&
        answer.entry.subscriptionId === subId;
      return fits ? answer : null;
    } catch {
      return null;
    }
  }

  /** The pair's outcome is committed: its note goes. */
  forget(event: EventRef, subId: string): void {
    const path = this.#path(event, subId);
    if (!path) return;
    try {
      Deno.removeSync(path);
    } catch {
      // Gone already, or left for the sweep.
    }
  }

  /**
   * Removes the notes nobody will recall: of pairs that are done (the outcome was committed
   * and the process died before removing the note) or gone, and notes older than the markers'
   * lifetime. Run at start-up; at most `limit` notes are read.
   */
  async sweep(kv: Deno.Kv, now: number, limit = 10_000): Promise<number> {
    if (!this.dir) return 0;
    let removed = 0;
    let seen = 0;
    try {
      for await (const file of Deno.readDir(this.dir)) {
        if (!file.isFile || !file.name.endsWith(".json") || ++seen > limit) continue;
        const path = `${this.dir}/${file.name}`;
        const answer = await Deno.readTextFile(path).then(JSON.parse).catch(() => null) as
          | NotedAnswer
          | null;
        const marker = answer?.entry
          ? (await kv.get<AttemptMarker | number>(
            keys.webhookAttempt(answer.userId, answer.entry.eventId, answer.entry.subscriptionId),
          )).value
          : null;
        const stat = await Deno.stat(path).catch(() => null);
        const old = !stat?.mtime || now - stat.mtime.getTime() > ATTEMPT_MARKER_TTL_MS;
        const waiting = marker !== null && typeof marker === "object" &&
          marker.state === "claimed";
        if (old || !waiting) {
          await Deno.remove(path).catch(() => {});
          removed++;
        }
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    return removed;
  }
}
