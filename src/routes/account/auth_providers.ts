import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { VerifiedIdentity } from "../../domain/account/user.ts";
import type { AppEnv } from "../../http/env.ts";
import { ApiError } from "../../http/errors.ts";
import { errors, jsonBody, jsonResponse } from "../../http/openapi.ts";
import { type AppRouteHandler, createRouter } from "../../http/router.ts";
import { verifyDiscordToken } from "../../vendors/discord.ts";
import { SessionSchema } from "../../schemas/account/account.ts";
import { signInWithIdentity } from "../../store/account/identities.ts";
import { sessionFor, sessionIssuing } from "../../http/session.ts";
import { registrationGuard } from "../../store/account/invitations.ts";
import { REFUSAL_TEXT } from "../../domain/account/registration.ts";

const ProvidersSchema = z.object({
  password: z.boolean().openapi({ description: "Email (or username) and password; always on" }),
  botCheck: z.boolean().openapi({
    description: "Register and login need `turnstileToken`",
  }),
  atlas: z.object({ enabled: z.boolean(), issuer: z.string().optional() }).openapi({
    description: "Sign-in-service token exchange (`POST /api/auth/atlas-login`)",
  }),
  discord: z.object({ enabled: z.boolean(), clientId: z.string().optional() }).openapi({
    description: "Chat-platform OAuth (`POST /api/auth/discord/widget-verify`); `clientId` is " +
      "the OAuth application to request tokens from",
  }),
}).openapi("AuthProviders");

const getProvidersRoute = createRoute({
  method: "get",
  path: "/providers",
  tags: ["Public"],
  summary: "Sign-in methods this deployment has switched on",
  responses: { 200: jsonResponse(ProvidersSchema, "The methods") },
});

/** Failures of the provider endpoints: `{error, code}`. */
const SignInErrorSchema = z.object({ error: z.string(), code: z.string() }).openapi(
  "SignInError",
  {
    description: "`code`: `missing_token`, `invalid_token`, `expired_token`, `email_missing`, " +
      "`email_unverified`, `account_unverified`, `already_linked`, `registration_closed`, " +
      "`provider_unreachable`, `provider_error`, `not_configured`",
  },
);

const signInErrors = (codes: Record<number, string>) =>
  Object.fromEntries(
    Object.entries(codes).map(([status, description]) => [
      status,
      jsonResponse(SignInErrorSchema, description),
    ]),
  );

const PROVIDER_ERRORS = signInErrors({
  400: "`missing_token`, or `email_missing` (the identity has no email to open an account with)",
  401: "`invalid_token` or `expired_token`",
  403: "`email_unverified`: the provider did not verify the identity's email, so no account " +
    "is opened or linked with it (the same answer whether or not an account has that email); " +
    "`registration_closed`: no account has this identity and new accounts are closed " +
    "(`REGISTRATION=closed` or `invite`)",
  409: "`account_unverified` (the account with this email never verified it: its owner " +
    "verifies it or resets the password first) or `already_linked` (that account is linked " +
    "to another identity of the provider)",
  502: "`provider_unreachable` or `provider_error`: the provider could not be asked",
  503: "`not_configured`: the provider is off on this deployment",
});
const BODY_AND_RATE = errors(413, 429);

const atlasLoginRoute = createRoute({
  method: "post",
  path: "/atlas-login",
  tags: ["Authentication"],
  summary: "Exchange a sign-in-service token for a session",
  description: "The token is a JWT signed by a key of the sign-in service's JWKS " +
    "(`ATLAS_JWKS_URL`), with `iss` = `ATLAS_ISSUER`, `aud` = `ATLAS_AUDIENCE`, `exp` and " +
    "`sub`. The account linked to `sub` signs in. Otherwise nothing happens unless " +
    "`email_verified` is true: then the account with the token's `email` is linked when that " +
    "account verified its email too, or a new account is created when none has it. " +
    "Failures carry a short `code`.",
  ...sessionIssuing,
  request: {
    body: jsonBody(
      z.object({ token: z.string().optional().openapi({ description: "The JWT" }) })
        .openapi("AtlasLoginRequest"),
    ),
  },
  responses: {
    200: jsonResponse(SessionSchema, "Signed in"),
    ...PROVIDER_ERRORS,
    ...BODY_AND_RATE,
  },
});

