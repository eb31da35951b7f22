/**
 * Failures that are not HTTP: thrown by storage, jobs and vendor clients, and mapped to a
 * status once, in `http/errors.ts`. This module imports nothing, so every layer may use it.
 */

/** Optimistic-concurrency retries ran out, or a value changed under a multi-step write. */
export class ConflictError extends Error {
  override name = "ConflictError";
}

/** The account a change was for no longer exists (deleted while the request ran). */
export class AccountGoneError extends Error {
  override name = "AccountGoneError";
  constructor(message = "The account no longer exists") {
    super(message);
  }
}

/**
 * A service the deployment relies on (sign-in service, chat platform, bot-check, billing,
 * carriers) could not be reached or gave no usable answer. `details` are safe to show.
 */
export class UpstreamError extends Error {
  override name = "UpstreamError";
  constructor(
    readonly service: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Why an identity provider refused or failed a sign-in; `code` is shown to the client. */
export type SignInCode =
  | "invalid_token"
  | "expired_token"
  | "provider_unreachable"
  | "provider_error";

/** A sign-in token the identity provider (or its key set) did not accept. */
export class SignInError extends Error {
  override name = "SignInError";
  constructor(readonly code: SignInCode, message: string) {
    super(message);
  }
}
