import assert from "node:assert/strict";
import { binaryName, compileArgs, sumsOf, TARGETS } from "../../scripts/release.ts";
import { compileTask } from "../../scripts/compile_files.ts";

Deno.test("release: each target compiles with the compile task's flags, named with the version", () => {
  const task = compileTask();
  assert.equal(TARGETS.length, 5);
  const args = compileArgs("aarch64-unknown-linux-gnu", "dist/release/x");
  assert.deepEqual(args.slice(-5), [
    "--target",
    "aarch64-unknown-linux-gnu",
    "--output",
    "dist/release/x",
    task.entry,
  ]);
  // Every flag of the task but its own output.
  for (const include of task.includes) assert.ok(args.includes(include), include);
  for (const permission of task.permissions) assert.ok(args.includes(permission), permission);
  assert.ok(!args.includes(task.output));
  assert.equal(
    binaryName("1.2.3", "x86_64-pc-windows-msvc"),
    "order-tracker-1.2.3-x86_64-pc-windows-msvc.exe",
  );
  assert.equal(
    binaryName("1.2.3", "aarch64-apple-darwin"),
    "order-tracker-1.2.3-aarch64-apple-darwin",
  );
});

Deno.test("release: SHA256SUMS is what sha256sum -c checks", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a-bin`, "first");
    await Deno.writeFile(`${dir}/b.exe`, new Uint8Array([0, 1, 2, 255]));
    await Deno.writeTextFile(`${dir}/SHA256SUMS`, await sumsOf(dir, ["a-bin", "b.exe"]));
    const check = () =>
      new Deno.Command("sha256sum", { args: ["-c", "SHA256SUMS"], cwd: dir, stdout: "piped" })
        .output();
    const ok = await check();
    assert.equal(ok.code, 0);
    assert.equal(new TextDecoder().decode(ok.stdout), "a-bin: OK\nb.exe: OK\n");
    await Deno.writeTextFile(`${dir}/a-bin`, "changed");
    assert.equal((await check()).code, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
