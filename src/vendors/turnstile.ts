import { UpstreamError } from "../errors.ts";
import { callUpstream } from "./upstream.ts";

export type BotCheck = { ok: true } | { ok: false; reason: string };

const SERVICE = "Bot-check service";

/**
 * Asks the bot-check service (Cloudflare Turnstile's siteverify protocol: a form POST of
 * `secret`, `response` and `remoteip`, answered with `{success, "error-codes"}`) whether a
 * widget token is good. A service that is down or answers nonsense is an `UpstreamError`.
 */
export async function verifyTurnstile(
  verifyUrl: string,
  secretKey: string,
  token: string,
  remoteIp: string | undefined,
): Promise<BotCheck> {
  const form = new URLSearchParams({ secret: secretKey, response: token });
  if (remoteIp) form.set("remoteip", remoteIp);
  const answer = await callUpstream(SERVICE, verifyUrl, { method: "POST", body: form });
  const body = answer.body as { success?: unknown; "error-codes"?: unknown } | undefined;
  if (answer.status !== 200 || typeof body?.success !== "boolean") {
    throw new UpstreamError(SERVICE, `${SERVICE} answered HTTP ${answer.status} without a verdict`);
  }
  if (body.success) return { ok: true };
  const codes = Array.isArray(body["error-codes"])
    ? body["error-codes"].filter((c) => typeof c === "string")
    : [];
  return { ok: false, reason: codes.length ? codes.join(", ") : "rejected" };
}
