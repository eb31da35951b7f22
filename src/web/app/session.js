// @ts-check
/**
 * The session token and the account it belongs to, kept in the browser: localStorage when the
 * person chose "keep me signed in" (the API's sessions last 14 days), else sessionStorage (gone
 * when the tab closes). The API reads no cookies, so the token travels only in the
 * Authorization header the client adds; no other origin's page can make the browser send it.
 * The strict CSP (no inline or third-party script) guards the one way to read it: script on
 * this page.
 */

/** @typedef {import("../generated/openapi.d.ts").components["schemas"]["User"]} User */
/** @typedef {{token: string, user: User}} Session */

const KEY = "order-tracker.session";

/** @type {Set<() => void>} */
const listeners = new Set();

/** @returns {Session | null} */
function read() {
  for (const store of [sessionStorage, localStorage]) {
    const raw = store.getItem(KEY);
    if (!raw) continue;
    try {
      const value = JSON.parse(raw);
      if (typeof value?.token === "string" && value.user?.id) return value;
    } catch {
      store.removeItem(KEY);
    }
  }
  return null;
}

let current = read();

const notify = () => listeners.forEach((f) => f());

/** The signed-in session, or null. */
export const session = () => current;

/**
 * Keeps a new session (after register, sign-in or a password reset).
 * @param {Session} value
 * @param {boolean} remember localStorage when true, else this tab only
 */
export function signedIn(value, remember) {
  localStorage.removeItem(KEY);
  sessionStorage.removeItem(KEY);
  (remember ? localStorage : sessionStorage).setItem(KEY, JSON.stringify(value));
  current = value;
  notify();
}

/**
 * A new session for the same person (change password): kept where the old one was.
 * @param {Session} value
 */
export function sessionReplaced(value) {
  signedIn(value, Boolean(localStorage.getItem(KEY)));
}

/**
 * The account changed (profile edits answer with the updated user).
 * @param {User} user
 */
export function userChanged(user) {
  if (!current) return;
  current = { ...current, user };
  const store = localStorage.getItem(KEY) ? localStorage : sessionStorage;
  store.setItem(KEY, JSON.stringify(current));
  notify();
}

/** Forgets the session here (the caller ends it on the server first when it can). */
export function signedOut() {
  localStorage.removeItem(KEY);
  sessionStorage.removeItem(KEY);
  current = null;
  notify();
}

/**
 * Calls `f` whenever the session changes, here or in another tab.
 * @param {() => void} f
 */
export function onSessionChange(f) {
  listeners.add(f);
  return () => void listeners.delete(f);
}

// Another tab signed in or out with "keep me signed in".
addEventListener("storage", (e) => {
  if (e.key !== KEY && e.key !== null) return;
  current = read();
  notify();
});
