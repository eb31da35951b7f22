import { z } from "@hono/zod-openapi";
import { MAX_ID_LENGTH } from "../lib/ids.ts";
import { NAMES_NOTHING, notFound } from "./errors.ts";

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

/**
 * The path parameter of a route that reads one resource by `name`, with the route's 404
 * `message`. A value longer than any id (`max`, default {@link MAX_ID_LENGTH}) names nothing,
 * so it gets that same 404 at validation, before any lookup: as a KV key part it could pass
 * the 2 KiB key limit. It is a 404, not a 400, so the document shows no `maxLength`.
 */
export function resourceParam<N extends string>(
  name: N,
  message: string,
  doc: { example: string; max?: number },
) {
  const max = doc.max ?? MAX_ID_LENGTH;
  const field = z.string()
    .refine((value) => value.length <= max, { message, params: { [NAMES_NOTHING]: true } })
    .openapi({ example: doc.example });
  return z.object({ [name]: field } as Record<N, typeof field>);
}
