/**
 * What `deno task compile` puts in the binary, read from the task itself (deno.json is the one
 * source of truth): its entry point, its `--include`s (each file or folder, and the module graph
 * of every included module, as `deno compile` makes them roots), every local module the entry's
 * graph imports, and deno.json and deno.lock. Used by the test that runs the service from exactly
 * these files (tests/binary/file_set_test.ts), and by the release build.
 */
import { join, relative } from "node:path";

export const ROOT = new URL("../", import.meta.url).pathname;

export interface CompileTask {
  /** The flags before the entry point, as given (permissions, `--include`, `--output`). */
  flags: string[];
  /** `--allow-*` flags: what the binary may do. */
  permissions: string[];
  /** `--v8-flags=...`: how the binary's JavaScript engine runs (its heap's young generation). */
  v8Flags: string[];
  includes: string[];
  output: string;
  entry: string;
}

/** The `compile` task of deno.json, split into its parts. */
export function compileTask(root = ROOT): CompileTask {
  const config = JSON.parse(Deno.readTextFileSync(join(root, "deno.json")));
  const words = String(config.tasks.compile).trim().split(/\s+/);
  if (words[0] !== "deno" || words[1] !== "compile") {
    throw new Error(`the compile task does not run deno compile: ${config.tasks.compile}`);
  }
  const args = words.slice(2);
  const entry = args.at(-1)!;
  const flags = args.slice(0, -1);
  const valuesOf = (flag: string) =>
    flags.flatMap((f, i) =>
      f === flag ? [flags[i + 1]] : f.startsWith(`${flag}=`) ? [f.slice(flag.length + 1)] : []
    );
  return {
    flags,
    permissions: flags.filter((f) => f.startsWith("--allow-")),
    v8Flags: flags.filter((f) => f.startsWith("--v8-flags=")),
    includes: valuesOf("--include"),
    output: valuesOf("--output")[0] ?? valuesOf("-o")[0],
    entry,
  };
}

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string } }[];
}

/**
 * The local files a module's code imports, itself included (`deno info`), relative to `root`.
 * Type-only imports are left out: they are checked at compile time, not embedded.
 */
async function graphFiles(root: string, module: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", module],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno info ${module}: ${new TextDecoder().decode(out.stderr)}`);
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
    redirects: Record<string, string>;
  };
  const byUrl = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const walk = (url: string) => {
    url = info.redirects[url] ?? url;
    if (!url.startsWith("file://") || seen.has(url)) return;
    seen.add(url);
    for (const dep of byUrl.get(url)?.dependencies ?? []) if (dep.code) walk(dep.code.specifier);
  };
  info.roots.forEach(walk);
  return [...seen].map((url) => relative(root, new URL(url).pathname));
}

function filesUnder(root: string, path: string): string[] {
  const info = Deno.statSync(join(root, path));
  if (!info.isDirectory) return [path];
  return [...Deno.readDirSync(join(root, path))]
    .flatMap((e) => filesUnder(root, join(path, e.name)));
}

/** Every file the compile task embeds, relative to `root`, sorted. */
export async function compileFiles(root = ROOT): Promise<string[]> {
  const task = compileTask(root);
  const files = new Set(["deno.json", "deno.lock", task.entry]);
  for (const include of task.includes) for (const f of filesUnder(root, include)) files.add(f);
  // `deno compile` builds the graph of the entry and of each module included by name.
  const roots = [task.entry, ...task.includes.filter((f) => /\.(ts|js)$/.test(f))];
  for (const module of roots) for (const f of await graphFiles(root, module)) files.add(f);
  return [...files].sort();
}

/** Copies `files` from `root` into `dir`, keeping their paths. */
export async function copyFiles(files: string[], dir: string, root = ROOT): Promise<void> {
  for (const file of files) {
    await Deno.mkdir(join(dir, file, ".."), { recursive: true });
    await Deno.copyFile(join(root, file), join(dir, file));
  }
}
