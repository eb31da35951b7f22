// @ts-check
/**
 * The one way screens reach the service: the openapi-fetch client typed by the types
 * openapi-typescript generates from GET /api/openapi.json (../generated/openapi.d.ts). A path, parameter
 * or field the API no longer has fails `deno check`.
 */
import createClient from "openapi-fetch";
import { session, signedOut } from "./session.js";

/** @typedef {import("../generated/openapi.d.ts").paths} paths */
/** @typedef {import("../generated/openapi.d.ts").components["schemas"]} Schemas */

/** @type {import("openapi-fetch").Client<paths>} */
export const api = createClient({ baseUrl: location.origin });

api.use({
  onRequest({ request }) {
    const current = session();
    if (current) request.headers.set("Authorization", `Bearer ${current.token}`);
    return request;
  },
  onResponse({ request, response }) {
    // The session ended elsewhere (signed out, expired, password reset): back to sign-in.
    if (response.status === 401 && request.headers.has("Authorization")) signedOut();
    return response;
  },
});

/** An answer other than 2xx, or no answer: what the person sees next to what caused it. */
export class ApiError extends Error {
  /**
   * @param {number} status 0 when the service could not be reached
   * @param {string} message
   * @param {Record<string, unknown>} [body]
   */
  constructor(status, message, body = {}) {
    super(message);
    this.status = status;
    this.body = body;
    /** The request field the API named (`url`, `fields.orderNumber`), if it named one. */
    this.field = fieldOf(message);
  }
}

/**
 * The field an API error message names: `<field> is required` or `<field>: <why>`.
 * @param {string} message
 */
export function fieldOf(message) {
  const match = /^([A-Za-z][\w.]*)(?: is required|: )/.exec(message);
  return match ? match[1] : undefined;
}

/**
 * An error as a person reads it next to the field it names: without the `<field>: ` prefix
 * (the label says which field), and for a refused private address, which address it was and
 * the setting a developer uses to allow it.
 * @param {Error} error
 */
export function fieldMessage(error) {
  const field = /** @type {{field?: string}} */ (error).field;
  let text = field && error.message.startsWith(`${field}: `)
    ? error.message.slice(field.length + 2)
    : error.message;
  text = text.charAt(0).toUpperCase() + text.slice(1);
  const address = error instanceof ApiError ? error.body.address : undefined;
  if (typeof address === "string") {
    text += ` (it leads to ${address}). On a development machine, the server's operator can ` +
      "allow that address with ALLOWED_PRIVATE_ADDRESSES.";
  }
  return text;
}

/**
 * The data of a 2xx answer, else an ApiError with the API's own message.
 * @template T
 * @param {Promise<{data?: T, error?: unknown, response: Response}>} call
 * @returns {Promise<T>}
 */
export async function ok(call) {
  let result;
  try {
    result = await call;
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "Cannot reach the service. Check the connection and try again.");
  }
  const { data, error, response } = result;
  if (response.ok) return /** @type {T} */ (data);
  const body = /** @type {Record<string, unknown>} */ (
    error && typeof error === "object" ? error : {}
  );
  const message = typeof body.error === "string"
    ? body.error
    : `The service answered ${response.status} ${response.statusText}`.trim();
  throw new ApiError(response.status, message, body);
}
