import type { Config } from "../config.ts";
import { displayNameFrom } from "../domain/account/profile.ts";
import type { VerifiedIdentity } from "../domain/account/user.ts";
import { SignInError } from "../errors.ts";
import { callUpstream } from "./upstream.ts";

const SERVICE = "Chat platform";
const UNREACHABLE = { code: "provider_unreachable" };

interface AuthorizationInfo {
  application?: { id?: unknown };
}

interface PlatformUser {
  id?: unknown;
  username?: unknown;
  global_name?: unknown;
  email?: unknown;
  verified?: unknown;
}

/**
 * Verifies a chat-platform OAuth access token with the platform itself: `GET /oauth2/@me` says
 * which application the token was issued to (it must be ours, or a token granted to any other
 * app could sign in here) and `GET /users/@me` who it belongs to.
 */
export async function verifyDiscordToken(
  config: Config["discord"],
  clientId: string,
  accessToken: string,
): Promise<VerifiedIdentity> {
  const init = { headers: { authorization: `Bearer ${accessToken}` } };
  const [authorization, me] = await Promise.all([
    callUpstream(SERVICE, `${config.apiBase}/oauth2/@me`, init, UNREACHABLE),
    callUpstream(SERVICE, `${config.apiBase}/users/@me`, init, UNREACHABLE),
  ]);
  for (const answer of [authorization, me]) {
    if (answer.status === 401) {
      throw new SignInError("invalid_token", "Chat-platform token is invalid");
    }
    if (answer.status !== 200 || typeof answer.body !== "object" || answer.body === null) {
      throw new SignInError("provider_error", `${SERVICE} answered HTTP ${answer.status}`);
    }
  }
  const app = (authorization.body as AuthorizationInfo).application;
  if (String(app?.id) !== clientId) {
    throw new SignInError(
      "invalid_token",
      "Chat-platform token was issued to another application",
    );
  }
  const user = me.body as PlatformUser;
  if (typeof user.id !== "string" || !user.id) {
    throw new SignInError("provider_error", `${SERVICE} sent no user id`);
  }
  return {
    provider: "discord",
    subject: user.id,
    email: typeof user.email === "string" ? user.email : undefined,
    emailVerified: user.verified === true,
    displayName: displayNameFrom(user.global_name) ?? displayNameFrom(user.username),
  };
}
