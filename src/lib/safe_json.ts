/** JSON from untrusted text, without the keys that pollute prototypes. */

const DROPPED_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** Text that may spell a dropped key: literally, or through a `\u` escape. */
const MAY_HOLD_DROPPED = /__proto__|prototype|constructor|\\u/;

/**
 * JSON.parse that drops prototype-polluting keys at any depth. A reviver makes parsing several
 * times slower, so it runs only when the text could hold such a key.
 */
export function parseJsonSafely(text: string): unknown {
  if (!MAY_HOLD_DROPPED.test(text)) return JSON.parse(text);
  return JSON.parse(text, (key, value) => DROPPED_KEYS.has(key) ? undefined : value);
}
