const encoder = new TextEncoder();
const decoder = new TextDecoder();
const b64url = { alphabet: "base64url", omitPadding: true } as const;
/** v1: bound to the context string alone; v2: to the context and the binding's values. */
const VERSION = "v1";
const BOUND_VERSION = "v2";

/** Values besides the context a sealed value is bound to (a mailbox's host, port, ...). */
export type Binding = readonly (string | number | boolean)[];

/**
 * Encrypts secrets at rest (webhook signing secrets, mailbox passwords) with AES-256-GCM.
 * Each sealed value is bound, as the encryption's associated data, to a context string (the id
 * of the record holding it), so a ciphertext copied onto another record does not open; with a
 * binding (format v2) also to those values, so it opens only while they stay the same.
 */
export class SecretBox {
  readonly #key: Promise<CryptoKey>;

  constructor(rawKey: Uint8Array) {
    if (rawKey.length !== 32) throw new Error("a secrets key is 32 bytes");
    this.#key = crypto.subtle.importKey("raw", new Uint8Array(rawKey), "AES-GCM", false, [
      "encrypt",
      "decrypt",
    ]);
  }

  /** A box whose key lives only as long as the process (in-memory deployments, tests). */
  static ephemeral(): SecretBox {
    return new SecretBox(crypto.getRandomValues(new Uint8Array(32)));
  }

  /** `<version>.<iv>.<ciphertext>` in base64url; v2 when a binding is given. */
  async seal(plain: string, context: string, binding?: Binding): Promise<string> {
    const version = binding ? BOUND_VERSION : VERSION;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: associatedData(version, context, binding) },
      await this.#key,
      encoder.encode(plain),
    );
    return [version, iv.toBase64(b64url), new Uint8Array(sealed).toBase64(b64url)].join(".");
  }

  /**
   * The plain text, or null when the value was sealed under another key, context or binding.
   * A v1 value (sealed before bindings existed) opens with its context alone.
   */
  async open(sealed: string, context: string, binding?: Binding): Promise<string | null> {
    const [version, iv, data] = sealed.split(".");
    if ((version !== VERSION && version !== BOUND_VERSION) || !iv || !data) return null;
    if (version === BOUND_VERSION && !binding) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: Uint8Array.fromBase64(iv, b64url),
          additionalData: associatedData(version, context, binding),
        },
        await this.#key,
        Uint8Array.fromBase64(data, b64url),
      );
      return decoder.decode(plain);
    } catch {
      return null;
    }
  }

  /** Whether a sealed value is bound to a binding (v2), not to its context alone. */
  static isBound(sealed: string): boolean {
    return sealed.startsWith(`${BOUND_VERSION}.`);
  }
}

/** v1: the context's bytes (as ever); v2: a JSON array of the version, context and binding. */
function associatedData(
  version: string,
  context: string,
  binding?: Binding,
): Uint8Array<ArrayBuffer> {
  return encoder.encode(
    version === VERSION ? context : JSON.stringify([version, context, ...(binding ?? [])]),
  );
}
