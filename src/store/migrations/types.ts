/**
 * The migration interface. A migration brings data written by earlier releases to what today's
 * code expects, in bounded batches: the runner (`run.ts`) calls `batch` again and again, saving
 * the returned cursor in KV after each one, so a process that dies or is evicted mid-way is
 * resumed by the next start where it stopped. A batch must be idempotent (it writes only what
 * is missing or wrong, each write checked against what it read): running a batch, or the whole
 * migration, twice changes nothing.
 */
import type { Logger } from "../../lib/log.ts";

/** Where the next batch starts (a key, or the parts of one); null before the first batch. */
export type Cursor = Deno.KvKeyPart[];

/** What a migration's batches may use. */
export interface MigrationContext {
  kv: Deno.Kv;
  now: () => number;
  log: Logger;
  /**
   * Commits `op` with the runner's lease checked (and extended). Resolves to the result (not
   * ok when one of the batch's own checks failed: read again and retry); throws when another
   * process took the lease over, which ends the run without saving the cursor.
   */
  commit(op: Deno.AtomicOperation): Promise<Deno.KvCommitResult | Deno.KvCommitError>;
  /** Records a record the batch could not read (logged with `why`, counted as `skipped`). */
  skip(key: Deno.KvKey, why: string): void;
}

export interface BatchResult {
  /** True when the migration is finished (nothing after this batch). */
  done: boolean;
  /** Where the next batch starts (null: from the start again); the cursor given, to redo it. */
  cursor: Cursor | null;
  /** What the batch did, by name (`orders`, `added`, ...); summed into the migration's log. */
  counts: Record<string, number>;
}

export interface Migration {
  /** Stable and unique forever (stored in the layout marker): `kebab-case`, never reused. */
  id: string;
  /** One line for the start-up log and healthz readers: what it changes for old data. */
  description: string;
  /** One bounded batch from `cursor` (null: the start). */
  batch(ctx: MigrationContext, cursor: Cursor | null): Promise<BatchResult>;
}
