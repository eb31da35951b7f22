/**
 * The V8 CPU profile of a piece of work on this thread (`node:inspector`), and a summary of
 * where its time went: by source file (self time) and by function (total time, callees
 * included), in milliseconds per unit of work.
 */
import inspector from "node:inspector";

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

type Post = (method: string, params?: object) => Promise<unknown>;

/**
 * Runs `work` between `start` and `stop` on an inspector session of this thread: what `stop`
 * returns is the profile.
 */
async function underInspector<T>(
  work: () => Promise<void>,
  start: (post: Post) => Promise<void>,
  stop: (post: Post) => Promise<T>,
): Promise<T> {
  const session = new inspector.Session();
  session.connect();
  const post: Post = (method, params = {}) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(
        method,
        params,
        (err: Error | null, result: unknown) => err ? reject(err) : resolve(result),
      )
    );
  try {
    await start(post);
    let failed: unknown;
    try {
      await work();
    } catch (err) {
      failed = err;
    }
    // The profiler is stopped even when the work failed, then the failure goes on.
    const profile = await stop(post);
    if (failed !== undefined) throw failed;
    return profile;
  } finally {
    session.disconnect();
  }
}

/** Runs `work` under the profiler (sampling every 200 µs) and returns its profile. */
export function profiled(work: () => Promise<void>): Promise<CpuProfile> {
  return underInspector(work, async (post) => {
    await post("Profiler.enable");
    await post("Profiler.setSamplingInterval", { interval: 200 });
    await post("Profiler.start");
  }, async (post) => (await post("Profiler.stop") as { profile: CpuProfile }).profile);
}

const ROOT = new URL("../../", import.meta.url).href;

/** `src/intake/email/read.ts`, `npm:hono/...`, or the V8 category (`(garbage collector)`). */
function fileOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  if (url.startsWith(ROOT)) return url.slice(ROOT.length);
  const npm = /registry\.npmjs\.org\/([^/]+(?:\/[^/]+)?)\/[^/]+\/(.*)$/.exec(url);
  if (npm) return `npm:${npm[1].startsWith("@") ? npm[1] : npm[1].split("/")[0]}`;
  return url.replace(/^ext:/, "ext:");
}

/** The heaviest files (self time) and functions (total time), per unit of work. */
export function summary(profile: CpuProfile, units: number, top = 40): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  // Total time of a function: its subtrees, not counted again below a call of itself.
  const walk = (id: number, open: Set<string>): number => {
    const node = byId.get(id)!;
    const { url, functionName, lineNumber } = node.callFrame;
    const file = fileOf(url, functionName);
    const mine = self.get(id) ?? 0;
    files.set(file, (files.get(file) ?? 0) + mine);
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
    const outer = open.has(key);
    if (!outer) open.add(key);
    let sum = mine;
    for (const child of node.children ?? []) sum += walk(child, open);
    if (!outer) {
      open.delete(key);
      functions.set(key, (functions.get(key) ?? 0) + sum);
    }
    return sum;
  };
  walk(profile.nodes[0].id, new Set());
  const ms = (us: number) => (us / 1000 / units).toFixed(3).padStart(7);
  const pct = (us: number) => `${(us / total * 100).toFixed(1)}%`.padStart(6);
  const list = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${ms(v)} ${pct(v)}  ${k}`);
  return [
    `sampled ${ms(total)} ms per unit`,
    "self time by file (ms per unit):",
    ...list(files),
    "total time by function (ms per unit):",
    ...list(functions),
  ].join("\n");
}

export interface AllocationProfile {
  head: AllocationNode;
}

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/**
 * Runs `work` under V8's sampling heap profiler, counting every sampled allocation, garbage
 * included (what a piece of work allocates, not what it keeps); with `youngGarbage` false,
 * without what the young generation's collections freed: what lived long enough to be moved to
 * the old generation, where only a full collection frees it.
 */
export function allocationProfiled(
  work: () => Promise<void>,
  youngGarbage = true,
): Promise<AllocationProfile> {
  return underInspector(
    work,
    async (post) => {
      await post("HeapProfiler.enable");
      await post("HeapProfiler.startSampling", {
        samplingInterval: 8192,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: youngGarbage,
      });
    },
    async (post) =>
      (await post("HeapProfiler.stopSampling") as { profile: AllocationProfile }).profile,
  );
}

/** The functions that allocate most (their own allocations), in KiB per unit of work. */
export function allocationSummary(profile: AllocationProfile, units: number, top = 30): string {
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  const walk = (node: AllocationNode) => {
    const { url, functionName, lineNumber } = node.callFrame;
    const file = fileOf(url, functionName);
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
    byFile.set(file, (byFile.get(file) ?? 0) + node.selfSize);
    total += node.selfSize;
    node.children.forEach(walk);
  };
  walk(profile.head);
  const kib = (bytes: number) => (bytes / 1024 / units).toFixed(1).padStart(7);
  const list = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${kib(v)}  ${k}`);
  return [
    `allocated ${kib(total)} KiB per unit (sampled)`,
    "by file (KiB per unit):",
    ...list(byFile),
    "by function (KiB per unit):",
    ...list(byFunction),
  ].join("\n");
}
