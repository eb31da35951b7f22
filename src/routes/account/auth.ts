import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  RESET_ANSWER_FLOOR_MS,
  RESET_MAILS_PER_ADDRESS,
} from "../../domain/account/password_reset.ts";
import { EMAIL_MAX, linkedSignIns, toPublicUser } from "../../domain/account/user.ts";
import { bearer, currentUser, workspaceOf } from "../../http/auth.ts";
import { builtInTemplates } from "../../intake/email/templates.ts";
import { sessionFor, sessionIssuing } from "../../http/session.ts";
import { sendVerificationMail } from "../../http/verification_mail.ts";
import { clientIp } from "../../http/client_ip.ts";
import type { AppEnv } from "../../http/env.ts";
import { ApiError, badRequest } from "../../http/errors.ts";
import {
  authed,
  errors,
  jsonBody,
  jsonResponse,
  OkSchema,
  optionalAuth,
} from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import { hashPassword, verifyPassword } from "../../lib/password.ts";
import { verifyTurnstile } from "../../vendors/turnstile.ts";
import {
  DisplayNameField,
  PasswordField,
  SessionSchema,
  SnapshotSchema,
  TimezoneField,
  UsernameField,
  UserSchema,
} from "../../schemas/account/account.ts";
import { endSession } from "../../store/account/credentials.ts";
import * as passwordResets from "../../store/account/password_resets.ts";
import { buildSnapshot } from "../../store/snapshot.ts";
import { registrationGuard } from "../../store/account/invitations.ts";
import { REFUSAL_TEXT } from "../../domain/account/registration.ts";
import { resetMail } from "../../domain/account/mail.ts";
import { createUser, findUserByLogin, isOperator } from "../../store/account/users.ts";

/** With `TURNSTILE_SECRET_KEY` set, register and login need a good bot-check token. */
async function requireBotCheck(c: Context<AppEnv>, token: string | undefined) {
  const { secretKey, verifyUrl } = c.var.deps.config.turnstile;
  if (!secretKey) return;
  if (!token) throw badRequest("turnstileToken is required");
  const ip = clientIp(c);
  const verdict = await verifyTurnstile(
    verifyUrl,
    secretKey,
    token,
    ip === "unknown" ? undefined : ip,
  );
  if (!verdict.ok) throw badRequest(`Bot check failed: ${verdict.reason}`);
}

const TurnstileField = z.string().optional().openapi({
  description: "Bot-check widget token; required when the deployment has the bot-check on " +
    "(`GET /api/auth/providers` says so)",
});

