import { compact } from "../lib/compact.ts";
import { keys } from "./keys.ts";
import type { WorkspaceContext } from "./sections.ts";
import { commit, withRetry } from "./kv.ts";

/** Workspace settings (`POST /api/settings`; the snapshot's and export's `settings`). */
export type WorkspaceSettings = {
  /** Where new orders are forwarded when `forwardOn` is true. */
  outputWebhook?: string;
  /** Where order updates are posted. */
  updatesWebhook?: string;
  forwardOn: boolean;
  updatedAt?: string;
};

/** A change: a URL sets the field, null clears it, undefined leaves it alone. */
export interface SettingsChanges {
  outputWebhook?: string | null;
  updatesWebhook?: string | null;
  forwardOn?: boolean;
}

const DEFAULTS: WorkspaceSettings = { forwardOn: false };

export async function getSettings(kv: Deno.Kv, userId: string): Promise<WorkspaceSettings> {
  return (await kv.get<WorkspaceSettings>(keys.settings(userId))).value ?? DEFAULTS;
}

/** The snapshot's and export's `settings`. */
export function settingsSection(ctx: WorkspaceContext) {
  return getSettings(ctx.kv, ctx.user.id);
}

/** Applies only the fields given, on top of the stored settings. */
export async function updateSettings(
  kv: Deno.Kv,
  userId: string,
  changes: SettingsChanges,
  now: number,
): Promise<WorkspaceSettings> {
  const key = keys.settings(userId);
  return await withRetry(async () => {
    const entry = await kv.get<WorkspaceSettings>(key);
    const merged: Record<string, unknown> = { ...(entry.value ?? DEFAULTS) };
    for (const [field, value] of Object.entries(changes)) {
      if (value !== undefined) merged[field] = value;
    }
    merged.updatedAt = new Date(now).toISOString();
    const next = compact(merged) as unknown as WorkspaceSettings;
    return { commit: await commit(kv.atomic().check(entry).set(key, next)), value: next };
  });
}
