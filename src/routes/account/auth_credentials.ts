/** The account's own ways in: change password, sign out everywhere, remove a linked sign-in. */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { IdentityProvider } from "../../domain/account/user.ts";
import { currentUser } from "../../http/auth.ts";
import type { AppEnv } from "../../http/env.ts";
import { ApiError, badRequest, notFound, unauthorized } from "../../http/errors.ts";
import { errors, jsonBody, jsonResponse, OkSchema, sessionOnly } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { resourceParam } from "../../http/scope.ts";
import { sessionFor, sessionIssuing } from "../../http/session.ts";
import { hashPassword, verifyPassword } from "../../lib/password.ts";
import { PasswordField, SessionSchema } from "../../schemas/account/account.ts";
import * as credentials from "../../store/account/credentials.ts";
import * as identities from "../../store/account/identities.ts";

const ChangePasswordBody = z.object({
  currentPassword: z.string().openapi({ description: "The account's password now" }),
  password: PasswordField,
}).openapi("ChangePasswordRequest");

const changePasswordRoute = createRoute({
  method: "post",
  path: "/change-password",
  tags: ["Authentication"],
  summary: "Change the password",
  description: "Needs the current password (400 `currentPassword: ...` when it is wrong, after " +
    "the same work as a right one; an account that signs in only through a provider has none " +
    "and sets one by password reset). Every session of the account ends, the calling one " +
    "included, and the answer carries a fresh session for the caller. API keys and linked " +
    "sign-ins stay. Session token only; shares the 10-per-minute per-IP limit of the " +
    "session-issuing endpoints.",
  security: sessionOnly.security,
  middleware: [...sessionIssuing.middleware, ...sessionOnly.middleware],
  request: { body: jsonBody(ChangePasswordBody) },
  responses: {
    200: jsonResponse(SessionSchema, "Password changed; a new session for the caller"),
    ...errors(400, 401, 413, 429),
  },
});

const SignOutEverywhereSchema = z.object({
  ok: z.literal(true),
  ended: z.number().int().openapi({ description: "How many other sessions were still valid" }),
}).openapi("SignOutEverywhere");

const endOtherSessionsRoute = createRoute({
  method: "delete",
  path: "/sessions",
  tags: ["Authentication"],
  summary: "Sign out everywhere else",
  description: "Ends every session of the account but the caller's. API keys stay (revoke " +
    "them under `/api/account/api-keys`). Session token only.",
  ...sessionOnly,
  responses: {
    200: jsonResponse(SignOutEverywhereSchema, "The other sessions ended"),
    ...errors(401, 413),
  },
});

const IDENTITY_NOT_FOUND = "Linked sign-in not found";
const PROVIDERS: readonly IdentityProvider[] = ["atlas", "discord"];

const unlinkIdentityRoute = createRoute({
  method: "delete",
  path: "/identities/{provider}",
  tags: ["Authentication"],
  summary: "Remove a linked sign-in",
  description: "Unlinks the account from the provider (`atlas`: the sign-in service, " +
    "`discord`: the chat platform); signing in there no longer reaches this account. 409 when " +
    "it is the only way in (no password and no other link: set a password by reset first); " +
    "404 when the account has no link to that provider. Session token only.",
  ...sessionOnly,
  request: {
    params: resourceParam("provider", IDENTITY_NOT_FOUND, { example: "atlas", max: 16 }),
  },
  responses: {
    200: jsonResponse(OkSchema, "Unlinked"),
    ...errors(401, 404, 409, 413),
  },
});

/** The calling session's token hash (the routes here take sessions only). */
const callerSession = (c: Context<AppEnv>) => c.var.auth.credentialId;

export const changePassword: AppRouteHandler<typeof changePasswordRoute> = async (c) => {
  const { currentPassword, password } = c.req.valid("json");
  const { kv, now } = c.var.deps;
  const user = await currentUser(c);
  if (!await verifyPassword(currentPassword, user.passwordHash)) {
    throw badRequest("currentPassword: is not the account's password");
  }
  const changed = await credentials.changePassword(
    kv,
    user.id,
    await hashPassword(password),
    now(),
  );
  if (!changed) throw unauthorized();
  return c.json(await sessionFor(c, changed), 200);
};

export const endOtherSessions: AppRouteHandler<typeof endOtherSessionsRoute> = async (c) => {
  const { kv, now } = c.var.deps;
  const ended = await credentials.endAllSessions(kv, c.var.auth.userId, {
    keep: callerSession(c),
    now: now(),
  });
  return c.json({ ok: true as const, ended }, 200);
};

export const unlinkIdentity: AppRouteHandler<typeof unlinkIdentityRoute> = async (c) => {
  const provider = c.req.valid("param").provider as IdentityProvider;
  if (!PROVIDERS.includes(provider)) throw notFound(IDENTITY_NOT_FOUND);
  switch (await identities.unlinkIdentity(c.var.deps.kv, c.var.auth.userId, provider)) {
    case "removed":
      return c.json({ ok: true as const }, 200);
    case "not_linked":
      throw notFound(IDENTITY_NOT_FOUND);
    case "last_way_in":
      throw new ApiError(
        409,
        "This is the only way to sign in to the account; set a password first",
      );
    case "account_gone":
      throw unauthorized();
  }
};

export const authCredentialRoutes = createRouter()
  .openapi(changePasswordRoute, changePassword)
  .openapi(endOtherSessionsRoute, endOtherSessions)
  .openapi(unlinkIdentityRoute, unlinkIdentity);
