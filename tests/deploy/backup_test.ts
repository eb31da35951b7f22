/**
 * `deno task backup` (scripts/backup.ts) copies the SQLite KV file while another connection
 * keeps committing: every copy holds whole commits only (each commit adds an item and bumps a
 * counter: in a copy they agree), and it opens as a KV file.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { backupKvFile } from "../../scripts/backup.ts";
import { commit, readCounter } from "../../src/store/kv.ts";

Deno.test("a backup taken under writes is a consistent KV file", async () => {
  const dir = await Deno.makeTempDir();
  const source = join(dir, "kv.sqlite3");
  const kv = await Deno.openKv(source);
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      await commit(
        kv.atomic().set(["item", i], "x".repeat(500)).sum(["items"], 1n),
      );
    }
  })();
  try {
    const counts: number[] = [];
    for (let n = 0; n < 3; n++) {
      await new Promise((r) => setTimeout(r, 150));
      const copy = join(dir, `copy-${n}.sqlite3`);
      await backupKvFile(source, copy);
      const restored = await Deno.openKv(copy);
      try {
        const items = (await Array.fromAsync(restored.list({ prefix: ["item"] }))).length;
        assert.equal(await readCounter(restored, ["items"]), items);
        counts.push(items);
      } finally {
        restored.close();
      }
    }
    assert.ok(counts[0] > 0 && counts[2] > counts[0], `copies held ${counts}`);
    await assert.rejects(backupKvFile(source, join(dir, "copy-0.sqlite3")), /exists/);
  } finally {
    writing = false;
    await writer;
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A KV file with one entry in a fresh folder. */
async function kvFile(): Promise<{ dir: string; source: string }> {
  const dir = await Deno.makeTempDir();
  const source = join(dir, "kv.sqlite3");
  const kv = await Deno.openKv(source);
  await kv.set(["a"], 1);
  kv.close();
  return { dir, source };
}

Deno.test("deno task backup needs only read and write permissions", async () => {
  const { dir, source } = await kvFile();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "backup", source, join(dir, "copy.sqlite3")],
      cwd: new URL("../../", import.meta.url),
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const copy = await Deno.openKv(join(dir, "copy.sqlite3"));
    assert.equal((await copy.get(["a"])).value, 1);
    copy.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task backup fails in one line naming the path and the reason", async () => {
  const { dir, source } = await kvFile();
  try {
    const notKv = join(dir, "notes.txt");
    await Deno.writeTextFile(notKv, "not a database");
    const cases: [string[], string][] = [
      [
        [join(dir, "missing.sqlite3"), join(dir, "a.sqlite3")],
        `${join(dir, "missing.sqlite3")}: no such file`,
      ],
      [[notKv, join(dir, "b.sqlite3")], `${notKv}: not a Deno KV (SQLite) file`],
      [[dir, join(dir, "c.sqlite3")], `${dir}: not a file (give the KV file's path)`],
      [[source, notKv], `${notKv}: exists already; a backup goes to a new file`],
      [
        [source, join(dir, "no", "d.sqlite3")],
        `${
          join(dir, "no", "d.sqlite3")
        }: cannot be created (does its folder exist, and may this user write there?)`,
      ],
    ];
    for (const [args, line] of cases) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-read", "--allow-write", "scripts/backup.ts", ...args],
        cwd: new URL("../../", import.meta.url),
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 1);
      assert.equal(new TextDecoder().decode(out.stderr), `backup failed: ${line}\n`);
    }
    // Nothing half-written is left for a failed copy.
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => /^[a-d]\.sqlite3/.test(n)),
      [],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
