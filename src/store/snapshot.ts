import { type PublicUser, toPublicUser, type UserRecord } from "../domain/user.ts";
import type { ApiKeyUseRecorder } from "./api_key_use.ts";
import { settingsSection } from "./settings.ts";
import { webhookSubscriptionsSection } from "./webhook_subscriptions.ts";
import { orderAnalytics, ordersSection } from "./orders.ts";

/** What a section of the snapshot or the export is read from. */
export interface WorkspaceContext {
  kv: Deno.Kv;
  user: UserRecord;
  now: number;
  apiKeyUse: ApiKeyUseRecorder;
}

type Loader<T> = (ctx: WorkspaceContext) => Promise<T>;

/** A collection whose capability stores nothing yet. */
export const noItems = (): Promise<never[]> => Promise.resolve([]);

/** A record of a collection, as its own endpoints return it. */
export type Item = Record<string, unknown>;

/** `GET /api/state` and the `state` of `GET /api/auth/me`: every key the spec lists. */
export interface WorkspaceSnapshot {
  user: PublicUser;
  settings: Record<string, unknown>;
  /** Each bot with `stats` and `recentOrders`. */
  bots: Item[];
  emailSources: Item[];
  /** Every order of the workspace. */
  orders: Item[];
  analytics: Record<string, unknown>;
  /** Built-in and custom templates. */
  templates: Item[];
  /** Recurring costs. */
  subscriptions: Item[];
  /** Webhook subscriptions as their list shows them (no signing secrets). */
  webhookSubscriptions: Item[];
}

/**
 * One loader per snapshot section: each capability puts its reader here (one line each);
 * sections whose capability stores nothing yet are empty.
 */
const SECTIONS: { [K in Exclude<keyof WorkspaceSnapshot, "user">]: Loader<WorkspaceSnapshot[K]> } =
  {
    settings: settingsSection,
    bots: noItems,
    emailSources: noItems,
    orders: ordersSection,
    analytics: orderAnalytics,
    templates: noItems,
    subscriptions: noItems,
    webhookSubscriptions: webhookSubscriptionsSection,
  };

/** Reads every section at once (they are independent). */
export async function loadSections<S extends Record<string, Loader<unknown>>>(
  sections: S,
  ctx: WorkspaceContext,
): Promise<{ [K in keyof S]: Awaited<ReturnType<S[K]>> }> {
  const names = Object.keys(sections);
  const values = await Promise.all(names.map((name) => sections[name](ctx)));
  return Object.fromEntries(names.map((name, i) => [name, values[i]])) as {
    [K in keyof S]: Awaited<ReturnType<S[K]>>;
  };
}

export async function buildSnapshot(ctx: WorkspaceContext): Promise<WorkspaceSnapshot> {
  return { user: toPublicUser(ctx.user), ...await loadSections(SECTIONS, ctx) };
}
