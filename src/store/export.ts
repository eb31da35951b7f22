import type { ApiKeyRecord } from "../domain/account/api_key.ts";
import { type PublicUser, toPublicUser } from "../domain/account/user.ts";
import { listApiKeys } from "./account/api_keys.ts";
import { botsExport } from "./chat/bots.ts";
import { emailSourcesSection } from "./intake/email_sources.ts";
import { intakeMessagesSection } from "./intake/log.ts";
import { settingsExport } from "./account/settings.ts";
import { customTemplatesSection } from "./intake/templates.ts";
import { webhookSubscriptionsSection } from "./webhooks/subscriptions.ts";
import { ordersSection } from "./orders/list.ts";
import { recurringCostsSection } from "./insights/recurring_costs.ts";
import { sharesSection } from "./insights/shares.ts";
import { type Item, loadSections, type WorkspaceContext } from "./sections.ts";

/**
 * The account export document of the spec. Secrets are left out by construction: each section
 * reads the same public shape its list endpoint returns (no password hash, no one-time
 * tokens, no key hashes, no mailbox passwords or OAuth tokens, no webhook signing secrets,
 * chat webhook URLs cut to their host).
 */
export interface AccountExport {
  exportedAt: string;
  account: PublicUser;
  settings: Record<string, unknown>;
  orders: Item[];
  emailSources: Item[];
  bots: Item[];
  customTemplates: Item[];
  subscriptions: Item[];
  /** Webhook subscriptions without their signing secrets. */
  webhookSubscriptions: Item[];
  shares: Item[];
  /** As in the key list. */
  apiKeys: ApiKeyRecord[];
  /** Stored source emails and webhook posts. */
  intakeMessages: Item[];
}

/** One loader per export section; each capability puts its reader here. */
const SECTIONS = {
  settings: settingsExport,
  orders: ordersSection,
  emailSources: emailSourcesSection,
  bots: botsExport,
  customTemplates: customTemplatesSection,
  subscriptions: recurringCostsSection,
  webhookSubscriptions: webhookSubscriptionsSection,
  shares: sharesSection,
  apiKeys: (ctx: WorkspaceContext) => listApiKeys(ctx.kv, ctx.user.id, ctx.apiKeyUse),
  intakeMessages: intakeMessagesSection,
};

export async function buildExport(ctx: WorkspaceContext): Promise<AccountExport> {
  return {
    exportedAt: new Date(ctx.now).toISOString(),
    account: toPublicUser(ctx.user),
    ...await loadSections(SECTIONS, ctx),
  };
}
