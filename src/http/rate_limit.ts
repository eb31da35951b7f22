import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "./errors.ts";
import type { AppEnv } from "./env.ts";

export interface RateLimitRule {
  /** Limiter name; rules with one name share their counts. */
  name: string;
  limit: number;
  key: (c: Context<AppEnv>) => string;
  message: string;
}

/** Counts a hit of `key` under `rule`; 429 with `Retry-After: 60` once its window is full. */
export function takeOrRefuse(
  c: Context<AppEnv>,
  rule: Omit<RateLimitRule, "key">,
  key: string,
): void {
  if (!c.var.deps.rateLimits.get(rule.name, rule.limit).take(key)) {
    throw new ApiError(429, rule.message, {}, { "Retry-After": "60" });
  }
}

/** Route middleware: each rule in turn, keyed by what the request says. */
export function rateLimit(...rules: RateLimitRule[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    for (const rule of rules) takeOrRefuse(c, rule, rule.key(c));
    await next();
  };
}
