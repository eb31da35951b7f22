import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { EMAIL_MAX, toPublicUser } from "../domain/user.ts";
import { bearer, currentUser, workspaceOf } from "../http/auth.ts";
import { sessionFor, sessionIssuing } from "../http/session.ts";
import { sendVerificationMail } from "../http/verification_mail.ts";
import { clientIp } from "../http/client_ip.ts";
import type { AppEnv } from "../http/env.ts";
import { ApiError, badRequest } from "../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema, optionalAuth } from "../http/openapi.ts";
import { createRouter } from "../http/router.ts";
import { sha256Hex } from "../lib/crypto.ts";
import { hashPassword, verifyPassword } from "../lib/password.ts";
import type { Mail } from "../vendors/mailer.ts";
import { verifyTurnstile } from "../vendors/turnstile.ts";
import {
  DisplayNameField,
  SessionSchema,
  SnapshotSchema,
  TimezoneField,
  UsernameField,
  UserSchema,
} from "../schemas/account.ts";
import { endSession } from "../store/credentials.ts";
import { issueResetToken, resetPassword } from "../store/password_resets.ts";
import { buildSnapshot } from "../store/snapshot.ts";
import { registrationGuard } from "../store/invitations.ts";
import { REFUSAL_TEXT } from "../domain/registration.ts";
import { createUser, findUserByLogin, findUserIdByEmail, getUser } from "../store/users.ts";

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

const PASSWORD_RULE = "must be 8 to 256 characters";
const PasswordField = z.string().min(8, PASSWORD_RULE).max(256, PASSWORD_RULE).openapi({
  description: "8 to 256 characters",
});
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

const register = createRoute({
  method: "post",
  path: "/auth/register",
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

const login = createRoute({
  method: "post",
  path: "/auth/login",
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

const forgot = createRoute({
  method: "post",
  path: "/auth/forgot-password",
  tags: ["Authentication"],
  summary: "Mail a password-reset link",
  description: "Answers `{ok: true}` whether or not the account exists. The link " +
    "(`{BASE_URL}/reset-password?token=...`) carries a one-time token valid for 1 hour; the " +
    "mail goes through `SMTP_URL`, or to the service log when that is unset.",
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
}).openapi("ResetPasswordRequest");

const reset = createRoute({
  method: "post",
  path: "/auth/reset-password",
  tags: ["Authentication"],
  summary: "Set a new password with a reset token",
  description: "Spends the token, sets the password, marks the email verified (the link " +
    "reached its mailbox), ends every older session of the account and signs in.",
  ...sessionIssuing,
  request: { body: jsonBody(ResetBody) },
  responses: {
    200: jsonResponse(SessionSchema, "Password changed; a new session"),
    ...errors(400, 413, 429),
  },
});

const endSessionRoute = createRoute({
  method: "delete",
  path: "/auth/session",
  tags: ["Authentication"],
  summary: "Sign out",
  description: "Deletes the session token of the `Authorization` header, if it is one. " +
    "Always `{ok: true}`; API keys are never touched.",
  ...optionalAuth,
  responses: { 200: jsonResponse(OkSchema, "Signed out"), ...errors(413) },
});

const MeSchema = z.object({ user: UserSchema, state: SnapshotSchema }).openapi("Me");

const me = createRoute({
  method: "get",
  path: "/auth/me",
  tags: ["Authentication"],
  summary: "The caller's account and workspace snapshot",
  ...authed,
  responses: {
    200: jsonResponse(MeSchema, "`user` and `state` (the workspace snapshot)"),
    ...errors(401),
  },
});

const INVALID_LOGIN = "Invalid email or password";

function resetMail(baseUrl: string, to: string, token: string): Mail {
  const link = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: "Reset your password",
    text: `Someone asked to reset the password of the account ${to}.\n\n` +
      `Open this link within one hour to choose a new password:\n\n${link}\n\n` +
      "If it was not you, ignore this message: your password stays as it is.\n",
  };
}

export const authRoutes = createRouter()
  .openapi(register, async (c) => {
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
  })
  .openapi(login, async (c) => {
    const body = c.req.valid("json");
    await requireBotCheck(c, body.turnstileToken);
    const user = await findUserByLogin(c.var.deps.kv, body.email);
    const matches = await verifyPassword(body.password, user?.passwordHash);
    if (!user || !matches) throw new ApiError(401, INVALID_LOGIN);
    return c.json(await sessionFor(c, user), 200);
  })
  .openapi(forgot, async (c) => {
    const { kv, now, config, mailer, background } = c.var.deps;
    const userId = await findUserIdByEmail(kv, c.req.valid("json").email);
    const user = userId ? await getUser(kv, userId) : null;
    const token = user ? await issueResetToken(kv, user.id, now()) : null;
    if (user && token) {
      // Sent after answering: how long the mail server takes must not tell who has an account.
      const mail = resetMail(config.baseUrl, user.email, token);
      background.run("password-reset mail", () => mailer.send(mail));
    }
    return c.json({ ok: true as const }, 200);
  })
  .openapi(reset, async (c) => {
    const { token, password } = c.req.valid("json");
    const { kv, now } = c.var.deps;
    const user = await resetPassword(kv, token, await hashPassword(password), now());
    if (!user) throw badRequest("Reset token is invalid, used or expired");
    return c.json(await sessionFor(c, user), 200);
  })
  .openapi(endSessionRoute, async (c) => {
    const token = bearer(c.req.header("authorization"));
    if (token && !token.startsWith("sk_")) await endSession(c.var.deps.kv, await sha256Hex(token));
    return c.json({ ok: true as const }, 200);
  })
  .openapi(me, async (c) => {
    const user = await currentUser(c);
    const state = await buildSnapshot(workspaceOf(c, user));
    return c.json({ user: toPublicUser(user), state }, 200);
  });
