import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./env.ts";
import { validationError } from "./errors.ts";

/**
 * A router whose request validation failures become 400 `{error}` naming the field (404 for
 * an id naming nothing), through the same error mapping as everything else.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
}

export type Router = ReturnType<typeof createRouter>;
