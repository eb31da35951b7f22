import { z } from "@hono/zod-openapi";
import type { Paging } from "../store/kv.ts";

export interface PageBounds {
  defaultLimit: number;
  maxLimit: number;
}

export const LIST_BOUNDS: PageBounds = { defaultLimit: 50, maxLimit: 200 };

/** A query parameter as validated: absent, once, or repeated (`?limit=1&limit=2`). */
export type QueryValue = string | string[] | undefined;

/**
 * The schema of a query parameter whose bad values are never an error (paging, the orders
 * `status` filter): a repeated parameter is accepted, as a value matching no rule.
 */
export const lenientQueryParam = () => z.union([z.string(), z.array(z.string())]).optional();

function integer(raw: QueryValue): number {
  if (typeof raw !== "string" || raw.trim() === "") return NaN;
  const n = Number(raw);
  return Number.isFinite(n) ? Math.trunc(n) : NaN;
}

/**
 * The spec's clamping: above the max becomes the max; non-numeric or 0 becomes the default;
 * negative becomes 1. Offset: non-numeric (or negative) becomes 0. Never an error.
 */
export function clampLimit(raw: QueryValue, bounds: PageBounds = LIST_BOUNDS): number {
  const n = integer(raw);
  if (Number.isNaN(n) || n === 0) return bounds.defaultLimit;
  if (n < 0) return 1;
  return Math.min(n, bounds.maxLimit);
}

export function clampOffset(raw: QueryValue): number {
  const n = integer(raw);
  return Number.isNaN(n) || n < 0 ? 0 : n;
}

export function parsePaging(
  query: { limit?: QueryValue; offset?: QueryValue },
  bounds: PageBounds = LIST_BOUNDS,
): Paging {
  return { limit: clampLimit(query.limit, bounds), offset: clampOffset(query.offset) };
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

export function envelope<T>(items: T[], total: number, paging: Paging): Page<T> {
  return {
    items,
    total,
    limit: paging.limit,
    offset: paging.offset,
    hasMore: paging.offset + items.length < total,
  };
}

/** Pages an in-memory list (for small collections). */
export function pageOf<T>(all: T[], paging: Paging): Page<T> {
  return envelope(all.slice(paging.offset, paging.offset + paging.limit), all.length, paging);
}

/** Query parameters of every paginated endpoint, documented as they are clamped. */
export const PagingQuery = z.object({
  limit: lenientQueryParam().openapi({
    description: "Page size, 1 to 200 (default 50). Above 200 becomes 200; non-numeric " +
      "(repeated included) or 0 becomes 50; negative becomes 1.",
    example: "50",
  }),
  offset: lenientQueryParam().openapi({
    description: "Items to skip (default 0). Non-numeric (repeated included) becomes 0.",
    example: "0",
  }),
});

/** The envelope schema for a paginated list of `item`. */
export function pageSchema<T extends z.ZodType>(item: T, name: string) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    hasMore: z.boolean(),
  }).openapi(name);
}

/** The `limit` query of a log list (`{logs}`, newest first), documented as it is clamped. */
export function logLimitQuery({ defaultLimit, maxLimit }: PageBounds) {
  return z.object({
    limit: lenientQueryParam().openapi({
      description: `Entries, 1 to ${maxLimit} (default ${defaultLimit}). Above ${maxLimit} ` +
        `becomes ${maxLimit}; non-numeric or 0 becomes ${defaultLimit}; negative becomes 1.`,
      example: String(defaultLimit),
    }),
  });
}
