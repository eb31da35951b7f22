import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import swaggerJs from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/env.ts";
import { VERSION } from "../version.ts";

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

const ASSETS: Record<string, [string, string]> = {
  "swagger-ui.css": [swaggerCss, "text/css; charset=utf-8"],
  "swagger-ui-bundle.js": [swaggerJs, "text/javascript; charset=utf-8"],
  "init.js": [INIT, "text/javascript; charset=utf-8"],
};

/**
 * `GET /api/openapi.json` (generated from the route schemas) and the reference page at
 * `GET /api` with its scripts and styles served locally. Mounted last, on the whole app, so
 * the document covers every route.
 */
export function mountDocs(app: OpenAPIHono<AppEnv>) {
  let document: unknown;
  app.get("/api/openapi.json", (c) => {
    document ??= app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Order-Tracking Service",
        version: VERSION,
        description: "Tracks online purchases from checkout to doorstep. Every path has the " +
          "`/api` prefix. Errors are `{error}` with the extra fields listed per endpoint. " +
          "Fields with no value are omitted, never null.",
      },
    });
    return c.json(document);
  });
  app.get("/api", (c) => {
    c.header("Content-Security-Policy", CSP);
    return c.html(PAGE);
  });
  app.get("/api/reference/:file", (c) => {
    const asset = ASSETS[c.req.param("file")];
    if (!asset) return c.notFound();
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(asset[0], 200, { "content-type": asset[1] });
  });
}
