import type { Context, MiddlewareHandler } from "hono";
import type { UserRecord } from "../domain/account/user.ts";
import { resolveToken } from "../store/account/credentials.ts";
import { getUser } from "../store/account/users.ts";
import type { Item, WorkspaceContext } from "../store/sections.ts";
import type { AppEnv } from "./env.ts";
import type { Principal } from "../store/account/credentials.ts";
import { unauthorized } from "./errors.ts";

/** The token of `Authorization: Bearer <token>`; cookies and query strings are never read. */
export function bearer(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ ]+([^\s]+)\s*$/i);
  return match ? match[1] : null;
}

/**
 * The caller behind the request's bearer token, or null (no token, or one that is unknown,
 * revoked, expired, or an API key where only sessions are accepted). The use of an accepted API
 * key is recorded (`lastUsedAt`) off the request's path.
 */
export async function principalOf(
  c: Context<AppEnv>,
  sessionOnly = false,
): Promise<Principal | null> {
  const token = bearer(c.req.header("authorization"));
  if (!token) return null;
  const { kv, now, apiKeyUse } = c.var.deps;
  const principal = await resolveToken(kv, token, now());
  if (!principal || (sessionOnly && principal.kind !== "session")) return null;
  if (principal.kind === "apiKey") {
    apiKeyUse.record(principal.userId, principal.credentialId, now());
  }
  return principal;
}

function authenticate(sessionOnly: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = await principalOf(c, sessionOnly);
    if (!principal) throw unauthorized();
    c.set("auth", principal);
    await next();
  };
}

/** Either token type (Authorization: Bearer only; cookies and query tokens are never read). */
export const requireAuth = authenticate(false);
/** Session tokens only: export and account deletion. */
export const requireSession = authenticate(true);

/** The authenticated caller's account; 401 when it is gone (deleted while the request ran). */
export async function currentUser(c: Context<AppEnv>): Promise<UserRecord> {
  const user = await getUser(c.var.deps.kv, c.var.auth.userId);
  if (!user) throw unauthorized();
  return user;
}

/**
 * What the snapshot and export sections read, for the caller's account. The built-in email
 * templates are the intake wing's, passed in by the route (HTTP knows no reader).
 */
export function workspaceOf(
  c: Context<AppEnv>,
  user: UserRecord,
  builtInTemplates: Item[],
): WorkspaceContext {
  const { kv, now, apiKeyUse, config } = c.var.deps;
  return {
    kv,
    user,
    now: now(),
    apiKeyUse,
    mailDomain: config.mailDomain,
    builtInTemplates,
    baseUrl: config.baseUrl,
  };
}
