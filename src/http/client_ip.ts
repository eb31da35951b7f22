import type { Context } from "hono";
import type { AppEnv } from "./env.ts";

/** The client of this request (see `ClientAddress`). */
export function clientIp(c: Context<AppEnv>): string {
  const info = c.env as Deno.ServeHandlerInfo<Deno.NetAddr> | undefined;
  return c.var.deps.clientAddress.of(c.req.header("x-forwarded-for"), info?.remoteAddr?.hostname);
}
