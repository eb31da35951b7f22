import type { MiddlewareHandler } from "hono";
import { resolveToken } from "../store/credentials.ts";
import type { AppEnv } from "./env.ts";
import { unauthorized } from "./errors.ts";

function bearer(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ ]+([^\s]+)\s*$/i);
  return match ? match[1] : null;
}

function authenticate(sessionOnly: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearer(c.req.header("authorization"));
    if (!token) throw unauthorized();
    const { kv, now, apiKeyUse } = c.var.deps;
    const principal = await resolveToken(kv, token, now());
    if (!principal || (sessionOnly && principal.kind !== "session")) throw unauthorized();
    if (principal.kind === "apiKey") apiKeyUse.record(principal.credentialId, now());
    c.set("auth", principal);
    await next();
  };
}

/** Either token type (Authorization: Bearer only; cookies and query tokens are never read). */
export const requireAuth = authenticate(false);
/** Session tokens only: export and account deletion. */
export const requireSession = authenticate(true);
