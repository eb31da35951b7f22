// @ts-check
/**
 * The plan: usage against the cap, upgrade (checkout) and the billing portal when billing is on,
 * and email verification (checkout needs a verified email). `/billing` is where the payment
 * provider sends the person back.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { count, dateOnly, plural } from "../format.js";
import { session } from "../session.js";
import { ErrorText, Loading, Page, useAction, useLoad } from "../ui.js";
import { AccountNav } from "./parts.js";
import { useDeployment } from "../deployment.js";

/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/** What checkout's return says (`/billing?checkout=`). */
const RETURNS = {
  success: "Thank you. Your plan changes as soon as the payment provider confirms the payment, " +
    "usually within seconds: reload this page to see it.",
  canceled: "Checkout was canceled: nothing was charged.",
};

/** @param {ScreenProps} props */
export function Billing({ query }) {
  const back = query.get("checkout");
  return html`
    <${Page} title="Billing">
      <${AccountNav} current="/account" />
      ${back === "success" || back === "canceled"
        ? html`<p class="notice" role="status">${RETURNS[back]}</p>`
        : null}
      <${Plan} />
    <//>
  `;
}

/** Plan and usage; upgrade or manage the subscription when this deployment bills. */
export function Plan() {
  const usage = useLoad(() => ok(api.GET("/api/billing/usage")), []);
  const u = usage.data;
  const user = session()?.user;
  return html`
    <section class="panel" aria-labelledby="plan">
      <h2 id="plan">Plan and usage</h2>
      <${ErrorText} error=${usage.error} />
      ${usage.loading && html`<${Loading} />`}
      ${u && html`
        <p><strong class="plan">${u.plan}</strong> plan${u.billingEnabled
          ? ""
          : " (billing is off on this deployment: no limits)"}</p>
        <p>${plural(u.used, "new order")} this month${u.cap === null ? "" : ` of ${count(u.cap)}`};
          the count starts again on ${dateOnly(u.resetsAt, user?.timezone)}.</p>
        ${u.cap !== null && html`
          <meter min="0" max=${u.cap} value=${u.used} high=${u.cap * 0.8}
            aria-label="New orders this month">${u.used} of ${u.cap}</meter>
        `}
        ${u.billingEnabled && html`<${BillingButtons} plan=${u.plan} />`}
      `}
      ${user && !user.emailVerified && u &&
        html`<${VerifyEmail} email=${user.email} billing=${u.billingEnabled} />`}
    </section>
  `;
}

/**
 * Both open the payment provider's pages: checkout for a free plan, the portal once there is a
 * subscription (the API answers 409 before there is one, shown here).
 * @param {{plan: string}} props
 */
function BillingButtons({ plan }) {
  const checkout = useRedirect("/api/billing/checkout");
  const portal = useRedirect("/api/billing/portal");
  const status = session()?.user.subscriptionStatus;
  return html`
    <div class="actions">
      ${plan !== "pro" && html`
        <button type="button" onClick=${() => checkout.run()} disabled=${checkout.busy}
          aria-busy=${checkout.busy}>${checkout.busy ? "Opening…" : "Upgrade to Pro"}</button>
      `}
      ${(plan === "pro" || status) && html`
        <button type="button" class="secondary" onClick=${() => portal.run()}
          disabled=${portal.busy} aria-busy=${portal.busy}>
          ${portal.busy ? "Opening…" : "Manage billing"}</button>
      `}
      <${ErrorText} error=${checkout.error ?? portal.error} />
    </div>
  `;
}

/**
 * Asks the API for the provider's page, then goes there.
 * @param {"/api/billing/checkout" | "/api/billing/portal"} path
 */
const useRedirect = (path) =>
  useAction(async () => {
    const { url } = await ok(api.POST(path));
    location.assign(url);
  });

/** @param {{email: string, billing: boolean}} props */
function VerifyEmail({ email, billing }) {
  const [sent, setSent] = useState(false);
  const deployment = useDeployment();
  // Without outgoing mail the service writes the message to its log: never "Sent to".
  const sentText = deployment?.outgoingMail === false
    ? "This server sends no mail: the link went to the server log. Ask its operator for it."
    : `Sent to ${email}: open the link within 24 hours.`;
  const send = useAction(async () => {
    await ok(api.POST("/api/auth/verify-email/request"));
    setSent(true);
  });
  return html`
    <div class="actions">
      <p>Your email is not verified yet${billing ? ": upgrading needs it" : ""}.</p>
      <button type="button" class="secondary small" onClick=${() => send.run()}
        disabled=${send.busy} aria-busy=${send.busy}>
        ${send.busy ? "Sending…" : sent ? "Send again" : "Send the link"}</button>
      <span role="status">${sent ? sentText : ""}</span>
      <${ErrorText} error=${send.error} />
    </div>
  `;
}
