/**
 * Every file the dashboard serves, inside the program: npm packages' ES module builds and the
 * client's own modules, imported as text so `deno compile` embeds them and nothing is fetched
 * from a CDN. `specifier` is the bare name modules import (the page's import map points it at
 * the hashed URL); the client's relative imports resolve to `/assets/<path>`, mapped likewise.
 * Adding a client module adds one line here (tests/web/assets_test.ts lists the folder).
 */
import preact from "preact" with { type: "text" };
import preactHooks from "preact/hooks" with { type: "text" };
import htm from "htm" with { type: "text" };
import htmPreact from "htm/preact" with { type: "text" };
import openapiFetch from "openapi-fetch" with { type: "text" };
import style from "./app/style.css" with { type: "text" };
import icon from "./app/icon.svg" with { type: "text" };
import main from "./app/main.js" with { type: "text" };
import app from "./app/app.js" with { type: "text" };
import api from "./app/api.js" with { type: "text" };
import session from "./app/session.js" with { type: "text" };
import router from "./app/router.js" with { type: "text" };
import routes from "./app/routes.js" with { type: "text" };
import ui from "./app/ui.js" with { type: "text" };
import format from "./app/format.js" with { type: "text" };
import parts from "./app/screens/parts.js" with { type: "text" };
import auth from "./app/screens/auth.js" with { type: "text" };
import orders from "./app/screens/orders.js" with { type: "text" };
import order from "./app/screens/order.js" with { type: "text" };
import email from "./app/screens/email.js" with { type: "text" };
import templates from "./app/screens/templates.js" with { type: "text" };
import inbox from "./app/screens/inbox.js" with { type: "text" };
import webhooks from "./app/screens/webhooks.js" with { type: "text" };
import account from "./app/screens/account.js" with { type: "text" };
import apiKeys from "./app/screens/api_keys.js" with { type: "text" };

export interface Source {
  /** Under `/assets/`, before hashing: `app/main.js`, `vendor/preact.js`. */
  path: string;
  text: string;
  /** The bare specifier modules import it by, for vendor modules. */
  specifier?: string;
}

export const ENTRY = "app/main.js";
export const STYLE = "app/style.css";
export const ICON = "app/icon.svg";
/** Where the screens named by `app/routes.js` live. */
export const SCREENS_DIR = "app/screens/";

export const SOURCES: readonly Source[] = [
  { path: "vendor/preact.js", text: preact, specifier: "preact" },
  { path: "vendor/preact-hooks.js", text: preactHooks, specifier: "preact/hooks" },
  { path: "vendor/htm.js", text: htm, specifier: "htm" },
  { path: "vendor/htm-preact.js", text: htmPreact, specifier: "htm/preact" },
  { path: "vendor/openapi-fetch.js", text: openapiFetch, specifier: "openapi-fetch" },
  { path: STYLE, text: style },
  { path: ICON, text: icon },
  { path: ENTRY, text: main },
  { path: "app/app.js", text: app },
  { path: "app/api.js", text: api },
  { path: "app/session.js", text: session },
  { path: "app/router.js", text: router },
  { path: "app/routes.js", text: routes },
  { path: "app/ui.js", text: ui },
  { path: "app/format.js", text: format },
  { path: "app/screens/parts.js", text: parts },
  { path: "app/screens/auth.js", text: auth },
  { path: "app/screens/orders.js", text: orders },
  { path: "app/screens/order.js", text: order },
  { path: "app/screens/email.js", text: email },
  { path: "app/screens/templates.js", text: templates },
  { path: "app/screens/inbox.js", text: inbox },
  { path: "app/screens/webhooks.js", text: webhooks },
  { path: "app/screens/account.js", text: account },
  { path: "app/screens/api_keys.js", text: apiKeys },
];