const RegisterBody = z.object({
  email: z.string().trim().max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`).pipe(
    z.email("must be an email address"),
  ).openapi({ example: "sam@example.com" }),
  password: PasswordField,
  username: UsernameField.optional(),
  displayName: DisplayNameField.optional(),
  timezone: TimezoneField.optional().openapi({ description: "IANA name; default `UTC`" }),
  turnstileToken: TurnstileField,
  invite: z.string().max(200).optional().openapi({
    description: "The invitation token of an invitation link, with `REGISTRATION=invite`",
  }),
}).openapi("RegisterRequest");

const registerRoute = createRoute({
  method: "post",
  path: "/register",
  tags: ["Authentication"],
  summary: "Create an account and sign in",
  description: "The email is stored in lower case and must be unique (409), as must the " +
    "username, ignoring case. Shares the 10-per-minute per-IP limit of the session-issuing " +
    "endpoints. With `REGISTRATION=closed` only the first account is created (403 " +
    "`reason: closed` after it); with `REGISTRATION=invite` the first account, then only with " +
    "an unused `invite` (403 `reason: invitation_needed` or `invitation_invalid`).",
  ...sessionIssuing,
  request: { body: jsonBody(RegisterBody) },
  responses: {
    201: jsonResponse(SessionSchema, "Account created; a session token for it"),
    ...errors(400, 403, 409, 413, 429, 502),
  },
});

const LoginBody = z.object({
  email: z.string().min(1, "must not be empty").openapi({
    description: "The account email or username",
    example: "sam@example.com",
  }),
  password: z.string(),
  turnstileToken: TurnstileField,
}).openapi("LoginRequest");

const loginRoute = createRoute({
  method: "post",
  path: "/login",
  tags: ["Authentication"],
  summary: "Sign in with email (or username) and password",
  description: "An unknown account and a wrong password get the same 401 " +
    '`{error: "Invalid email or password"}` after the same amount of work.',
  ...sessionIssuing,
  request: { body: jsonBody(LoginBody) },
  responses: {
    200: jsonResponse(SessionSchema, "Signed in"),
    ...errors(400, 401, 413, 429, 502),
  },
});

const ForgotBody = z.object({
  email: z.string().min(1, "must not be empty").openapi({ example: "sam@example.com" }),
}).openapi("ForgotPasswordRequest");

const forgotPasswordRoute = createRoute({
  method: "post",
  path: "/forgot-password",
  tags: ["Authentication"],
  summary: "Mail a password-reset link",
  description: "Answers `{ok: true}` whether or not the account exists, after the same work " +
    `and no sooner than ${RESET_ANSWER_FLOOR_MS} ms. ` +
    "The link (`{BASE_URL}/reset-password?token=...`) carries a one-time token valid for 1 " +
    "hour; the mail goes through `SMTP_URL`, or to the service log when that is unset. Besides " +
    "the per-IP limit of the session-issuing endpoints, one address gets at most " +
    `${RESET_MAILS_PER_ADDRESS} requests an hour, counted whether or not it has an account ` +
    "(429 with `Retry-After` in seconds).",
  ...sessionIssuing,
  request: { body: jsonBody(ForgotBody) },
  responses: {
    200: jsonResponse(OkSchema, "Accepted"),
    ...errors(400, 413, 429),
  },
});

const ResetBody = z.object({
  token: z.string().min(1, "must not be empty").openapi({
    description: "The token of the reset link",
  }),
  password: PasswordField,
  keepApiKeys: z.boolean().optional().openapi({
    description: "Keep the account's API keys (default false: they are revoked). For a reset " +
      "that is only a forgotten password, when no one else could have made keys.",
  }),
}).openapi("ResetPasswordRequest");

const ResetSchema = SessionSchema.extend({
  ended: z.object({
    sessions: z.number().int().openapi({ description: "Sessions that were still valid" }),
    apiKeys: z.number().int().openapi({ description: "API keys revoked (0 with `keepApiKeys`)" }),
    identities: z.number().int().openapi({ description: "Provider links removed" }),
  }).openapi({ description: "What the reset ended" }),
}).openapi("PasswordReset");

const resetPasswordRoute = createRoute({
  method: "post",
  path: "/reset-password",
  tags: ["Authentication"],
  summary: "Set a new password with a reset token",
  description: "Spends the token, sets the password, marks the email verified (the link " +
    "reached its mailbox) and ends every standing way into the account: every older session, " +
    "every provider link and, unless `keepApiKeys`, every API key; then signs in. A reset " +
    "is how the owner of the address takes back an account someone else may have held, so " +
    "nothing they set up keeps working; webhook subscriptions and bot URLs stay (review them).",
  ...sessionIssuing,
  request: { body: jsonBody(ResetBody) },
  responses: {
    200: jsonResponse(ResetSchema, "Password changed; a new session and what ended"),
    ...errors(400, 413, 429),
  },
});

const deleteSessionRoute = createRoute({
  method: "delete",
  path: "/session",
  tags: ["Authentication"],
  summary: "Sign out",
  description: "Deletes the session token of the `Authorization` header, if it is one. " +
    "Always `{ok: true}`; API keys are never touched.",
  ...optionalAuth,
  responses: { 200: jsonResponse(OkSchema, "Signed out"), ...errors(413) },
});

const LinkedSignInSchema = z.object({
  provider: z.enum(["atlas", "discord"]).openapi({
    description: "`atlas`: the sign-in service; `discord`: the chat platform",
  }),
  email: z.string().openapi({ description: "The email the provider vouched for when linked" }),
  linkedAt: z.string().openapi({ description: "ISO 8601 UTC" }),
}).openapi("LinkedSignIn");

const MeSchema = z.object({
  user: UserSchema,
  state: SnapshotSchema,
  identities: z.array(LinkedSignInSchema).openapi({
    description: "The account's linked sign-ins (`DELETE /api/auth/identities/{provider}` " +
      "removes one)",
  }),
  operator: z.boolean().openapi({
    description: "Whether the account is this deployment's operator (the oldest account, or " +
      "one listed in `OPERATOR_EMAILS`), who may read `GET /api/operator/status`",
  }),
}).openapi("Me");

const getMeRoute = createRoute({
  method: "get",
  path: "/me",
  tags: ["Authentication"],
  summary: "The caller's account, workspace snapshot and linked sign-ins",
  ...authed,
  responses: {
    200: jsonResponse(MeSchema, "`user` and `state` (the workspace snapshot)"),
    ...errors(401),
  },
});

const INVALID_LOGIN = "Invalid email or password";

export const register: AppRouteHandler<typeof registerRoute> = async (c) => {
  const body = c.req.valid("json");
  await requireBotCheck(c, body.turnstileToken);
  const { kv, now } = c.var.deps;
  const created = await createUser(
    kv,
    {
      email: body.email,
      passwordHash: await hashPassword(body.password),
      username: body.username,
      displayName: body.displayName,
      timezone: body.timezone,
    },
    now(),
    registrationGuard(kv, c.var.deps.config.registration, body.invite, now()),
  );
  if (!created.ok && created.refused) {
    throw new ApiError(403, REFUSAL_TEXT[created.refused], { reason: created.refused });
  }
  if (!created.ok) {
    throw new ApiError(
      409,
      created.taken === "username" ? "Username is taken" : "Email is already registered",
    );
  }
  // With outgoing mail configured, the new address gets its verification link at once.
  if (c.var.deps.config.smtp.url) await sendVerificationMail(c.var.deps, created.user);
  return c.json(await sessionFor(c, created.user), 201);
};

export const login: AppRouteHandler<typeof loginRoute> = async (c) => {
  const body = c.req.valid("json");
  await requireBotCheck(c, body.turnstileToken);
  const user = await findUserByLogin(c.var.deps.kv, body.email);
  const matches = await verifyPassword(body.password, user?.passwordHash);
  if (!user || !matches) throw new ApiError(401, INVALID_LOGIN);
  return c.json(await sessionFor(c, user), 200);
};

export const forgotPassword: AppRouteHandler<typeof forgotPasswordRoute> = async (c) => {
  const { kv, now, config, mailer, background } = c.var.deps;
  const floor = new Promise((done) => setTimeout(done, RESET_ANSWER_FLOOR_MS));
  const request = await passwordResets.requestReset(kv, c.req.valid("json").email, now());
  if (!request.ok) {
    await floor;
    throw new ApiError(429, "Too many reset requests for this address; try again later", {}, {
      "Retry-After": String(Math.ceil(request.retryAfterMs / 1000)),
    });
  }
  if (request.mail) {
    // Sent after answering, from the next turn of the event loop: even the sending's first
    // synchronous steps (building the message, opening the connection, or the log line)
    // must not lengthen the answer of an address that has an account.
    const mail = resetMail(config.baseUrl, request.mail.to, request.mail.token);
    background.run("password-reset mail", async () => {
      await new Promise((next) => setTimeout(next, 0));
      await mailer.send(mail);
    });
  }
  await floor;
  return c.json({ ok: true as const }, 200);
};

export const resetPassword: AppRouteHandler<typeof resetPasswordRoute> = async (c) => {
  const { token, password, keepApiKeys } = c.req.valid("json");
  const { kv, now } = c.var.deps;
  const reset = await passwordResets.resetPassword(kv, token, await hashPassword(password), {
    keepApiKeys,
    now: now(),
  });
  if (!reset) throw badRequest("Reset token is invalid, used or expired");
  return c.json({ ...await sessionFor(c, reset.user), ended: reset.ended }, 200);
};

export const deleteSession: AppRouteHandler<typeof deleteSessionRoute> = async (c) => {
  const token = bearer(c.req.header("authorization"));
  if (token && !token.startsWith("sk_")) await endSession(c.var.deps.kv, await sha256Hex(token));
  return c.json({ ok: true as const }, 200);
};

export const getMe: AppRouteHandler<typeof getMeRoute> = async (c) => {
  const user = await currentUser(c);
  const state = await buildSnapshot(workspaceOf(c, user, builtInTemplates()));
  const { config, kv } = c.var.deps;
  const operator = await isOperator(kv, config.operatorEmails, user);
  return c.json(
    { user: toPublicUser(user), state, identities: linkedSignIns(user), operator },
    200,
  );
};

export const authRoutes = createRouter()
  .openapi(registerRoute, register)
  .openapi(loginRoute, login)
  .openapi(forgotPasswordRoute, forgotPassword)
  .openapi(resetPasswordRoute, resetPassword)
  .openapi(deleteSessionRoute, deleteSession)
  .openapi(getMeRoute, getMe);
