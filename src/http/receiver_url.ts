import type { AppDeps } from "../deps.ts";
import { ApiError } from "./errors.ts";

/**
 * Applies the private-address rule to a URL a user gives for the service to call
 * (webhook subscriptions, bot `outputWebhook`, settings fields): 400 `<field>: <why>` when
 * refused (with `address`, the refused address it resolved to, for the private-address rule),
 * otherwise the URL in its normalised form (what is stored is what was checked).
 */
export async function checkedReceiverUrl(
  deps: AppDeps,
  field: string,
  raw: string,
): Promise<string> {
  const checked = await deps.outbound.check(raw);
  if (checked.ok) return checked.url.href;
  if (checked.detail) deps.log.info("receiver URL refused", { field, detail: checked.detail });
  // The refused address is named (`address`): what a developer would put in
  // ALLOWED_PRIVATE_ADDRESSES to reach a receiver on their own machine.
  throw new ApiError(
    400,
    `${field}: ${checked.error}`,
    checked.address ? { address: checked.address } : {},
  );
}

/**
 * An optional receiver URL setting as a change: undefined leaves it unchanged, "" or null clears
 * it, a URL is checked (`checkedReceiverUrl`) and stored normalised.
 */
export async function receiverUrlChange(
  deps: AppDeps,
  field: string,
  value: string | null | undefined,
): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  return await checkedReceiverUrl(deps, field, value);
}
