/**
 * The request thread's live heap: the app built in this process, `imports` bench mails posted
 * through `app.request` (16 at a time), then a full collection, then the heap that is left and
 * its largest strings (module sources, imported texts). V8 lets the old generation grow to a few
 * times this size before its next full collection, so the service's peak RSS follows it
 * (docs/benchmarks.md, "Email intake memory").
 *
 *   deno run -A --v8-flags=--expose-gc scripts/bench/live_heap.ts [imports=100]
 *
 * (`--expose-gc` is for the measurement only: the full collection before reading the heap.)
 */
import inspector from "node:inspector";
import v8 from "node:v8";
import { join } from "node:path";
import { createApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { createDeps, drainDeps } from "../../src/deps.ts";
import { openStore } from "../../src/store/kv.ts";
import { seedAccount } from "./context.ts";
import { benchMail } from "./mails.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");
const imports = Number(Deno.args[0] ?? 100);
const MiB = (bytes: number) => (bytes / 1048576).toFixed(1);

const dir = await Deno.makeTempDir({ prefix: "live-heap-" });
const config = loadConfig({ LOG_LEVEL: "error", ...Deno.env.toObject(), KV_PATH: join(dir, "kv") });
const { kv, persistence } = await openStore(config.kvPath);
let key = "";
await seedAccount(kv, (k) => key = k, "UTC", "live-heap@example.com");
const deps = createDeps({ kv, config, persistence });
const app = createApp(deps);
let next = 0;
await Promise.all(Array.from({ length: 16 }, async () => {
  while (next < imports) {
    const res = await app.request("/api/email/import", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ raw: benchMail(next++) }),
    });
    await res.body?.cancel();
  }
}));
gc();
console.log(
  `${imports} imports: live heap ${MiB(v8.getHeapStatistics().used_heap_size)} MiB ` +
    "after a full collection",
);

// The largest strings in a heap snapshot, by their first characters.
const session = new inspector.Session();
session.connect();
const chunks: string[] = [];
session.on("HeapProfiler.addHeapSnapshotChunk", (m) => chunks.push(m.params.chunk));
await new Promise((resolve) => session.post("HeapProfiler.takeHeapSnapshot", {}, resolve));
session.disconnect();
const snapshot = JSON.parse(chunks.join(""));
const fields: string[] = snapshot.snapshot.meta.node_fields;
const types: string[] = snapshot.snapshot.meta.node_types[0];
const [type, name, size] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
const large: [number, string][] = [];
for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
  const bytes = snapshot.nodes[i + size];
  if (types[snapshot.nodes[i + type]] !== "string" || bytes < 50_000) continue;
  large.push([bytes, String(snapshot.strings[snapshot.nodes[i + name]]).slice(0, 60)]);
}
for (const [bytes, head] of large.sort((a, b) => b[0] - a[0]).slice(0, 15)) {
  console.log(
    `${(bytes / 1024).toFixed(0).padStart(6)} KiB ${JSON.stringify(head.replace(/\s+/g, " "))}`,
  );
}
await drainDeps(deps);
kv.close();
await Deno.remove(dir, { recursive: true });
