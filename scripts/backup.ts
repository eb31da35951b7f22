/**
 * `deno task backup <kv file> <copy>`: a consistent copy of the service's SQLite KV file while
 * the service runs. SQLite's online backup copies every page in one step, inside one read
 * transaction (the write-ahead log included), so the copy holds every commit made before it
 * started and none after, while other processes keep writing. Copying the file with `cp`
 * instead can miss the commits still in `<file>-wal` or catch one half-written.
 * The copy is a KV file like the original: start the service on it to restore. The secrets key
 * (`secrets.key` beside the KV file, or `SECRETS_KEY`) is not in it: keep that too.
 */
import { backup, DatabaseSync } from "node:sqlite";

/** Writes a consistent copy of the SQLite database at `source` to `target` (a new file). */
export async function backupKvFile(source: string, target: string): Promise<void> {
  try {
    Deno.statSync(target);
    throw new Error(`${target} exists; a backup goes to a new file`);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    // All pages in one step (-1): a step by step copy starts over whenever another
    // connection writes between two steps, and might never finish under load.
    await backup(db, target, { rate: -1 });
  } finally {
    db.close();
  }
}

if (import.meta.main) {
  const [source, target] = Deno.args;
  if (!source || !target) {
    console.error("usage: deno task backup <kv file> <copy>");
    Deno.exit(2);
  }
  await backupKvFile(source, target);
  console.log(`backed up ${source} to ${target}`);
}
