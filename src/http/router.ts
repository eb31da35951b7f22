import { OpenAPIHono, type RouteConfig, type RouteHandler } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import { validationError } from "./errors.ts";
import { objectKeys, warnNearFields } from "./field_warnings.ts";

interface RouteShape {
  request?: { body?: { content?: Record<string, { schema?: unknown }> } };
  middleware?: MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[];
}

/** The route with the near-miss field warning (field_warnings.ts) when its body is an object. */
function withFieldWarnings<R extends RouteShape>(route: R): R {
  const known = objectKeys(route.request?.body?.content?.["application/json"]?.schema);
  if (!known) return route;
  const own = route.middleware;
  const middleware = own === undefined ? [] : Array.isArray(own) ? own : [own];
  return { ...route, middleware: [...middleware, warnNearFields(known)] };
}

/**
 * A router whose request validation failures become 400 `{error}` naming the field (404 for
 * an id naming nothing), through the same error mapping as everything else; routes with a
 * JSON object body name near-miss unknown fields in `warnings`.
 */
export function createRouter() {
  const router = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
  const openapi = router.openapi.bind(router);
  router.openapi =
    ((route: RouteShape, ...rest: unknown[]) =>
      (openapi as (...args: unknown[]) => unknown)(
        withFieldWarnings(route),
        ...rest,
      )) as typeof router.openapi;
  return router;
}

export type Router = ReturnType<typeof createRouter>;

/**
 * A handler typed by its route, named by the route's `operationId` (the hono-open-api-starter's
 * shape): `export const listOrders: AppRouteHandler<typeof listOrdersRoute> = async (c) => ...`,
 * registered with `router.openapi(listOrdersRoute, listOrders)`, so a stack trace, a search and a
 * reader can name it.
 */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
