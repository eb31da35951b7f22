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

/**
 * What each layer below HTTP may import besides itself: `lib/` and `config.ts` are leaves, the
 * rules are pure, the store knows KV and nothing above it, the event path writes through the
 * store (the store commits events through its own `EventCommitter`, never `events/`).
 */
const MAY_IMPORT: Record<string, string[]> = {
  "lib": [],
  "config.ts": ["lib"],
  "errors.ts": [],
  "domain": ["lib"],
  "store": ["domain", "lib", "config.ts", "errors.ts"],
  "net": ["lib", "errors.ts"],
  "events": ["store", "domain", "lib"],
  "vendors": ["domain", "lib", "config.ts", "errors.ts", "net"],
};

for (const [layer, allowed] of Object.entries(MAY_IMPORT)) {
  const may = allowed.length ? `only ${allowed.join(", ")}` : "nothing else of the project";
  Deno.test(`${layer} imports ${may}`, async () => {
    const wrong: string[] = [];
    for (const [from, deps] of await graph()) {
      if (folderOf(from) !== layer) continue;
      for (const to of deps) {
        const target = folderOf(to);
        if (target !== layer && !allowed.includes(target)) wrong.push(`${from} -> ${to}`);
      }
    }
    equal(wrong.join("\n"), "");
  });
}

Deno.test("wings below HTTP take narrow dependency types of their own, never AppDeps (deps.ts)", async () => {
  const wide: string[] = [];
  for (const [from, deps] of await graph()) {
    if (!BELOW_HTTP.includes(folderOf(from))) continue;
    for (const to of deps) {
      if (["deps.ts", "app.ts"].includes(folderOf(to))) wide.push(`${from} -> ${to}`);
    }
  }
  equal(wide.join("\n"), "");
});

Deno.test("http/ knows no reader (intake/email/, intake/chat/): routes pass what it needs", async () => {
  const wrong: string[] = [];
  for (const [from, deps] of await graph()) {
    if (folderOf(from) !== "http") continue;
    for (const to of deps) {
      if (/^src\/intake\/(email|chat)\//.test(to)) wrong.push(`${from} -> ${to}`);
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
