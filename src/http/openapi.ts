import { z } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { ErrorSchema } from "./errors.ts";
import { requireAuth, requireSession } from "./auth.ts";

/** `content` of a JSON request or response. */
export function json<T extends z.ZodType>(schema: T) {
  return { "application/json": { schema } };
}

/** A JSON request body; `required` makes the validator run whatever the Content-Type. */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return { content: json(schema), required: true, description };
}

/** A JSON response of the OpenAPI document. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { content: json(schema), description };
}

export const ERROR_TEXT: Record<number, string> = {
  400: "Missing or invalid input; `error` names the field",
  401: "Missing, invalid, revoked or expired credentials",
  402: "Plan limit reached",
  403: "Forbidden by a rule of the spec",
  404: "Not found, or owned by another account",
  409: "Conflict with existing data",
  413: "Request body over 2 MiB",
  422: "Not readable as an order",
  429: "Rate limit or resource cap reached",
  502: "An upstream service is unreachable",
  503: "Feature not configured on this deployment",
};

/** Error responses of a route: `{error}` bodies with the spec's extra fields. */
export function errors(...codes: number[]) {
  const out: Record<number, { content: ReturnType<typeof json>; description: string }> = {};
  for (const code of codes) {
    out[code] = { content: json(ErrorSchema), description: ERROR_TEXT[code] ?? "Error" };
  }
  return out;
}

/** Route settings for endpoints that take either token type. */
export const authed = {
  security: [{ Bearer: [] }],
  middleware: [requireAuth],
};

/** Route settings for endpoints that take only a session token. */
export const sessionOnly = {
  security: [{ Bearer: [] }],
  middleware: [requireSession],
};

/** Route settings for public endpoints that read a bearer token when one is sent. */
export const optionalAuth: { security: Record<string, string[]>[] } = {
  security: [{ Bearer: [] }, {}],
};

/** An `{ok: true}` body. */
export const OkSchema = z.object({ ok: z.literal(true) }).openapi("Ok");

export function registerSecurity(app: OpenAPIHono<never>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "Bearer", {
    type: "http",
    scheme: "bearer",
    description: "An API key (`sk_...`) or a session token (64 hexadecimal characters).",
  });
  const inbound = "The operator's inbound mail key (`INBOUND_MAIL_KEY`)";
  app.openAPIRegistry.registerComponent("securitySchemes", "InboundKey", {
    type: "apiKey",
    in: "header",
    name: "x-service-inbound-key",
    description: `${inbound}, in a header.`,
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "InboundKeyQuery", {
    type: "apiKey",
    in: "query",
    name: "key",
    description: `${inbound}, in the query (for mail workers that cannot set headers).`,
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "MetricsToken", {
    type: "http",
    scheme: "bearer",
    description: "The deployment's metrics token (`METRICS_TOKEN`), for `GET /metrics` only.",
  });
}
