import { randomToken } from "../lib/ids.ts";

const encoder = new TextEncoder();

/** A new signing secret: `whsec_` and 32 random bytes in base64url (49 characters). */
export function newSigningSecret(): string {
  return `whsec_${randomToken(32)}`;
}

/**
 * The `X-Service-Signature` value: `sha256=` and the lowercase hex HMAC-SHA256 of the exact
 * body bytes, keyed by the whole secret string (prefix included) as UTF-8.
 */
export async function signatureHeader(secret: string, body: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new Uint8Array(body));
  return `sha256=${new Uint8Array(mac).toHex()}`;
}
