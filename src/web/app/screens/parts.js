// @ts-check
/** What several screens share: each section's sub-navigation, a stored message shown on demand. */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "../api.js";
import { session } from "../session.js";
import { ErrorText, SubNav, useAction } from "../ui.js";

/** The intake section's pages. @param {{current: string}} props */
export const IntakeNav = ({ current }) =>
  html`<${SubNav} current=${current} items=${[
    { href: "/intake/bots", label: "Chat bots" },
    { href: "/intake/email", label: "Email sources" },
    { href: "/intake/templates", label: "Templates" },
    { href: "/intake/inbox", label: "Inbox" },
  ]} />`;

/** @param {{current: string}} props */
export const WebhooksNav = ({ current }) =>
  html`<${SubNav} current=${current} items=${[
    { href: "/webhooks", label: "Subscriptions" },
    { href: "/webhooks/log", label: "Delivery log" },
  ]} />`;

/** @param {{current: string}} props */
export const InsightsNav = ({ current }) =>
  html`<${SubNav} current=${current} items=${[
    { href: "/insights", label: "Profit and calendar" },
    { href: "/insights/costs", label: "Recurring costs" },
    { href: "/insights/shares", label: "Share cards" },
    { href: "/insights/leaderboard", label: "Leaderboard" },
  ]} />`;

/** Whether the signed-in account is the operator: asked once per session. */
let operatorAnswer = /** @type {{token: string, yes: Promise<boolean>} | null} */ (null);
function isOperator() {
  const token = session()?.token ?? "";
  if (operatorAnswer?.token === token) return operatorAnswer.yes;
  const yes = api.GET("/api/auth/me").then(({ data }) => data?.operator === true, () => false);
  operatorAnswer = { token, yes };
  return yes;
}

/** The account section's pages; the status screen for the operator only. @param {{current: string}} props */
export function AccountNav({ current }) {
  const [operator, setOperator] = useState(false);
  useEffect(() => {
    let live = true;
    isOperator().then((yes) => live && setOperator(yes));
    return () => void (live = false);
  }, []);
  return html`<${SubNav} current=${current} items=${[
    { href: "/account", label: "Profile and data" },
    { href: "/account/api-keys", label: "API keys" },
    ...(operator ? [{ href: "/account/status", label: "Service status" }] : []),
  ]} />`;
}

/** The stored message, fetched with the session (a plain link could not send it). @param {{id: string}} props */
export function RawMessage({ id }) {
  const [text, setText] = useState(/** @type {string | null} */ (null));
  const { run, busy, error } = useAction(async () => {
    const { data, response } = await api.GET("/api/inbox/{id}/raw", {
      params: { path: { id } },
      parseAs: "text",
    });
    if (!response.ok) throw new ApiError(response.status, "The stored message could not be read");
    setText(data ?? "");
  });
  if (text !== null) {
    return html`
      <details open>
        <summary>Stored message</summary>
        <pre class="raw" tabIndex="0">${text}</pre>
      </details>
    `;
  }
  return html`
    <button type="button" class="secondary small" onClick=${() => run()} disabled=${busy}
      aria-busy=${busy}>${busy ? "Loading…" : "Show the stored message"}</button>
    <${ErrorText} error=${error} />
  `;
}
