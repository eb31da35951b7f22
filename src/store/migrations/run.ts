/**
 * Runs the pending migrations of the data layout at start, under a KV lease so that of several
 * instances on one store exactly one runs them while the others wait. The layout marker
 * (`["layout"]`, one key) holds the version (migrations applied, in list order) and their ids;
 * a store whose marker is newer than this release knows, or unreadable, is refused.
 */
import { ConflictError } from "../../errors.ts";
import type { Logger } from "../../lib/log.ts";
import { keys } from "../keys.ts";
import { type HeldLease, LeaseLostError, takeLease } from "../lease.ts";
import { MIGRATIONS } from "./index.ts";
import type { Cursor, Migration, MigrationContext } from "./types.ts";

/** The layout marker as stored. */
export interface LayoutMarker {
  version: number;
  /** Ids of the migrations applied, in order (`version` of them). */
  migrations: string[];
  /** The release that wrote the marker. */
  release: string;
  at: string;
}

/** A running migration's progress, saved after every batch. */
interface Progress {
  cursor: Cursor;
  counts: Record<string, number>;
  startedAt: string;
}

export interface MigrationReport {
  id: string;
  counts: Record<string, number>;
  ms: number;
}

export type LayoutOutcome =
  | { ok: true; version: number; ran: MigrationReport[] }
  | { ok: false; reason: "newer" | "unreadable" | "failed"; message: string };

export interface LayoutOptions {
  log: Logger;
  now: () => number;
  /** This release's version, written into the marker and named in refusals. */
  release: string;
  migrations?: readonly Migration[];
  /** How often a waiting instance looks again; how long the lease lasts without progress. */
  pollMs?: number;
  leaseMs?: number;
}

const LEASE = "layout-migrations";
/** Skipped records logged one by one per migration; the rest are only counted. */
const SKIPS_LOGGED = 20;
const WAIT_LOG_MS = 10_000;

const isMarker = (v: unknown): v is LayoutMarker =>
  typeof v === "object" && v !== null && Number.isSafeInteger((v as LayoutMarker).version) &&
  (v as LayoutMarker).version >= 0 && Array.isArray((v as LayoutMarker).migrations);

