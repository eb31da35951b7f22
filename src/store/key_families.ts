/**
 * Key families: the first part of every key `keys.ts` builds. What lies in a store under any
 * other first part was written by something this release does not know (a newer release, a
 * tool, another app sharing the database); the verifier counts it and leaves it alone.
 */
import { keys } from "./keys.ts";

/** Keys counted per unknown family at most. */
const COUNTED = 10_000;

/** The first part of every key keys.ts builds. */
export function knownFamilies(): Set<string> {
  const builders = Object.values(keys) as ((...parts: string[]) => Deno.KvKey)[];
  return new Set(builders.map((build) => String(build("x", "x", "x", "x", "x")[0])));
}

/**
 * Unknown families of `kv` with how many keys each holds (up to 10,000), found by skipping
 * from one family to the next (one read per family); keys whose first part is not text are
 * counted under `(not text)`.
 */
export async function unknownFamilies(kv: Deno.Kv): Promise<Record<string, number>> {
  const known = knownFamilies();
  const out: Record<string, number> = {};
  let start: Deno.KvKey | null = null;
  for (;;) {
    const selector: Deno.KvListSelector = start ? { prefix: [], start } : { prefix: [] };
    let first: Deno.KvKeyPart | undefined;
    for await (const e of kv.list(selector, { limit: 1 })) first = e.key[0];
    if (first === undefined) return out;
    if (typeof first !== "string") {
      // Past every text part: the rest sort after it (numbers, bigints, booleans).
      out["(not text)"] = (await Array.fromAsync(kv.list(selector, { limit: COUNTED }))).length;
      return out;
    }
    if (!known.has(first)) {
      // A list by prefix leaves out the key `[first]` itself.
      const own = (await kv.get([first])).versionstamp ? 1 : 0;
      out[first] = own +
        (await Array.fromAsync(kv.list({ prefix: [first] }, { limit: COUNTED }))).length;
    }
    // The first text after `first`: every key under it sorts before.
    start = [`${first}\0`];
  }
}
