/** Drops `undefined` and `null` fields: responses omit fields that have no value. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out as T;
}
