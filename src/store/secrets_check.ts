/**
 * Does the secrets key this process has open the secrets stored in this KV? A KV restored
 * without its `secrets.key` would otherwise start with a fresh key and fail every webhook
 * signature and mailbox sign-in quietly. A known text sealed with the key is kept in KV: the
 * first start writes it, every later start (and `GET /api/deployment`) opens it.
 */
import type { SecretBox } from "../lib/secret_box.ts";
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";

const KNOWN = "order-tracker secrets check";
const CONTEXT = "secrets-check";

/** `ok`: the key opens the KV's secrets; `mismatch`: it does not; `none`: no key here. */
export type SecretsKeyState = "ok" | "mismatch" | "none";

/** Reads the check (writing it on the first start); never throws for a mismatch. */
export async function checkSecretsKey(
  kv: Deno.Kv,
  box: SecretBox | null,
  options: { write: boolean } = { write: false },
): Promise<SecretsKeyState> {
  if (!box) return "none";
  const entry = await kv.get<string>(keys.secretsCheck());
  if (entry.value === null) {
    if (options.write) {
      const sealed = await box.seal(KNOWN, CONTEXT);
      // Only when still absent: two first starts agree on the first writer's check.
      await commit(kv.atomic().check(entry).set(entry.key, sealed));
      return await checkSecretsKey(kv, box);
    }
    return "ok";
  }
  return (await box.open(entry.value, CONTEXT)) === KNOWN ? "ok" : "mismatch";
}

/** What to tell the operator and the user when the key does not open the stored secrets. */
export const SECRETS_MISMATCH_TEXT =
  "The secrets key does not open the secrets stored in this data file (a restore without its " +
  "secrets.key, or a changed SECRETS_KEY): webhook signing secrets and mailbox passwords " +
  "cannot be read. Put the original secrets.key beside the data file (or set the original " +
  "SECRETS_KEY) and restart; or rotate every webhook secret and re-enter mailbox passwords.";
