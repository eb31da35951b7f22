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

/** A failure of the backup in one line: which path, and why. */
export class BackupError extends Error {}

/** Writes a consistent copy of the SQLite database at `source` to `target` (a new file). */
export async function backupKvFile(source: string, target: string): Promise<void> {
  if (exists(target)) {
    throw new BackupError(`${target}: exists already; a backup goes to a new file`);
  }
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(source);
  } catch (err) {
    throw new BackupError(`${source}: ${reasonOf(err)}`);
  }
  if (!info.isFile) throw new BackupError(`${source}: not a file (give the KV file's path)`);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(source, { readOnly: true });
  } catch (err) {
    throw new BackupError(`${source}: ${reasonOf(err)}`);
  }
  try {
    // All pages in one step (-1): a step by step copy starts over whenever another
    // connection writes between two steps, and might never finish under load.
    await backup(db, target, { rate: -1 });
  } catch (err) {
    // Nothing half-written is left behind to be mistaken for a backup.
    if (exists(target)) Deno.removeSync(target);
    const reason = reasonOf(err);
    throw new BackupError(
      /not a database/i.test(reason)
        ? `${source}: not a Deno KV (SQLite) file`
        : /unable to open/i.test(reason)
        ? `${target}: cannot be created (does its folder exist, and may this user write there?)`
        : `${target}: ${reason}`,
    );
  } finally {
    db.close();
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** "no such file", "permission denied", ... without the stack. */
function reasonOf(err: unknown): string {
  if (err instanceof Deno.errors.NotFound) return "no such file";
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^(unable to open database file|[\w ]+error):?\s*/i, "").split("\n")[0] ||
    message.split("\n")[0];
}

if (import.meta.main) {
  const [source, target] = Deno.args;
  if (!source || !target) {
    console.error("usage: deno task backup <kv file> <copy>");
    Deno.exit(2);
  }
  try {
    await backupKvFile(source, target);
  } catch (err) {
    console.error(`backup failed: ${err instanceof BackupError ? err.message : reasonOf(err)}`);
    Deno.exit(1);
  }
  console.log(`backed up ${source} to ${target}`);
}
