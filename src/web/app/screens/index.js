// @ts-check
/**
 * Every screen by its id in routes.js. A screen for a new API (bots, carrier events, insights,
 * billing) is one module here and one line in routes.js.
 */
import { Account } from "./account.js";
import { ApiKeys } from "./api_keys.js";
import { Forgot, Register, Reset, SignIn } from "./auth.js";
import { EmailSources } from "./email.js";
import { Inbox } from "./inbox.js";
import { OrderPage } from "./order.js";
import { Orders } from "./orders.js";
import { Templates } from "./templates.js";
import { WebhookLog, Webhooks } from "./webhooks.js";

/**
 * What the frame passes every screen.
 * @typedef {object} ScreenProps
 * @property {Record<string, string>} params the path's `:name` segments
 * @property {URLSearchParams} query
 * @property {string} path
 */

/** @type {Record<string, import("preact").FunctionComponent<ScreenProps>>} */
export const SCREENS = {
  orders: Orders,
  order: OrderPage,
  email: EmailSources,
  templates: Templates,
  inbox: Inbox,
  webhooks: Webhooks,
  webhookLog: WebhookLog,
  account: Account,
  apiKeys: ApiKeys,
  signIn: SignIn,
  register: Register,
  forgot: Forgot,
  reset: Reset,
};
