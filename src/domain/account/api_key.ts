/** Spec rule 4: an account holds at most 25 keys. */
export const API_KEY_LIMIT = 25;
export const API_KEY_NAME_MAX = 80;
/** `sk_` plus 8 characters. */
export const API_KEY_PREFIX_LENGTH = 11;
export const UNTITLED_KEY = "Untitled key";

/** The API key record of the spec; `lastUsedAt` once the key has been used. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt?: string;
}

/** Trimmed, then cut to 80 characters (code points); empty or missing becomes `Untitled key`. */
export function apiKeyName(raw: string | null | undefined): string {
  const name = [...(raw ?? "").trim()].slice(0, API_KEY_NAME_MAX).join("");
  return name || UNTITLED_KEY;
}
