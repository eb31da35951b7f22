/**
 * Rules of the account profile fields (documented in docs/accounts.md and the OpenAPI
 * descriptions). Pure functions: each returns the stored form or what is wrong with the value
 * (the caller prefixes the field name).
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const DISPLAY_NAME_MAX = 50;

/**
 * Names a username cannot take: routes, roles and words that would let an account pass for the
 * service. Compared in lower case.
 */
const RESERVED_USERNAMES = new Set([
  "about",
  "account",
  "accounts",
  "admin",
  "administrator",
  "anonymous",
  "api",
  "app",
  "billing",
  "bot",
  "bots",
  "dashboard",
  "everyone",
  "help",
  "login",
  "logout",
  "mail",
  "me",
  "mod",
  "moderator",
  "null",
  "official",
  "profile",
  "register",
  "root",
  "security",
  "settings",
  "signin",
  "signup",
  "staff",
  "status",
  "support",
  "system",
  "undefined",
  "user",
  "users",
  "webhook",
  "webhooks",
  "www",
]);

const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * A username: 3 to 30 characters of ASCII letters, digits, `_` and `-`, starting with a letter or
 * digit; not reserved; not starting with `usr_` (profile URLs also take user ids). Case is kept
 * for display; uniqueness ignores it. Never contains `@`, so login can tell it from an email.
 */
export function checkUsername(raw: string): Checked<string> {
  const name = raw.trim();
  if (name.length < USERNAME_MIN || name.length > USERNAME_MAX) {
    return { ok: false, error: `must be ${USERNAME_MIN} to ${USERNAME_MAX} characters` };
  }
  if (!USERNAME_PATTERN.test(name)) {
    return {
      ok: false,
      error: "may contain only letters, digits, _ and -, and must start with a letter or digit",
    };
  }
  const lower = name.toLowerCase();
  if (RESERVED_USERNAMES.has(lower) || lower.startsWith("usr_")) {
    return { ok: false, error: "is reserved" };
  }
  return { ok: true, value: name };
}

/** The key that makes usernames unique regardless of case. */
export const usernameKey = (username: string) => username.toLowerCase();

// deno-lint-ignore no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/** A display name: trimmed, at most 50 characters, no control characters; empty clears it. */
export function checkDisplayName(raw: string): Checked<string | undefined> {
  const name = raw.trim();
  if (CONTROL_CHARS.test(name)) {
    return { ok: false, error: "must not contain control characters" };
  }
  if ([...name].length > DISPLAY_NAME_MAX) {
    return { ok: false, error: `must be at most ${DISPLAY_NAME_MAX} characters` };
  }
  return { ok: true, value: name || undefined };
}

/** A provider-supplied name as a display name, or nothing when it breaks the rules. */
export function displayNameFrom(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  const checked = checkDisplayName(raw);
  return checked.ok ? checked.value : undefined;
}

/** IANA names look like `UTC`, `Europe/Paris`, `Etc/GMT+5`; offsets like `+01:00` are not. */
const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * An IANA time zone name the runtime knows, in its canonical spelling (`europe/paris` ->
 * `Europe/Paris`).
 */
export function checkTimezone(raw: string): Checked<string> {
  const name = raw.trim();
  if (IANA_SHAPE.test(name)) {
    try {
      const canonical = new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions()
        .timeZone;
      return { ok: true, value: canonical };
    } catch {
      // Unknown zone: falls through to the error.
    }
  }
  return { ok: false, error: "must be an IANA time zone name such as Europe/Paris" };
}
