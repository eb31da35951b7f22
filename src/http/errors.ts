import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "@hono/zod-openapi";
import { AccountGoneError, ConflictError, SignInError, UpstreamError } from "../errors.ts";

/**
 * An error the API answers with: status, message and the spec's extra fields
 * (`reason`, `cap`, `used`, `blockedSender`, `code`). Thrown or returned at boundaries and
 * turned into `{error, ...extra}` in one place ({@link errorResponse}).
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = "Not found") => new ApiError(404, what);
export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = () => new ApiError(401, "Unauthorized");

export const TOO_LARGE_MESSAGE = "Request body too large (limit 2 MiB).";

/** The error body schema every error response shares, for the OpenAPI document. */
export const ErrorSchema = z.object({ error: z.string() }).passthrough().openapi("Error");

/** Statuses of the sign-in codes identity providers give (see `SignInError`). */
const SIGN_IN_STATUS = {
  invalid_token: 401,
  expired_token: 401,
  provider_unreachable: 502,
  provider_error: 502,
} as const;

/**
 * The one error-to-response mapping: `ApiError` as it says; the neutral errors of layers below
 * HTTP (`src/errors.ts`) by kind; anything else is a 500 whose message is never sent.
 */
export function errorResponse(c: Context, err: unknown): Response {
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json({ error: err.message, ...err.extra }, err.status);
  }
  if (err instanceof ConflictError) return c.json({ error: err.message }, 409);
  // The caller's account was deleted mid-request: the same 401 as any dead credential.
  if (err instanceof AccountGoneError) return c.json({ error: "Unauthorized" }, 401);
  if (err instanceof UpstreamError) return c.json({ error: err.message, ...err.details }, 502);
  if (err instanceof SignInError) {
    return c.json({ error: err.message, code: err.code }, SIGN_IN_STATUS[err.code]);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return c.json({ error: err.message || "Request failed" }, status);
  }
  return c.json({ error: "Internal server error" }, 500);
}

/**
 * Marks a validation issue meaning "this value names nothing": the answer is the issue's
 * message as a 404, as for an unknown value, not a 400 (see `resourceParam` in scope.ts).
 */
export const NAMES_NOTHING = "namesNothing";

/** What a failed request validation answers: 404 for a value naming nothing, else 400. */
export function validationError(error: z.ZodError): ApiError {
  const nothing = error.issues.find((i) => i.code === "custom" && i.params?.[NAMES_NOTHING]);
  return nothing ? notFound(nothing.message) : badRequest(describeZodError(error));
}

/** `itemSummary is required`, `limit: Too big: expected number to be <=200`, ... */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue.path.map(String).join(".") || "body";
  return issue.message === REQUIRED ? `${field} is required` : `${field}: ${issue.message}`;
}

const REQUIRED = "__required__";

// A missing field reads as "x is required" rather than "expected string, received undefined"
// (or, for a required enum, "expected one of ...").
z.config({
  customError: (iss) =>
    (iss.code === "invalid_type" || iss.code === "invalid_value") && iss.input === undefined
      ? REQUIRED
      : undefined,
});
