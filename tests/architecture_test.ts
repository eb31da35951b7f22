/**
 * The house rules of docs/architecture.md, checked on the source: dependencies point down, and
 * no module imports itself back through others (type-only imports included), and every KV write
 * goes through the one commit helper.
 */
import { equal } from "node:assert/strict";
import { dirname, join, relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^"']*?\s+from\s+)?["'](\.[^"']+)["']/gm;

/** Every module under src/ with the local modules it imports (relative to the repo). */
async function graph(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(join(ROOT, dir))) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (path.endsWith(".ts")) {
        const text = await Deno.readTextFile(join(ROOT, path));
        const deps = [...text.matchAll(IMPORT)].map((m) =>
          relative(ROOT, join(ROOT, dirname(path), m[1]))
        );
        out.set(path, deps);
      }
    }
  };
  await walk("src");
  return out;
}

/** Folders below HTTP: none of them may reach up into http/ or routes/. */
const BELOW_HTTP = [
  "domain",
  "store",
  "net",
  "events",
  "webhooks",
  "jobs",
  "intake",
  "chat",
  "tracking",
  "vendors",
  "lib",
];
const folderOf = (path: string) => path.split("/")[1];

Deno.test("nothing below HTTP imports http/ or routes/", async () => {
  const upward: string[] = [];
  for (const [from, deps] of await graph()) {
    if (!BELOW_HTTP.includes(folderOf(from))) continue;
    for (const to of deps) {
      if (["http", "routes"].includes(folderOf(to))) upward.push(`${from} -> ${to}`);
    }
  }
  equal(upward.join("\n"), "");
});

Deno.test("domain/ imports only domain/ and lib/ (pure rules, no I/O)", async () => {
  const wrong: string[] = [];
  for (const [from, deps] of await graph()) {
    if (folderOf(from) !== "domain") continue;
    for (const to of deps) {
      if (!["domain", "lib"].includes(folderOf(to))) wrong.push(`${from} -> ${to}`);
    }
  }
  equal(wrong.join("\n"), "");
});

Deno.test("no import cycles, type-only imports included", async () => {
  const edges = await graph();
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === "open") {
        cycles.push([...stack.slice(stack.indexOf(next)), next].join(" -> "));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  equal(cycles.join("\n"), "");
});

Deno.test("every KV write goes through commit() (it retries a file locked by another process)", async () => {
  const direct: string[] = [];
  const WRITE = /\.commit\(\)|\bkv\.(?:set|delete|enqueue)\(/g;
  for (const path of (await graph()).keys()) {
    if (path === "src/store/kv.ts") continue;
    const text = await Deno.readTextFile(join(ROOT, path));
    for (const m of text.matchAll(WRITE)) direct.push(`${path}: ${m[0]}`);
  }
  equal(direct.join("\n"), "");
});
