import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import type { Config } from "../config.ts";
import { displayNameFrom } from "../domain/account/profile.ts";
import { SignInError } from "../errors.ts";
import type { VerifiedIdentity } from "../domain/account/user.ts";
import { UPSTREAM_TIMEOUT_MS } from "./upstream.ts";

/** Asymmetric algorithms only: a shared-secret (HS*) token could be forged by anyone holding it. */
const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];

/** Checks sign-in-service tokens; undefined when the deployment has no sign-in service. */
export interface AtlasVerifier {
  verify(token: string, now: number): Promise<VerifiedIdentity>;
}

/**
 * Verifies a sign-in-service token as a JWT signed by a key of the issuer's JWKS (fetched and
 * cached by jose, refetched when an unknown key id shows up): signature, `iss`, `aud`, `exp`
 * (required), `nbf`, and a subject.
 */
export function createAtlasVerifier(config: Config["atlas"]): AtlasVerifier | undefined {
  const { issuer, jwksUrl, audience } = config;
  if (!issuer || !jwksUrl || !audience) return undefined;
  const jwks = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: UPSTREAM_TIMEOUT_MS });
  return {
    async verify(token, now) {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          issuer,
          audience,
          algorithms: ALGORITHMS,
          currentDate: new Date(now),
          requiredClaims: ["sub", "exp"],
        }));
      } catch (err) {
        throw describe(err);
      }
      return {
        provider: "atlas",
        subject: payload.sub!,
        email: typeof payload.email === "string" ? payload.email : undefined,
        emailVerified: payload.email_verified === true,
        displayName: displayNameFrom(payload.name),
      };
    },
  };
}

function describe(err: unknown): SignInError {
  if (err instanceof errors.JWTExpired) {
    return new SignInError("expired_token", "Sign-in token has expired");
  }
  // The key set could not be fetched or read: the sign-in service, not the token, is at fault.
  const keysUnavailable = !(err instanceof errors.JOSEError) ||
    err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid ||
    err.code === "ERR_JOSE_GENERIC";
  if (keysUnavailable) {
    return new SignInError("provider_unreachable", "Sign-in service is unreachable");
  }
  return new SignInError("invalid_token", "Sign-in token is invalid");
}
