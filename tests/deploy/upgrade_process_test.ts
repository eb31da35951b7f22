/**
 * The data layout at start, as an operator sees it: main.ts on a 0.1.0 store runs the
 * migrations before it listens (each logged with its counts and duration) and healthz reports
 * the layout current; main.ts on a store with a newer layout refuses to start with exit 78 and
 * a log line naming both versions and the backup to restore, having written nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeLegacyStore } from "../../scripts/legacy_fixture.ts";
import { runToExit, startService } from "../../scripts/service.ts";
import { keys } from "../../src/store/keys.ts";
import { LAYOUT_VERSION } from "../../src/store/migrations/index.ts";
import { LAYOUT_REFUSED_EXIT } from "../../src/upgrade.ts";
import { VERSION } from "../../src/version.ts";

const lines = (out: string[]) =>
  out.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);

Deno.test("main.ts on a 0.1.0 store migrates before listening; healthz shows the layout current", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = join(dir, "kv.sqlite3");
  const kv = await Deno.openKv(kvPath);
  await writeLegacyStore(kv);
  kv.close();
  const service = await startService({ env: { KV_PATH: kvPath, LOG_LEVEL: "info" } });
  try {
    const health = await (await fetch(`${service.url}/api/healthz`)).json();
    assert.equal(health.version, VERSION);
    assert.deepEqual(health.layout, { version: LAYOUT_VERSION, pending: 0 });
    const log = lines(service.stdout);
    const msgs = log.map((l) => l.msg);
    const done = log.filter((l) => l.msg === "migration done");
    assert.deepEqual(done.map((l) => l.migration), [
      "tracking-index",
      "leaderboard-members",
      "shipped-at",
      "search-index",
    ]);
    assert.ok(done.every((l) => typeof l.ms === "number"));
    assert.deepEqual([done[0].orders, done[1].accounts, done[1].added], [384, 2, 1]);
    assert.ok(msgs.indexOf("data layout") < msgs.indexOf("listening"));
    const layout = log.find((l) => l.msg === "data layout")!;
    assert.deepEqual([layout.release, layout.layout], [VERSION, LAYOUT_VERSION]);
  } finally {
    const exit = await service.stop();
    assert.equal(exit.code, 0);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts on a newer layout refuses to start (exit 78) naming both versions", async () => {
  const dir = await Deno.makeTempDir();
  const kvPath = join(dir, "kv.sqlite3");
  const kv = await Deno.openKv(kvPath);
  const marker = { version: LAYOUT_VERSION + 1, migrations: [], release: "0.3.0", at: "" };
  await kv.set(keys.layout(), marker);
  kv.close();
  try {
    const exit = await runToExit({ env: { KV_PATH: kvPath, LOG_LEVEL: "info" } });
    assert.equal(exit.code, LAYOUT_REFUSED_EXIT);
    const refusal = lines(exit.stderr).find((l) => l.level === "error")!;
    assert.match(
      String(refusal.msg),
      new RegExp(
        `layout version ${LAYOUT_VERSION + 1} \\(written by release 0\\.3\\.0\\), newer than ` +
          `this release ${VERSION.replaceAll(".", "\\.")} knows \\(layout version ` +
          `${LAYOUT_VERSION}\\).*restore the backup taken before the upgrade`,
      ),
    );
    assert.ok(!lines(exit.stdout).some((l) => l.msg === "listening"));
    const after = await Deno.openKv(kvPath);
    assert.deepEqual((await after.get(keys.layout())).value, marker);
    assert.deepEqual(await Array.fromAsync(after.list({ prefix: keys.migrationCursors() })), []);
    after.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
