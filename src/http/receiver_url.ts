import type { AppDeps } from "../deps.ts";
import { ApiError } from "./errors.ts";

/**
 * Applies the private-address rule to a URL a user gives for the service to call
 * (webhook subscriptions, bot `outputWebhook`, settings fields): 400 `<field>: <why>` when
 * refused, otherwise the URL in its normalised form (what is stored is what was checked).
 */
export async function checkedReceiverUrl(
  deps: AppDeps,
  field: string,
  raw: string,
): Promise<string> {
  const checked = await deps.outbound.check(raw);
  if (checked.ok) return checked.url.href;
  if (checked.detail) deps.log.info("receiver URL refused", { field, detail: checked.detail });
  throw new ApiError(400, `${field}: ${checked.error}`);
}
