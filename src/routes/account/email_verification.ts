import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth.ts";
import { currentUser } from "../../http/auth.ts";
import { badRequest, unauthorized } from "../../http/errors.ts";
import { authed, errors, jsonBody, jsonResponse, OkSchema } from "../../http/openapi.ts";
import { rateLimit } from "../../http/rate_limit.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { sendVerificationMail } from "../../http/verification_mail.ts";
import { toPublicUser } from "../../domain/account/user.ts";
import { UserResponseSchema } from "../../schemas/account/account.ts";
import { confirmEmail } from "../../store/account/email_verifications.ts";

const TAGS = ["Authentication"];

const requestRoute = createRoute({
  ...authed,
  method: "post",
  path: "/verify-email/request",
  tags: TAGS,
  summary: "Mail a link that verifies the account's email",
  description: "Session token or API key. The link (`{BASE_URL}/verify-email?token=...`) " +
    "carries a one-time token valid 24 hours, mailed through `SMTP_URL` (or written to the " +
    "service log when that is unset). An already verified account gets `{ok: true}` and no " +
    "mail. 3 requests a minute per account.",
  middleware: [
    requireAuth,
    rateLimit({
      name: "verify-email",
      limit: 3,
      key: (c) => c.var.auth.userId,
      message: "Too many verification mails asked for; try again in a minute",
    }),
  ],
  responses: { 200: jsonResponse(OkSchema, "Mailed"), ...errors(401, 413, 429) },
});

const ConfirmBody = z.object({
  token: z.string().min(1, "must not be empty").max(200).openapi({
    description: "The token of the verification link",
  }),
}).openapi("VerifyEmailRequest");

const verifyEmailRoute = createRoute({
  method: "post",
  path: "/verify-email",
  tags: TAGS,
  summary: "Verify the account's email with a mailed token",
  description: "No token needed: the link is the credential. Spends the token and sets " +
    "`emailVerified`; 400 for an unknown, used or expired token.",
  security: [],
  request: { body: jsonBody(ConfirmBody) },
  responses: {
    200: jsonResponse(UserResponseSchema, "Verified"),
    ...errors(400, 413),
  },
});

export const request: AppRouteHandler<typeof requestRoute> = async (c) => {
  const user = await currentUser(c);
  if (!user.emailVerified && !(await sendVerificationMail(c.var.deps, user))) {
    throw unauthorized();
  }
  return c.json({ ok: true as const }, 200);
};

export const verifyEmail: AppRouteHandler<typeof verifyEmailRoute> = async (c) => {
  const { kv, now } = c.var.deps;
  const user = await confirmEmail(kv, c.req.valid("json").token, now());
  if (!user) throw badRequest("Verification token is invalid, used or expired");
  return c.json({ user: toPublicUser(user) }, 200);
};

export const emailVerificationRoutes = createRouter()
  .openapi(requestRoute, request)
  .openapi(verifyEmailRoute, verifyEmail);
