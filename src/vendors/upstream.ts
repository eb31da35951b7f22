import { UpstreamError } from "../errors.ts";

/** Deadline of one call to a sign-in or bot-check service, answer included. */
export const UPSTREAM_TIMEOUT_MS = 5000;

export interface UpstreamAnswer {
  status: number;
  /** The parsed JSON body; undefined when it was not JSON. */
  body: unknown;
}

/**
 * One call to a service the deployment is configured with (its URL comes from the operator,
 * not from users, so the private-address rule does not apply). Redirects are not followed.
 * No answer within the deadline, or no connection at all, is an `UpstreamError` naming the
 * service (`details` travel with it to the client, e.g. a sign-in `code`).
 */
export async function callUpstream(
  service: string,
  url: string,
  init: RequestInit = {},
  details: Record<string, unknown> = {},
): Promise<UpstreamAnswer> {
  try {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, body };
  } catch {
    throw new UpstreamError(service, `${service} is unreachable`, details);
  }
}
