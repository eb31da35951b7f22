import { hostOf } from "../../domain/chat/outgoing.ts";
import { type Currency, currencyForTimezone } from "../../domain/insights/currency.ts";
import type { UserRecord } from "../../domain/account/user.ts";
import { compact } from "../../lib/compact.ts";
import { keys } from "../keys.ts";
import type { WorkspaceContext } from "../sections.ts";
import { commit, withRetry } from "../kv.ts";

/** Workspace settings (`POST /api/settings`; the snapshot's and export's `settings`). */
export type WorkspaceSettings = {
  /** Where new orders are forwarded when `forwardOn` is true. */
  outputWebhook?: string;
  /** Where order updates are posted. */
  updatesWebhook?: string;
  forwardOn: boolean;
  /** The workspace currency; unset: the default of the account's time zone. */
  currency?: Currency;
  updatedAt?: string;
};

/** A change: a URL sets the field, null clears it, undefined leaves it alone. */
export interface SettingsChanges {
  outputWebhook?: string | null;
  updatesWebhook?: string | null;
  forwardOn?: boolean;
  currency?: Currency;
}

const DEFAULTS: WorkspaceSettings = { forwardOn: false };

export async function getSettings(kv: Deno.Kv, userId: string): Promise<WorkspaceSettings> {
  return (await kv.get<WorkspaceSettings>(keys.settings(userId))).value ?? DEFAULTS;
}

/** The settings read along with another read (see `AlsoRead` in intake/log.ts). */
export function settingsRead(userId: string, seen: (settings: WorkspaceSettings) => void) {
  return {
    keys: [keys.settings(userId)],
    seen: ([entry]: Deno.KvEntryMaybe<unknown>[]) =>
      seen((entry?.value as WorkspaceSettings | null) ?? DEFAULTS),
  };
}

/** The snapshot's `settings`. */
export function settingsSection(ctx: WorkspaceContext) {
  return getSettings(ctx.kv, ctx.user.id);
}

/** The export's `settings`: the chat webhook URLs (their path is a credential) cut to their host. */
export async function settingsExport(ctx: WorkspaceContext) {
  const settings = await getSettings(ctx.kv, ctx.user.id);
  return compact({
    ...settings,
    outputWebhook: hostOf(settings.outputWebhook),
    updatesWebhook: hostOf(settings.updatesWebhook),
  });
}

/**
 * Applies only the fields given, on top of the stored settings. A change that leaves every
 * field as stored writes nothing (`updatedAt` stays): the dashboard reads the settings that way.
 */
export async function updateSettings(
  kv: Deno.Kv,
  userId: string,
  changes: SettingsChanges,
  now: number,
): Promise<WorkspaceSettings> {
  const key = keys.settings(userId);
  return await withRetry(async () => {
    const entry = await kv.get<WorkspaceSettings>(key);
    const stored: Record<string, unknown> = { ...(entry.value ?? DEFAULTS) };
    const merged = { ...stored };
    for (const [field, value] of Object.entries(changes)) {
      if (value !== undefined) merged[field] = value;
    }
    const same = Object.keys(merged).every((f) => (merged[f] ?? null) === (stored[f] ?? null));
    if (same) return { commit: null, value: compact(stored) as unknown as WorkspaceSettings };
    merged.updatedAt = new Date(now).toISOString();
    const next = compact(merged) as unknown as WorkspaceSettings;
    return { commit: await commit(kv.atomic().check(entry).set(key, next)), value: next };
  });
}

/** The currency the workspace counts in: its setting, else its account's time zone's. */
export function currencyOf(settings: WorkspaceSettings, user: Pick<UserRecord, "timezone">) {
  return settings.currency ?? currencyForTimezone(user.timezone);
}

/** The workspace currency read for intake (settings and account in one read). */
export async function workspaceCurrency(kv: Deno.Kv, userId: string): Promise<Currency> {
  const [settings, user] = await kv.getMany<[WorkspaceSettings, UserRecord]>([
    keys.settings(userId),
    keys.user(userId),
  ]);
  return currencyOf(settings.value ?? DEFAULTS, { timezone: user.value?.timezone ?? "UTC" });
}
