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

/** 429 with `Retry-After: 60` once a rule's window is full. */
export function rateLimit(...rules: RateLimitRule[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    for (const rule of rules) {
      const limiter = c.var.deps.rateLimits.get(rule.name, rule.limit);
      if (!limiter.take(rule.key(c))) {
        throw new ApiError(429, rule.message, {}, { "Retry-After": "60" });
      }
    }
    await next();
  };
}
