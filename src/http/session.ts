/** What every session-issuing endpoint shares: its rate limit and its answer. */
import type { Context } from "hono";
import { toPublicUser, type UserRecord } from "../domain/account/user.ts";
import { issueSession } from "../store/account/credentials.ts";
import { clientIp } from "./client_ip.ts";
import type { AppEnv } from "./env.ts";
import { rateLimit } from "./rate_limit.ts";

/**
 * The six session-issuing and recovery endpoints share one limit: 10 requests a minute per
 * client IP (spec, Rate limits).
 */
export const sessionIssuing = {
  middleware: [
    rateLimit({
      name: "session-issuing",
      limit: 10,
      key: clientIp,
      message: "Too many sign-in attempts from this address; try again in a minute",
    }),
  ],
};

/**
 * A fresh session for the account: the `{token, user}` of every session-issuing endpoint.
 * `user` is the account as the sign-in read it: if its password or links changed since (a reset
 * or password change in between), no session is issued (401).
 */
export async function sessionFor(c: Context<AppEnv>, user: UserRecord) {
  const token = await issueSession(c.var.deps.kv, user.id, c.var.deps.now(), user);
  return { token, user: toPublicUser(user) };
}
