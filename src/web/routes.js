// @ts-check
/**
 * Every page of the dashboard: the server answers these paths with the page shell (any other
 * path outside /api stays a JSON 404) and the client loads the screen's module by the same
 * table (the server preloads it with the page). Paths use `:name` for a segment, as Hono does.
 * A new screen is a module under screens/ and one line here (and in src/web/sources.ts).
 */

/**
 * @typedef {object} Route
 * @property {string} id
 * @property {string} path
 * @property {string} module the screen's module under screens/
 * @property {string} screen the component it exports
 * @property {string} title
 * @property {boolean} [public] shown without a session (sign-in and recovery)
 * @property {string} [nav] the navigation entry it belongs to
 */

/** @type {readonly Route[]} */
export const ROUTES = [
  {
    id: "orders",
    module: "orders.js",
    screen: "Orders",
    path: "/",
    title: "Orders",
    nav: "Orders",
  },
  {
    id: "order",
    module: "order.js",
    screen: "OrderPage",
    path: "/orders/:id",
    title: "Order",
    nav: "Orders",
  },
  {
    id: "bots",
    module: "bots.js",
    screen: "Bots",
    path: "/intake/bots",
    title: "Chat bots",
    nav: "Intake",
  },
  {
    id: "email",
    module: "email.js",
    screen: "EmailSources",
    path: "/intake/email",
    title: "Email intake",
    nav: "Intake",
  },
  {
    id: "templates",
    module: "templates.js",
    screen: "Templates",
    path: "/intake/templates",
    title: "Templates",
    nav: "Intake",
  },
  {
    id: "inbox",
    module: "inbox.js",
    screen: "Inbox",
    path: "/intake/inbox",
    title: "Inbox",
    nav: "Intake",
  },
  {
    id: "insights",
    module: "insights.js",
    screen: "Insights",
    path: "/insights",
    title: "Insights",
    nav: "Insights",
  },
  {
    id: "costs",
    module: "costs.js",
    screen: "Costs",
    path: "/insights/costs",
    title: "Recurring costs",
    nav: "Insights",
  },
  {
    id: "shares",
    module: "shares.js",
    screen: "Shares",
    path: "/insights/shares",
    title: "Share cards",
    nav: "Insights",
  },
  {
    id: "leaderboard",
    module: "leaderboard.js",
    screen: "Leaderboard",
    path: "/insights/leaderboard",
    title: "Leaderboard",
    nav: "Insights",
  },
  {
    id: "webhooks",
    module: "webhooks.js",
    screen: "Webhooks",
    path: "/webhooks",
    title: "Webhooks",
    nav: "Webhooks",
  },
  {
    id: "webhookLog",
    module: "webhooks.js",
    screen: "WebhookLog",
    path: "/webhooks/log",
    title: "Delivery log",
    nav: "Webhooks",
  },
  {
    id: "account",
    module: "account.js",
    screen: "Account",
    path: "/account",
    title: "Account",
    nav: "Account",
  },
  {
    id: "apiKeys",
    module: "api_keys.js",
    screen: "ApiKeys",
    path: "/account/api-keys",
    title: "API keys",
    nav: "Account",
  },
  {
    id: "status",
    module: "status.js",
    screen: "Status",
    path: "/account/status",
    title: "Service status",
    nav: "Account",
  },
  {
    id: "billing",
    module: "plan.js",
    screen: "Billing",
    path: "/billing",
    title: "Billing",
    nav: "Account",
  },
  {
    id: "signIn",
    module: "auth.js",
    screen: "SignIn",
    path: "/sign-in",
    title: "Sign in",
    public: true,
  },
  {
    id: "register",
    module: "auth.js",
    screen: "Register",
    path: "/register",
    title: "Create an account",
    public: true,
  },
  {
    id: "forgot",
    module: "auth.js",
    screen: "Forgot",
    path: "/forgot-password",
    title: "Forgot password",
    public: true,
  },
  {
    id: "reset",
    module: "auth.js",
    screen: "Reset",
    path: "/reset-password",
    title: "Choose a new password",
    public: true,
  },
  {
    id: "verifyEmail",
    module: "auth.js",
    screen: "VerifyEmail",
    path: "/verify-email",
    title: "Verify your email",
    public: true,
  },
];

/** The top navigation: its entries in order, each opening its first route. */
export const NAV = ["Orders", "Insights", "Intake", "Webhooks", "Account"];

/**
 * The route a path shows and its `:name` parameters, or null.
 * @param {string} pathname
 * @returns {{route: Route, params: Record<string, string>} | null}
 */
export function matchRoute(pathname) {
  const parts = pathname.split("/").filter(Boolean);
  for (const route of ROUTES) {
    const pattern = route.path.split("/").filter(Boolean);
    if (pattern.length !== parts.length) continue;
    /** @type {Record<string, string>} */
    const params = {};
    const ok = pattern.every((p, i) => {
      if (p.startsWith(":")) {
        try {
          params[p.slice(1)] = decodeURIComponent(parts[i]);
          return true;
        } catch {
          return false;
        }
      }
      return p === parts[i];
    });
    if (ok) return { route, params };
  }
  return null;
}
