/**
 * The deployment's secret box, from its configuration: the configured key, or a key file beside
 * a local KV file. The box itself (`lib/secret_box.ts`) knows nothing of configuration.
 */
import { dirname, join } from "node:path";
import { type Config, ConfigError, type Persistence } from "./config.ts";
import { SecretBox } from "./lib/secret_box.ts";

/** Name of the key file created beside a local KV file when `SECRETS_KEY` is unset. */
export const KEY_FILE_NAME = "secrets.key";

/**
 * The deployment's box (CONTRACT.md `SECRETS_KEY`): the configured key; else, for a KV file, a
 * key file `secrets.key` (mode 0600) beside it, created on first start; else, for `:memory:`,
 * an ephemeral key. A remote KV without `SECRETS_KEY` has none: features that store secrets
 * answer 503. (On Deno Deploy the configuration requires the key.)
 */
export function secretBoxFor(config: Config, persistence: Persistence): SecretBox | null {
  if (config.secretsKey) return new SecretBox(config.secretsKey);
  if (persistence === "memory") return SecretBox.ephemeral();
  if (persistence !== "sqlite" || config.kvPath === undefined) return null;
  return new SecretBox(loadOrCreateKeyFile(join(dirname(config.kvPath), KEY_FILE_NAME)));
}

/**
 * Reads the key file, or creates it: written to a temporary file first and linked into place,
 * so two processes starting together agree on one key and nobody reads a half-written file.
 */
export function loadOrCreateKeyFile(path: string): Uint8Array {
  try {
    return readKeyFile(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const key = crypto.getRandomValues(new Uint8Array(32));
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  Deno.writeTextFileSync(temp, key.toBase64() + "\n", { mode: 0o600, createNew: true });
  try {
    Deno.chmodSync(temp, 0o600);
    Deno.linkSync(temp, path);
    return key;
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) return readKeyFile(path);
    throw err;
  } finally {
    Deno.removeSync(temp);
  }
}

function readKeyFile(path: string): Uint8Array {
  const text = Deno.readTextFileSync(path).trim();
  let key: Uint8Array | null = null;
  try {
    key = Uint8Array.fromBase64(text);
  } catch {
    // reported below
  }
  if (key?.length !== 32) throw new ConfigError(`${path} must hold base64 of 32 bytes`);
  return key;
}
