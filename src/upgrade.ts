/**
 * The data layout at start (main.ts): pending migrations run before the service serves, and a
 * store this release must not touch (a newer layout, an unreadable marker, a failed migration)
 * ends the process with a clear log line and exit status 78, which a supervisor can be told not
 * to restart on (docs/deploy.md, Upgrading).
 */
import type { AppDeps } from "./deps.ts";
import { migrateLayout } from "./store/migrations/run.ts";
import { VERSION } from "./version.ts";

/** EX_CONFIG: the process cannot run with what it was given; restarting will not help. */
export const LAYOUT_REFUSED_EXIT = 78;

/** Migrates the store to this release's layout, or exits the process refusing to start. */
export async function upgradeLayout(deps: AppDeps): Promise<void> {
  const started = performance.now();
  let outcome;
  try {
    outcome = await migrateLayout(deps.kv, { log: deps.log, now: deps.now, release: VERSION });
  } catch (err) {
    // Storage failing (not the data): a later start may succeed, so not the refusal status.
    deps.log.error("the data layout could not be checked; storage failed", {
      error: err instanceof Error ? err.message : String(err),
      release: VERSION,
    });
    deps.kv.close();
    Deno.exit(1);
  }
  if (outcome.ok) {
    deps.log.info("data layout", {
      release: VERSION,
      layout: outcome.version,
      migrated: outcome.ran.map((m) => m.id),
      ms: Math.round(performance.now() - started),
    });
    return;
  }
  deps.log.error(outcome.message, { reason: outcome.reason, release: VERSION });
  deps.kv.close();
  Deno.exit(LAYOUT_REFUSED_EXIT);
}
