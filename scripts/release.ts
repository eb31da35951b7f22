/**
 * `deno task release`: the compile task's binary for every platform (`--target`), named with the
 * version (`order-tracker-<version>-<target>`, `.exe` on Windows), into dist/release/ with a
 * `SHA256SUMS` file (`sha256sum -c SHA256SUMS` checks them). Needs each target's runtime from
 * dl.deno.land (see README, One executable).
 */
import { join } from "node:path";
import { compileTask, ROOT } from "./compile_files.ts";

export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

export const RELEASE_DIR = "dist/release";

/** The file name of one target's binary. */
export function binaryName(version: string, target: string): string {
  return `order-tracker-${version}-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** `deno compile` arguments for one target: the compile task's, with its own output. */
export function compileArgs(target: string, output: string, root = ROOT): string[] {
  const task = compileTask(root);
  const flags = task.flags.filter((f, i, all) =>
    f !== "--output" && all[i - 1] !== "--output" && f !== "-o" && all[i - 1] !== "-o"
  );
  return ["compile", ...flags, "--target", target, "--output", output, task.entry];
}

/** `<sha256>  <name>` lines, as sha256sum writes them, for the files in `dir`. */
export async function sumsOf(dir: string, names: string[]): Promise<string> {
  const lines = [];
  for (const name of names) {
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(join(dir, name)));
    lines.push(`${new Uint8Array(digest).toHex()}  ${name}`);
  }
  return lines.join("\n") + "\n";
}

if (import.meta.main) {
  const version = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).version;
  const dir = join(ROOT, RELEASE_DIR);
  await Deno.mkdir(dir, { recursive: true });
  const names = [];
  for (const target of TARGETS) {
    const name = binaryName(version, target);
    console.log(`release: ${name}`);
    const out = await new Deno.Command(Deno.execPath(), {
      args: compileArgs(target, join(RELEASE_DIR, name)),
      cwd: ROOT,
    }).output();
    if (!out.success) {
      console.error(`release: deno compile --target ${target} failed`);
      Deno.exit(1);
    }
    names.push(name);
  }
  await Deno.writeTextFile(join(dir, "SHA256SUMS"), await sumsOf(dir, names));
  console.log(`release: ${names.length} binaries and SHA256SUMS in ${RELEASE_DIR}/`);
}
