// @ts-check
/**
 * The frame around every screen: the navigation, who is signed in, and the screen the path
 * names. Screens without a session send the person to sign in, and back afterwards.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.js";
import { navigate, useLocation } from "./router.js";
import { NAV, ROUTES } from "../routes.js";
import { onSessionChange, session, signedOut } from "./session.js";
import { Loading } from "./ui.js";

function useSession() {
  const [current, setCurrent] = useState(session);
  useEffect(() => onSessionChange(() => setCurrent(session())), []);
  return current;
}

async function signOut() {
  // Ends the session on the server too; the token is forgotten here whatever it answers.
  await api.DELETE("/api/auth/session").catch(() => {});
  signedOut();
  navigate("/sign-in");
}

/** @typedef {import("preact").FunctionComponent<ScreenProps>} Screen */
/**
 * What the frame passes every screen.
 * @typedef {object} ScreenProps
 * @property {Record<string, string>} params the path's `:name` segments
 * @property {URLSearchParams} query
 * @property {string} path
 */

/** Screens already loaded, by module and export. */
const screens = new Map();

/**
 * The route's screen component, loaded on first use (only the modules of the page opened
 * first are fetched with it; the server preloads them).
 * @param {import("../routes.js").Route | undefined} route
 * @returns {{screen?: Screen, error?: Error}}
 */
function useScreen(route) {
  const key = route && `${route.module}#${route.screen}`;
  const [state, setState] = useState(/** @type {{key?: string, error?: Error}} */ ({}));
  useEffect(() => {
    if (!route || !key || screens.has(key)) return;
    import(`./screens/${route.module}`).then(
      (module) => {
        screens.set(key, module[route.screen]);
        setState({ key });
      },
      (error) => setState({ key, error }),
    );
  }, [key]);
  if (key && screens.has(key)) return { screen: screens.get(key) };
  return state.key === key ? { error: state.error } : {};
}

/** @param {{section?: string, user: import("./session.js").User}} props */
function Header({ section, user }) {
  return html`
    <header class="top">
      <a class="brand" href="/">Order tracker</a>
      <nav aria-label="Main">
        <ul>
          ${NAV.map((name) => {
            const first = ROUTES.find((r) => r.nav === name);
            return html`<li><a href=${first?.path} aria-current=${
              section === name ? "page" : undefined
            }>${name}</a></li>`;
          })}
        </ul>
      </nav>
      <div class="who">
        <span class="user" title=${user.email}>${user.username ?? user.email}</span>
        <button type="button" class="secondary small" onClick=${signOut}>Sign out</button>
      </div>
    </header>
  `;
}

/** Public pages a mailed link opens, which a signed-in person may open too. */
const MAILED_LINKS = new Set(["reset", "verifyEmail"]);

export function App() {
  const loc = useLocation();
  const current = useSession();
  const route = loc.match?.route;
  const needsSession = route && !route.public;
  const { screen: Screen, error } = useScreen(route);

  useEffect(() => {
    if (needsSession && !current) {
      const next = loc.path === "/"
        ? ""
        : `?next=${encodeURIComponent(loc.path + location.search)}`;
      navigate(`/sign-in${next}`, { replace: true });
    } else if (route?.public && current && !MAILED_LINKS.has(route.id)) {
      const next = loc.query.get("next");
      navigate(next && next.startsWith("/") && !next.startsWith("//") ? next : "/", {
        replace: true,
      });
    }
  }, [route, current]);

  if (!loc.match || !route) {
    return html`
      <main id="main" class="narrow">
        <h1>Page not found</h1>
        <p><a href="/">Open the orders</a></p>
      </main>
    `;
  }
  if (needsSession && !current) return null;
  const screen = Screen
    ? html`<${Screen} params=${loc.match.params} query=${loc.query} path=${loc.path} />`
    : error
    ? html`
      <p class="error" role="alert">This screen could not be loaded (${error.message}).</p>
      <button type="button" onClick=${() => location.reload()}>Reload</button>
    `
    : html`<${Loading} />`;
  if (route.public) {
    return html`<main id="main" class="narrow"><p class="brand">Order tracker</p>${screen}</main>`;
  }
  if (!current) return null;
  return html`
    <a class="skip" href="#main">Skip to content</a>
    <${Header} section=${route.nav} user=${current.user} />
    <main id="main">${screen}</main>
  `;
}
