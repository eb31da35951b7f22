import type { Context } from "hono";

/** The first address in X-Forwarded-For, else the connection's address. */
export function clientIp(c: Context): string {
  const forwarded = c.req.header("x-forwarded-for");
  if (forwarded) {
    const first = forwarded.split(",")[0].trim();
    if (first) return first;
  }
  const info = c.env as Deno.ServeHandlerInfo<Deno.NetAddr> | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}
