// @ts-check
/**
 * Every page of the dashboard: the server answers these paths with the page shell (any other
 * path outside /api stays a JSON 404) and the client picks the screen by the same table.
 * Paths use `:name` for a segment, as Hono does. A new screen adds one line here and its
 * module to screens/index.js.
 */

/**
 * @typedef {object} Route
 * @property {string} id screen id (screens/index.js)
 * @property {string} path
 * @property {string} title
 * @property {boolean} [public] shown without a session (sign-in and recovery)
 * @property {string} [nav] the navigation entry it belongs to
 */

/** @type {readonly Route[]} */
export const ROUTES = [
  { id: "orders", path: "/", title: "Orders", nav: "Orders" },
  { id: "order", path: "/orders/:id", title: "Order", nav: "Orders" },
  { id: "email", path: "/intake/email", title: "Email intake", nav: "Intake" },
  { id: "templates", path: "/intake/templates", title: "Templates", nav: "Intake" },
  { id: "inbox", path: "/intake/inbox", title: "Inbox", nav: "Intake" },
  { id: "webhooks", path: "/webhooks", title: "Webhooks", nav: "Webhooks" },
  { id: "webhookLog", path: "/webhooks/log", title: "Delivery log", nav: "Webhooks" },
  { id: "account", path: "/account", title: "Account", nav: "Account" },
  { id: "apiKeys", path: "/account/api-keys", title: "API keys", nav: "Account" },
  { id: "signIn", path: "/sign-in", title: "Sign in", public: true },
  { id: "register", path: "/register", title: "Create an account", public: true },
  { id: "forgot", path: "/forgot-password", title: "Forgot password", public: true },
  { id: "reset", path: "/reset-password", title: "Choose a new password", public: true },
];

/** The top navigation: its entries in order, each opening its first route. */
export const NAV = ["Orders", "Intake", "Webhooks", "Account"];

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
