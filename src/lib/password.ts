import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Password hashing with scrypt (memory-hard). Stored as
 * `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`, so parameters can be raised later and
 * old hashes still verify.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
/** scrypt needs 128 * N * r * p bytes (32 MiB here); Node's default cap is 32 MiB exactly. */
const maxmemFor = (n: number, r: number, p: number) => 2 * 128 * n * r * p;

function derive(
  password: string,
  salt: Uint8Array,
  n: number,
  r: number,
  p: number,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFC"),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: maxmemFor(n, r, p) },
      (err, key) => err ? reject(err) : resolve(new Uint8Array(key)),
    )
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = new Uint8Array(randomBytes(SALT_BYTES));
  const hash = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toBase64()}$${hash.toBase64()}`;
}

interface Parsed {
  n: number;
  r: number;
  p: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

function parse(stored: string): Parsed | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every(Number.isSafeInteger)) return null;
  try {
    return {
      n,
      r,
      p,
      salt: Uint8Array.fromBase64(parts[4]),
      hash: Uint8Array.fromBase64(parts[5]),
    };
  } catch {
    return null;
  }
}

/** A hash of a random password: unknown accounts are checked against it so they cost the same. */
let decoy: Promise<string> | undefined;

/**
 * True when `password` matches `stored`. With no usable stored hash (unknown account, or one
 * that signs in only through a provider) the same work is done against a decoy and false
 * returned, so response time does not tell whether an account exists.
 */
export async function verifyPassword(
  password: string,
  stored: string | undefined,
): Promise<boolean> {
  const own = stored === undefined ? null : parse(stored);
  const parsed = own ?? parse(await (decoy ??= hashPassword(crypto.randomUUID())))!;
  const actual = await derive(password, parsed.salt, parsed.n, parsed.r, parsed.p);
  return own !== null && actual.length === own.hash.length && timingSafeEqual(actual, own.hash);
}
