const encoder = new TextEncoder();

/** The HMAC-SHA256 key of a secret: the whole secret string (prefix included) as UTF-8. */
export function signingKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

/** The `X-Service-Signature` value: `sha256=` and the lowercase hex HMAC of the exact body. */
export async function signatureHeader(key: CryptoKey, body: Uint8Array): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, new Uint8Array(body));
  return `sha256=${new Uint8Array(mac).toHex()}`;
}
