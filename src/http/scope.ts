import { notFound } from "./errors.ts";

/**
 * Another account's resource must look exactly like a missing one: 404 with the same body,
 * never 403. Resources are read under the caller's workspace (`["ws", userId, ...]`), where
 * another account's id is simply absent; this turns every kind of absence (no record, nothing
 * deleted, not visible to the caller) into that one 404.
 */
export function found<T>(value: T | null | undefined | false, message = "Not found"): T {
  if (value === null || value === undefined || value === false) throw notFound(message);
  return value;
}
