import { ConflictError } from "../errors.ts";
import { commit } from "./kv.ts";

/** Under KV's 64 KiB value limit with room for the key. */
const CHUNK_SIZE = 60_000;
/** Chunks per commit: 12 x 60 KB stays under the 800 KiB commit limit. */
const CHUNKS_PER_COMMIT = 12;

interface BlobMeta {
  version: string;
  size: number;
  chunks: number;
  /** A blob that fits one value is kept here, with no chunks. */
  bytes?: Uint8Array;
}

const metaKey = (key: Deno.KvKey) => [...key, "meta"];
const chunkKey = (key: Deno.KvKey, version: string, i: number) => [...key, "chunk", version, i];

/**
 * Stores bytes of any size under `key`. Chunks are written under a fresh version first, then
 * one atomic commit points the meta entry at them, so readers never see half a blob; the
 * previous version's chunks are removed afterwards.
 */
export async function putBlob(kv: Deno.Kv, key: Deno.KvKey, bytes: Uint8Array): Promise<void> {
  const version = crypto.randomUUID();
  const chunks = await writeChunks(kv, key, version, bytes);
  const previous = await kv.get<BlobMeta>(metaKey(key));
  const meta: BlobMeta = { version, size: bytes.byteLength, chunks };
  const flipped = await commit(kv.atomic().check(previous).set(metaKey(key), meta));
  if (!flipped.ok) {
    await deleteChunks(kv, key, version);
    throw new ConflictError("Blob changed while it was written");
  }
  if (previous.value) await deleteChunks(kv, key, previous.value.version);
}

/**
 * A blob whose chunks are written but not yet visible: `commit` adds the meta entry to the
 * caller's atomic operation (so the blob appears with the caller's change, or never), and
 * `discard` removes the chunks when that change is not made. Only for a key that holds no
 * blob yet (a fresh id).
 */
export interface StagedBlob {
  commit(op: Deno.AtomicOperation): void;
  discard(): Promise<void>;
}

export async function stageBlob(
  kv: Deno.Kv,
  key: Deno.KvKey,
  bytes: Uint8Array,
): Promise<StagedBlob> {
  const version = crypto.randomUUID();
  // What fits one value rides in the meta entry of the caller's commit: no commit of its own,
  // nothing to clean up.
  if (bytes.byteLength <= CHUNK_SIZE) {
    const meta: BlobMeta = { version, size: bytes.byteLength, chunks: 0, bytes };
    return { commit: (op) => void op.set(metaKey(key), meta), discard: () => Promise.resolve() };
  }
  const chunks = await writeChunks(kv, key, version, bytes);
  const meta: BlobMeta = { version, size: bytes.byteLength, chunks };
  return {
    commit: (op) => void op.set(metaKey(key), meta),
    discard: () => deleteChunks(kv, key, version),
  };
}

export async function getBlob(kv: Deno.Kv, key: Deno.KvKey): Promise<Uint8Array | null> {
  const meta = (await kv.get<BlobMeta>(metaKey(key))).value;
  if (!meta) return null;
  if (meta.bytes) return meta.bytes;
  const out = new Uint8Array(meta.size);
  let at = 0;
  let expected = 0;
  for await (
    const entry of kv.list<Uint8Array>({ prefix: [...key, "chunk", meta.version] }, {
      batchSize: CHUNKS_PER_COMMIT,
    })
  ) {
    if (entry.key.at(-1) !== expected++) throw new Error("Blob chunk missing");
    out.set(entry.value, at);
    at += entry.value.byteLength;
  }
  if (at !== meta.size) throw new Error("Blob is incomplete");
  return out;
}

export async function deleteBlob(kv: Deno.Kv, key: Deno.KvKey): Promise<void> {
  const meta = await kv.get<BlobMeta>(metaKey(key));
  if (!meta.value) return;
  await commit(kv.atomic().check(meta).delete(metaKey(key)));
  await deleteChunks(kv, key, meta.value.version);
}

/** Writes the chunks of one version; returns how many. */
async function writeChunks(kv: Deno.Kv, key: Deno.KvKey, version: string, bytes: Uint8Array) {
  const chunks = Math.ceil(bytes.byteLength / CHUNK_SIZE);
  for (let i = 0; i < chunks; i += CHUNKS_PER_COMMIT) {
    const op = kv.atomic();
    for (let j = i; j < Math.min(chunks, i + CHUNKS_PER_COMMIT); j++) {
      op.set(chunkKey(key, version, j), bytes.subarray(j * CHUNK_SIZE, (j + 1) * CHUNK_SIZE));
    }
    if (!(await commit(op)).ok) throw new Error("Blob chunks could not be written");
  }
  return chunks;
}

async function deleteChunks(kv: Deno.Kv, key: Deno.KvKey, version: string) {
  let op = kv.atomic();
  let n = 0;
  for await (const entry of kv.list({ prefix: [...key, "chunk", version] })) {
    op.delete(entry.key);
    if (++n % 500 === 0) {
      await commit(op);
      op = kv.atomic();
    }
  }
  await commit(op);
}
