/**
 * What group commit (`group_commit.ts`) weighs a change by, without encoding it: a key's
 * identity and bytes, and a value's bytes, each at least what KV will count.
 */

/** What a value too deep or too large to walk is taken to be: KV's largest value. */
const UNWALKED_BYTES = 64 * 1024;
/** Nesting walked by {@link bytesOf}: orders and events are three or four levels deep. */
const MAX_DEPTH = 8;

/** A key as a string that tells every two different keys apart. */
export function keyId(key: Deno.KvKey): string {
  let id = "";
  for (const part of key) {
    if (typeof part === "string") id += `s${part.length}:${part}`;
    else if (part instanceof Uint8Array) id += `u${part.length}:${part.join(",")}`;
    else id += `${(typeof part)[0]}${String(part)};`;
  }
  return id;
}

/** Anything but printable ASCII (one byte each in a key; a zero byte would take two). */
const NOT_PLAIN_ASCII = /[^ -~]/;

/**
 * The bytes of `key` in KV's encoding, or a few more, without encoding it (`keySize` is exact
 * but costs a UTF-8 encoding per part, on every change): a character takes at most 3 bytes.
 */
export function keyBytes(key: Deno.KvKey): number {
  let n = 0;
  for (const part of key) {
    if (typeof part === "string") n += 2 + part.length * (NOT_PLAIN_ASCII.test(part) ? 3 : 1);
    else if (part instanceof Uint8Array) n += 2 + part.length * 2;
    else n += 10;
  }
  return n;
}

/**
 * The bytes `value` takes in KV, or more: strings at 3 bytes a character, 16 for anything
 * scalar, arrays and plain objects by their parts. A flat guess per object (8 KiB) held a
 * create's dozen small index values to 100 KiB and its commit to 5 creates; walking them costs
 * a few microseconds. Deeper or larger than {@link UNWALKED_BYTES}: that.
 */
export function bytesOf(value: unknown, depth = 0): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === "string") return value.length * 3;
  if (typeof value !== "object" || value === null || value instanceof Deno.KvU64) return 16;
  const proto = Object.getPrototypeOf(value);
  const plain = Array.isArray(value) || proto === Object.prototype || proto === null;
  if (!plain || depth >= MAX_DEPTH) return UNWALKED_BYTES;
  let n = 16;
  for (const [k, v] of Object.entries(value)) {
    n += k.length * 3 + bytesOf(v, depth + 1);
    if (n >= UNWALKED_BYTES) return UNWALKED_BYTES;
  }
  return n;
}
