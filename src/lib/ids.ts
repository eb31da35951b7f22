/** Crockford base32: sortable, URL-safe, no ambiguous letters. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const RANDOM_CHARS = 16;

export type IdPrefix =
  | "ord"
  | "usr"
  | "key"
  | "bot"
  | "email"
  | "tmpl"
  | "sub"
  | "whsub"
  | "evt"
  | "evt_test"
  | "log";

let lastTime = -1;
const lastRandom = new Uint8Array(RANDOM_CHARS);

function encodeTime(ms: number): string {
  let out = "";
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/** Fresh random digits, or the previous ones plus one when the clock has not moved. */
function nextRandom(now: number): string {
  if (now > lastTime) {
    lastTime = now;
    crypto.getRandomValues(lastRandom);
    for (let i = 0; i < RANDOM_CHARS; i++) lastRandom[i] &= 31;
  } else {
    let i = RANDOM_CHARS - 1;
    while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0;
    if (i >= 0) lastRandom[i]++;
  }
  let out = "";
  for (const d of lastRandom) out += ALPHABET[d];
  return out;
}

/**
 * An opaque id: the type prefix, a time part and 80 random bits, monotonic within the process
 * so ids sort in creation order (ULID-style). Clients must not parse it.
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${nextRandom(now)}`;
}

/**
 * No id the service issues is longer (the longest prefix, `evt_test`, and 26 characters make
 * 35), with room for new prefixes: a longer value names nothing.
 */
export const MAX_ID_LENGTH = 64;

/** Random bytes as lowercase hex. */
export function randomHex(bytes: number): string {
  return crypto.getRandomValues(new Uint8Array(bytes)).toHex();
}

/** Random bytes as unpadded base64url. */
export function randomToken(bytes: number): string {
  return crypto.getRandomValues(new Uint8Array(bytes)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}
