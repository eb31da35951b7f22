import { type PublicUser, toPublicUser } from "../domain/account/user.ts";
import { ordersSection } from "./orders/list.ts";
import { analyticsSection } from "./insights/queries.ts";
import { type Item, type Loader, loadSections, type WorkspaceContext } from "./sections.ts";
import { botsSection } from "./chat/bots.ts";
import { emailSourcesSection } from "./intake/email_sources.ts";
import { settingsSection } from "./account/settings.ts";
import { templatesSection } from "./intake/templates.ts";
import { webhookSubscriptionsSection } from "./webhooks/subscriptions.ts";
import { recurringCostsSection } from "./insights/recurring_costs.ts";

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
    bots: botsSection,
    emailSources: emailSourcesSection,
    orders: ordersSection,
    analytics: analyticsSection,
    templates: templatesSection,
    subscriptions: recurringCostsSection,
    webhookSubscriptions: webhookSubscriptionsSection,
  };

export async function buildSnapshot(ctx: WorkspaceContext): Promise<WorkspaceSnapshot> {
  return { user: toPublicUser(ctx.user), ...await loadSections(SECTIONS, ctx) };
}