/** The store's layout version and how many of this release's migrations it still needs. */
export async function layoutState(
  kv: Deno.Kv,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<{ version: number; pending: number }> {
  const { value } = await kv.get(keys.layout());
  const version = isMarker(value) ? value.version : 0;
  return { version, pending: Math.max(0, migrations.length - version) };
}

/** Why this release must not run on a store with `value` as its marker, or null. */
function refusal(
  value: unknown,
  migrations: readonly Migration[],
  release: string,
): LayoutOutcome | null {
  const restore = "restore the backup taken before the upgrade (docs/deploy.md, Upgrading)";
  if (value === null) return null;
  if (!isMarker(value)) {
    return {
      ok: false,
      reason: "unreadable",
      message: `The data layout marker ["layout"] is unreadable (${
        JSON.stringify(value).slice(0, 200)
      }); refusing to start: ${restore}`,
    };
  }
  const known = migrations.length;
  const foreign = value.migrations.slice(0, known).findIndex((id, i) => id !== migrations[i].id);
  if (value.version > known || foreign >= 0) {
    return {
      ok: false,
      reason: "newer",
      message:
        `The data is at layout version ${value.version} (written by release ${
          value.release ?? "unknown"
        }), newer than this release ${release} knows (layout version ${known}); refusing to ` +
        `start so nothing is written in the older layout. Run release ${
          value.release ?? "that release"
        } or newer again, or ${restore} to run this one.`,
    };
  }
  return null;
}

/**
 * Brings the store to this release's layout: refuses a newer or unreadable marker, runs each
 * pending migration batch by batch (resuming a saved cursor), and waits while another process
 * holds the lease. Resolves once the layout is current (`ok`) or on a refusal.
 */
export async function migrateLayout(kv: Deno.Kv, options: LayoutOptions): Promise<LayoutOutcome> {
  const { log, now, release } = options;
  const migrations = options.migrations ?? MIGRATIONS;
  const ran: MigrationReport[] = [];
  let loggedWait = -Infinity;
  for (;;) {
    const marker = await kv.get<unknown>(keys.layout());
    const refused = refusal(marker.value, migrations, release);
    if (refused) return refused;
    const version = (marker.value as LayoutMarker | null)?.version ?? 0;
    if (version >= migrations.length) return { ok: true, version, ran };
    const lease = await takeLease(kv, LEASE, options.leaseMs ?? 30_000, now);
    if (!lease) {
      if (now() - loggedWait >= WAIT_LOG_MS) {
        loggedWait = now();
        log.info("waiting for another instance to migrate the data layout", {
          version,
          pending: migrations.slice(version).map((m) => m.id),
        });
      }
      await new Promise((r) => setTimeout(r, options.pollMs ?? 500));
      continue;
    }
    try {
      const failed = await runPending(kv, lease, marker, { ...options, migrations }, ran);
      if (failed) return failed;
    } catch (err) {
      if (!(err instanceof LeaseLostError)) throw err;
      log.warn("the layout lease was taken over; looking again", { lease: LEASE });
      continue;
    } finally {
      await lease.release();
    }
  }
}

type Options = LayoutOptions & { migrations: readonly Migration[] };

/** Runs the migrations after the marker's version; a failure outcome, or null when all ran. */
async function runPending(
  kv: Deno.Kv,
  lease: HeldLease,
  read: Deno.KvEntryMaybe<unknown>,
  options: Options,
  ran: MigrationReport[],
): Promise<LayoutOutcome | null> {
  let marker = read;
  const { migrations } = options;
  for (let i = (marker.value as LayoutMarker | null)?.version ?? 0; i < migrations.length; i++) {
    const result = await runOne(kv, lease, migrations[i], i, options);
    if ("failed" in result) return result.failed;
    const value: LayoutMarker = {
      version: i + 1,
      migrations: migrations.slice(0, i + 1).map((m) => m.id),
      release: options.release,
      at: new Date(options.now()).toISOString(),
    };
    // The marker moves only from what this run read: a second runner cannot skip a version.
    const done = await lease.commit(
      kv.atomic().check(marker).set(keys.layout(), value).delete(
        keys.migrationCursor(migrations[i].id),
      ),
    );
    if (!done.ok) return null;
    marker = { key: keys.layout(), value, versionstamp: done.versionstamp };
    ran.push(result.report);
    options.log.info("migration done", {
      migration: migrations[i].id,
      version: i + 1,
      ...result.report.counts,
      ms: result.report.ms,
    });
  }
  return null;
}

async function runOne(
  kv: Deno.Kv,
  lease: HeldLease,
  migration: Migration,
  index: number,
  { log, now, migrations }: Options,
): Promise<{ report: MigrationReport } | { failed: LayoutOutcome }> {
  const cursorKey = keys.migrationCursor(migration.id);
  const saved = (await kv.get<Progress>(cursorKey)).value;
  const counts: Record<string, number> = { ...saved?.counts };
  const startedAt = saved?.startedAt ?? new Date(now()).toISOString();
  let cursor: Cursor | null = saved?.cursor.length ? saved.cursor : null;
  const begun = performance.now();
  log.info(saved ? "migration resumed" : "migration started", {
    migration: migration.id,
    description: migration.description,
    step: `${index + 1} of ${migrations.length}`,
    ...(saved ? { cursor: saved.cursor, ...saved.counts } : {}),
  });
  const skipped = new Set<string>();
  const ctx: MigrationContext = {
    kv,
    now,
    log,
    commit: (op) => lease.commit(op),
    skip(key, why) {
      const id = JSON.stringify(key, (_, v) => typeof v === "bigint" ? String(v) : v);
      if (skipped.has(id)) return;
      skipped.add(id);
      counts.skipped = (counts.skipped ?? 0) + 1;
      if (skipped.size <= SKIPS_LOGGED) {
        log.warn("migration skipped a record", { migration: migration.id, key: id, why });
      }
    },
  };
  for (;;) {
    let result;
    try {
      result = await migration.batch(ctx, cursor);
    } catch (err) {
      // Lost lease, busy storage: not the data's fault; the caller looks again or retries.
      if (err instanceof LeaseLostError || err instanceof ConflictError) throw err;
      const message = `Migration ${migration.id} failed at ${JSON.stringify(cursor)}: ${
        err instanceof Error ? err.message : String(err)
      }; nothing after its last saved batch was written, and the next start resumes there.`;
      return { failed: { ok: false, reason: "failed", message } };
    }
    for (const [name, n] of Object.entries(result.counts)) counts[name] = (counts[name] ?? 0) + n;
    if (result.done) {
      return { report: { id: migration.id, counts, ms: Math.round(performance.now() - begun) } };
    }
    if (result.counts.conflicts) await new Promise((r) => setTimeout(r, 20));
    cursor = result.cursor;
    const progress: Progress = { cursor: cursor ?? [], counts, startedAt };
    await lease.commit(kv.atomic().set(cursorKey, progress));
  }
}
