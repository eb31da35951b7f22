import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Config } from "../../config.ts";
import { notFound } from "../../http/errors.ts";
import { errors, jsonResponse } from "../../http/openapi.ts";
import {
  finishOperations,
  type OpenApiDocument,
  registerSharedResponses,
} from "../../http/openapi_document.ts";
import type { AppEnv } from "../../http/env.ts";
import type { AppRouteHandler } from "../../http/router.ts";
import { eventWebhooks } from "../../schemas/webhooks/events.ts";
import { LICENSE, VERSION } from "../../version.ts";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Order-tracking API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/api/reference/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/reference/swagger-ui-bundle.js"></script>
<script src="/api/reference/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
});`;

/** Everything the page loads comes from this service, so it works without internet. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; connect-src 'self'; font-src 'self' data:";

type Assets = Record<string, [string, string]>;
let assets: Promise<Assets> | undefined;

/**
 * The page's files, imported at the first request for one: Swagger UI is 3.5 MB of text, and
 * what the isolate keeps live is multiplied in its peak memory (V8 lets the heap grow to a few
 * times its live size before a full collection; docs/benchmarks.md, "Email intake memory"),
 * so a service whose reference page is never opened does not carry it.
 */
function pageAssets(): Promise<Assets> {
  return assets ??= Promise.all([
    import("swagger-ui-dist/swagger-ui.css", { with: { type: "text" } }),
    import("swagger-ui-dist/swagger-ui-bundle.js", { with: { type: "text" } }),
  ]).then(([css, js]) => ({
    "swagger-ui.css": [css.default, "text/css; charset=utf-8"],
    "swagger-ui-bundle.js": [js.default, "text/javascript; charset=utf-8"],
    "init.js": [INIT, "text/javascript; charset=utf-8"],
  }));
}

const getOpenApiDocumentRoute = createRoute({
  method: "get",
  path: "/api/openapi.json",
  tags: ["Service"],
  summary: "This OpenAPI 3.1 document",
  description: "Generated from the same zod schemas that validate requests.",
  responses: {
    200: jsonResponse(
      z.object({ openapi: z.literal("3.1.0") }).passthrough().openapi("OpenApiDocument"),
      "The OpenAPI 3.1 description of every endpoint",
    ),
  },
});

const getApiReferenceRoute = createRoute({
  method: "get",
  path: "/api",
  tags: ["Service"],
  summary: "Interactive API reference (HTML)",
  description: "Renders this document; every script and style is served by the service itself.",
  responses: {
    200: { description: "The reference page", content: { "text/html": { schema: z.string() } } },
  },
});

const getReferenceAssetRoute = createRoute({
  method: "get",
  path: "/api/reference/{file}",
  tags: ["Service"],
  summary: "A script or style of the reference page",
  request: {
    params: z.object({
      file: z.string().openapi({ example: "swagger-ui-bundle.js" }),
    }),
  },
  responses: {
    200: {
      description: "The asset",
      content: { "text/javascript": { schema: z.string() }, "text/css": { schema: z.string() } },
    },
    ...errors(404),
  },
});

/** The document's own fields; `servers` is the deployment's `BASE_URL`. */
function documentInfo(config: Config) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Order-Tracking Service",
      version: VERSION,
      description: "Tracks online purchases from checkout to doorstep. Every path has the " +
        "`/api` prefix. Errors are `{error}` with the extra fields listed per endpoint. " +
        "Fields with no value are omitted, never null. `webhooks` describes the signed " +
        "events sent to webhook subscriptions.",
      contact: { name: "Operator of this deployment", url: config.baseUrl },
      license: LICENSE,
    },
    servers: [{ url: config.baseUrl, description: "This deployment (`BASE_URL`)" }],
  };
}

/** The document of `app`, built at the first request (every route is registered by then). */
function documentOf(app: OpenAPIHono<AppEnv>): AppRouteHandler<typeof getOpenApiDocumentRoute> {
  let document: OpenApiDocument | undefined;
  return function getOpenApiDocument(c) {
    document ??= finishOperations(app.getOpenAPI31Document(documentInfo(c.var.deps.config)));
    return c.json(document as { openapi: "3.1.0" }, 200);
  };
}

export const getApiReference: AppRouteHandler<typeof getApiReferenceRoute> = (c) => {
  c.header("Content-Security-Policy", CSP);
  return c.html(PAGE, 200);
};

export const getReferenceAsset: AppRouteHandler<typeof getReferenceAssetRoute> = async (c) => {
  const asset = (await pageAssets())[c.req.valid("param").file];
  if (!asset) throw notFound();
  c.header("Cache-Control", "public, max-age=3600");
  return c.body(asset[0], 200, { "content-type": asset[1] });
};

/**
 * `GET /api/openapi.json` (generated from the route schemas) and the reference page at
 * `GET /api` with its scripts and styles served locally. Mounted last, on the whole app, so
 * the document covers every route, these three included.
 */
export function mountDocs(app: OpenAPIHono<AppEnv>) {
  registerSharedResponses(app as never);
  for (const webhook of eventWebhooks()) app.openAPIRegistry.registerWebhook(webhook);
  app.openapi(getOpenApiDocumentRoute, documentOf(app));
  app.openapi(getApiReferenceRoute, getApiReference);
  app.openapi(getReferenceAssetRoute, getReferenceAsset);
}
