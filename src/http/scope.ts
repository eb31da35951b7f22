import { notFound } from "./errors.ts";

/**
 * Another account's resource must look exactly like a missing one: 404 with the same body,
 * never 403. Workspace keys (`["ws", userId, ...]`) are scoped by construction; this guards
 * records reached any other way.
 */
export function ownedBy<T extends { userId: string }>(
  record: T | null | undefined,
  userId: string,
  message = "Not found",
): T {
  if (!record || record.userId !== userId) throw notFound(message);
  return record;
}