const discordWidgetVerifyRoute = createRoute({
  method: "post",
  path: "/discord/widget-verify",
  tags: ["Authentication"],
  summary: "Sign in with a chat-platform OAuth access token",
  description:
    "The platform is asked who the token belongs to (`GET {DISCORD_API_BASE}/users/@me`) " +
    "and which application it was granted to (`GET {DISCORD_API_BASE}/oauth2/@me`, must be " +
    "`DISCORD_CLIENT_ID`). Accounts are found or created as for the sign-in service, using " +
    "the platform's verified email.",
  ...sessionIssuing,
  request: {
    body: jsonBody(
      z.object({
        accessToken: z.string().optional().openapi({ description: "OAuth2 access token" }),
      }).openapi("ChatPlatformSignInRequest"),
    ),
  },
  responses: {
    200: jsonResponse(SessionSchema, "Signed in"),
    ...PROVIDER_ERRORS,
    ...BODY_AND_RATE,
  },
});

/** `{error, code}` failures of the sign-in routes decided here (the providers' own are mapped). */
const signInFailure = (status: 400 | 403 | 409 | 503, error: string, code: string) =>
  new ApiError(status, error, { code });

const notConfigured = (provider: string) =>
  signInFailure(503, `${provider} sign-in is not configured on this deployment`, "not_configured");

const missingToken = (field: string) => signInFailure(400, `${field} is required`, "missing_token");

/** Finds or creates the identity's account and opens a session for it. */
async function signIn(c: Context<AppEnv>, identity: VerifiedIdentity) {
  const { kv, now } = c.var.deps;
  const guard = registrationGuard(kv, c.var.deps.config.registration, undefined, now());
  const result = await signInWithIdentity(kv, identity, now(), guard);
  if (result.ok) return await sessionFor(c, result.user);
  switch (result.reason) {
    case "refused":
      throw signInFailure(403, REFUSAL_TEXT[result.refused], "registration_closed");
    case "email_missing":
      throw signInFailure(400, "The identity has no email address", "email_missing");
    case "email_unverified":
      throw signInFailure(
        403,
        "The provider has not verified this email address; verify it there, then sign in again",
        "email_unverified",
      );
    case "account_unverified":
      throw signInFailure(
        409,
        "An account with this email exists but has not verified it; sign in with its password " +
          "and verify the email, or reset the password through the mailed link, then sign in " +
          "here again",
        "account_unverified",
      );
    case "already_linked":
      throw signInFailure(
        409,
        "The account with this email is linked to another identity of this provider",
        "already_linked",
      );
  }
}

export const getProviders: AppRouteHandler<typeof getProvidersRoute> = (c) => {
  const { config, atlas } = c.var.deps;
  return c.json({
    password: true,
    botCheck: Boolean(config.turnstile.secretKey),
    atlas: atlas ? { enabled: true, issuer: config.atlas.issuer } : { enabled: false },
    discord: config.discord.clientId
      ? { enabled: true, clientId: config.discord.clientId }
      : { enabled: false },
  }, 200);
};

export const atlasLogin: AppRouteHandler<typeof atlasLoginRoute> = async (c) => {
  const { atlas, now } = c.var.deps;
  if (!atlas) throw notConfigured("Sign-in service");
  const { token } = c.req.valid("json");
  if (!token) throw missingToken("token");
  return c.json(await signIn(c, await atlas.verify(token, now())), 200);
};

export const discordWidgetVerify: AppRouteHandler<typeof discordWidgetVerifyRoute> = async (c) => {
  const { config } = c.var.deps;
  const clientId = config.discord.clientId;
  if (!clientId) throw notConfigured("Chat-platform");
  const { accessToken } = c.req.valid("json");
  if (!accessToken) throw missingToken("accessToken");
  const identity = await verifyDiscordToken(config.discord, clientId, accessToken);
  return c.json(await signIn(c, identity), 200);
};

export const authProviderRoutes = createRouter()
  .openapi(getProvidersRoute, getProviders)
  .openapi(atlasLoginRoute, atlasLogin)
  .openapi(discordWidgetVerifyRoute, discordWidgetVerify);
