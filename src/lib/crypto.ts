import { createHash } from "node:crypto";

const encoder = new TextEncoder();

/**
 * Lowercase hex SHA-256 of a UTF-8 string: how tokens and keys are stored. Computed in place:
 * `crypto.subtle.digest` hands each short input to another thread and back, which costs over
 * ten times as much on the paths that hash a credential per request.
 */
export function sha256Hex(text: string): Promise<string> {
  return Promise.resolve(createHash("sha256").update(text, "utf8").digest("hex"));
}

/** Length-independent comparison of two strings. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
