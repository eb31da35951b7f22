/**
 * A KV that refuses what KV Connect refuses (a self-hosted `denokv`, a managed Deno KV reached
 * by URL, Deno Deploy's KV): more than 10 checks or 1000 mutations in one commit, more than
 * 800 KiB of keys and values in one commit, a value over 64 KiB or a key over 2 KiB, and any
 * queue. It wraps a real KV (local limits are looser: 100 checks) and checks every atomic
 * operation when it commits, throwing what the remote would; it also keeps the largest commit
 * seen, for the report.
 */
import { serialize } from "node:v8";
import { keySize } from "../../src/store/kv.ts";

export const KV_CONNECT = {
  checks: 10,
  mutations: 1000,
  commitBytes: 800 * 1024,
  valueBytes: 65_536,
  keyBytes: 2048,
} as const;

export interface CommitSizes {
  checks: number;
  mutations: number;
  bytes: number;
}

export interface LimitedKv {
  kv: Deno.Kv;
  /** The largest figures any one commit reached. */
  largest: CommitSizes;
  /** Commits refused, with why (a test expects none). */
  refused: string[];
}

function valueSize(value: unknown): number {
  return value instanceof Deno.KvU64 ? 8 : serialize(value).byteLength;
}

/** Wraps `kv`; every `atomic()` of the wrapper is checked against KV Connect's limits. */
export function withKvConnectLimits(kv: Deno.Kv): LimitedKv {
  const largest: CommitSizes = { checks: 0, mutations: 0, bytes: 0 };
  const refused: string[] = [];
  /** A rejected commit, as the remote answers. */
  const refuse = (why: string): Promise<never> => {
    refused.push(why);
    return Promise.reject(new TypeError(why));
  };
  const atomic = () => {
    const op = kv.atomic();
    const sizes: CommitSizes = { checks: 0, mutations: 0, bytes: 0 };
    const problems: string[] = [];
    const mutation = (key: Deno.KvKey, value?: unknown) => {
      sizes.mutations++;
      const k = keySize(key);
      const v = value === undefined ? 0 : valueSize(value);
      if (k > KV_CONNECT.keyBytes) problems.push(`key of ${k} bytes`);
      if (v > KV_CONNECT.valueBytes) problems.push(`value of ${v} bytes`);
      sizes.bytes += k + v;
    };
    const proxy: Deno.AtomicOperation = new Proxy(op, {
      get(target, prop) {
        switch (prop) {
          case "check":
            return (...checks: Deno.AtomicCheck[]) => {
              sizes.checks += checks.length;
              target.check(...checks);
              return proxy;
            };
          case "set":
            return (key: Deno.KvKey, value: unknown, options?: { expireIn?: number }) => {
              mutation(key, value);
              target.set(key, value, options);
              return proxy;
            };
          case "delete":
            return (key: Deno.KvKey) => {
              mutation(key);
              target.delete(key);
              return proxy;
            };
          case "sum":
          case "min":
          case "max":
            return (key: Deno.KvKey, n: bigint) => {
              mutation(key, new Deno.KvU64(n));
              target[prop](key, n);
              return proxy;
            };
          case "mutate":
            return (...mutations: Deno.KvMutation[]) => {
              for (const m of mutations) mutation(m.key, "value" in m ? m.value : undefined);
              target.mutate(...mutations);
              return proxy;
            };
          case "enqueue":
            return () => {
              problems.push("enqueue (KV Connect has no queues)");
              return proxy;
            };
          case "commit":
            return () => {
              if (sizes.checks > KV_CONNECT.checks) problems.push(`${sizes.checks} checks`);
              if (sizes.mutations > KV_CONNECT.mutations) {
                problems.push(`${sizes.mutations} mutations`);
              }
              if (sizes.bytes > KV_CONNECT.commitBytes) problems.push(`${sizes.bytes} bytes`);
              if (problems.length) return refuse(`KV Connect refuses: ${problems.join(", ")}`);
              largest.checks = Math.max(largest.checks, sizes.checks);
              largest.mutations = Math.max(largest.mutations, sizes.mutations);
              largest.bytes = Math.max(largest.bytes, sizes.bytes);
              return target.commit();
            };
          default: {
            const value = Reflect.get(target, prop, target);
            return typeof value === "function" ? value.bind(target) : value;
          }
        }
      },
    });
    return proxy;
  };
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") return atomic;
      if (prop === "set") {
        return (key: Deno.KvKey, value: unknown, o?: { expireIn?: number }) =>
          atomic().set(key, value, o).commit();
      }
      if (prop === "delete") return (key: Deno.KvKey) => atomic().delete(key).commit();
      if (prop === "enqueue" || prop === "listenQueue") {
        return () => refuse(`KV Connect refuses: ${String(prop)} (it has no queues)`);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: wrapped, largest, refused };
}
