/**
 * The compiled binary's contents, without compiling (`deno compile` needs a runtime download):
 * the service runs from exactly the files `deno task compile` embeds, copied into an empty
 * folder, with the task's permissions, `--cached-only` and a working directory outside the
 * repository. A file the binary needs but the task leaves out fails a check here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { compileFiles, compileTask, copyFiles } from "../../scripts/compile_files.ts";
import { START_V8_FLAGS, startService } from "../../scripts/service.ts";
import { orderMail } from "../intake/helpers.ts";
import { checkService } from "../../scripts/binary_checks.ts";

Deno.test("binary file set: the service runs from the compile task's files alone", async () => {
  const task = compileTask();
  // The binary runs its engine as `deno task start` does (the young generation's size).
  assert.deepEqual(task.v8Flags, START_V8_FLAGS);
  assert.equal(task.v8Flags.length, 1);
  const files = await compileFiles();
  // The parts that break in compiled programs are in the set.
  for (const f of ["main.ts", "deno.lock", "src/intake/email/reader_worker.ts"]) {
    assert.ok(files.includes(f), f);
  }
  assert.ok(files.some((f) => f.startsWith("src/web/app/screens/")));
  const app = await Deno.makeTempDir({ prefix: "binary-files-" });
  const workdir = await Deno.makeTempDir({ prefix: "binary-cwd-" });
  await copyFiles(files, app);
  const service = await startService({
    command: [
      Deno.execPath(),
      "run",
      "--cached-only",
      ...task.v8Flags,
      ...task.permissions,
      join(app, task.entry),
    ],
    cwd: workdir,
    env: { EMAIL_READERS: "1", LOG_LEVEL: "info" },
    startTimeoutMs: 60_000,
  });
  try {
    await checkService(service.url, orderMail(5150));
  } finally {
    const report = await service.stop("SIGTERM");
    assert.equal(report.code, 0, report.stderr.join("\n"));
    await Deno.remove(app, { recursive: true });
  }
  // KV_PATH's default is relative to the working directory, never the program's folder.
  assert.ok((await Deno.stat(join(workdir, "data", "kv.sqlite3"))).isFile);
  await Deno.remove(workdir, { recursive: true });
});
