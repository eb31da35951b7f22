// @ts-check
/**
 * Client-side navigation over the History API: links within the dashboard change the screen
 * without a reload; the server answers the same paths with the shell, so a reload or a link
 * from a mail (the password-reset link) opens the same screen.
 */
import { useEffect, useState } from "preact/hooks";
import { matchRoute } from "../routes.js";

/** @typedef {{path: string, query: URLSearchParams, match: ReturnType<typeof matchRoute>}} Location */

/** @type {Set<() => void>} */
const listeners = new Set();

/** @returns {Location} */
function here() {
  return {
    path: location.pathname,
    query: new URLSearchParams(location.search),
    match: matchRoute(location.pathname),
  };
}

/**
 * Opens a dashboard path (with its query) as a new history entry, or in place.
 * @param {string} to
 * @param {{replace?: boolean}} [options]
 */
export function navigate(to, options = {}) {
  const url = new URL(to, location.origin);
  if (url.pathname + url.search === location.pathname + location.search) return;
  history[options.replace ? "replaceState" : "pushState"](null, "", url.pathname + url.search);
  listeners.forEach((f) => f());
}

/**
 * Changes query parameters of the current path (empty values removed), in place.
 * @param {Record<string, string | number | undefined | null>} changes
 */
export function setQuery(changes) {
  const query = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === null || v === "") query.delete(k);
    else query.set(k, String(v));
  }
  const search = query.toString();
  navigate(location.pathname + (search ? `?${search}` : ""), { replace: true });
}

/** The current location; re-renders on every navigation. */
export function useLocation() {
  const [loc, setLoc] = useState(here);
  useEffect(() => {
    const update = () => setLoc(here());
    listeners.add(update);
    addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      removeEventListener("popstate", update);
    };
  }, []);
  return loc;
}

// Plain clicks on links to dashboard pages navigate in place.
document.addEventListener("click", (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) {
    return;
  }
  const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
  if (!(a instanceof HTMLAnchorElement) || a.target || a.hasAttribute("download")) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin || !matchRoute(url.pathname)) return;
  if (url.hash && url.pathname === location.pathname) return; // an in-page link (skip link)
  e.preventDefault();
  navigate(url.pathname + url.search);
});
