// @ts-check
/**
 * The account's ways in: linked sign-ins (remove one), change password, sign out everywhere;
 * and what to look over after a password reset.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { dateTime, plural } from "../format.js";
import { sessionReplaced } from "../session.js";
import {
  ConfirmButton,
  ErrorText,
  fieldError,
  Form,
  Loading,
  TextField,
  useAction,
  useLoad,
} from "../ui.js";

/** @typedef {import("../api.js").Schemas} Schemas */

const PROVIDER_NAMES = { atlas: "Sign-in service", discord: "Chat platform" };

/** The account screen's part: linked sign-ins, the password, other sessions. */
export function Security() {
  return html`
    <section class="panel" aria-labelledby="security">
      <h2 id="security">Sign-in and security</h2>
      <${LinkedSignIns} />
      <${ChangePassword} />
      <${SignOutEverywhere} />
    </section>
  `;
}

function LinkedSignIns() {
  const me = useLoad(() => ok(api.GET("/api/auth/me")), []);
  const links = me.data?.identities ?? [];
  return html`
    <h3>Linked sign-ins</h3>
    <${ErrorText} error=${me.error} />
    ${me.loading && !me.data && html`<${Loading} />`}
    ${me.data && links.length === 0 &&
      html`<p class="empty">No sign-in service is linked: you sign in with your password.</p>`}
    <ul class="linked-sign-ins">
      ${links.map((link) =>
        html`
          <li key=${link.provider}>
            <span><strong>${PROVIDER_NAMES[link.provider]}</strong> as ${link.email}, linked
              ${dateTime(link.linkedAt)}</span>
            <${ConfirmButton} label="Remove" buttonLabel=${`Remove ${
              PROVIDER_NAMES[link.provider]
            }`}
              title="Remove this sign-in?" confirm="Remove"
              question=${html`<p>Signing in through ${PROVIDER_NAMES[link.provider]} will no
                longer reach this account.</p>`}
              onConfirm=${async () => {
                await ok(api.DELETE("/api/auth/identities/{provider}", {
                  params: { path: { provider: link.provider } },
                }));
                me.reload();
              }} />
          </li>
        `
      )}
    </ul>
  `;
}

function ChangePassword() {
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [done, setDone] = useState(false);
  const submit = async () => {
    setDone(false);
    if (password !== again) throw fieldError("again", "The two passwords differ.");
    // Every session ends, this one too: the answer carries this tab's new one.
    sessionReplaced(
      await ok(api.POST("/api/auth/change-password", {
        body: { currentPassword: current, password },
      })),
    );
    setCurrent("");
    setPassword("");
    setAgain("");
    setDone(true);
  };
  return html`
    <h3>Change password</h3>
    <${Form} onSubmit=${submit} submit="Change password" busyText="Changing…"
      label="Change password"
      secondary=${done &&
        html`<span role="status" class="saved">Changed; other devices are signed out</span>`}>
      <${TextField} label="Current password" name="currentPassword" type="password"
        value=${current} onInput=${setCurrent} autocomplete="current-password" required />
      <${TextField} label="New password" name="password" type="password" value=${password}
        onInput=${setPassword} autocomplete="new-password" required hint="8 to 256 characters." />
      <${TextField} label="New password again" name="again" type="password" value=${again}
        onInput=${setAgain} autocomplete="new-password" required />
      <//>
  `;
}

function SignOutEverywhere() {
  const [ended, setEnded] = useState(/** @type {number | null} */ (null));
  const action = useAction(async () => {
    setEnded((await ok(api.DELETE("/api/auth/sessions"))).ended);
  });
  return html`
    <h3>Other sessions</h3>
    <div class="actions">
      <button type="button" class="secondary" onClick=${() => action.run()}
        disabled=${action.busy} aria-busy=${action.busy}>Sign out everywhere else</button>
      ${ended !== null && html`<span role="status">${plural(ended, "other session")} ended</span>`}
      <${ErrorText} error=${action.error} />
    </div>
  `;
}

/**
 * After a password reset: what it ended, and what it left that someone else may have set up
 * (webhook subscriptions and chat bots send the account's orders elsewhere).
 * @param {{ended: Schemas["PasswordReset"]["ended"], onDone: () => void}} props
 */
export function ResetReview({ ended, onDone }) {
  const subs = useLoad(
    () => ok(api.GET("/api/webhook-subscriptions", { params: { query: { limit: "200" } } })),
    [],
  );
  const bots = useLoad(() => ok(api.GET("/api/bots", { params: { query: { limit: "200" } } })), []);
  return html`
    <p role="status" class="notice">${`Your password is set. Ended: ${
      plural(ended.sessions, "session")
    }, ${plural(ended.apiKeys, "API key")}, ${plural(ended.identities, "linked sign-in")}.`}</p>
    <section aria-labelledby="review-webhooks">
      <h2 id="review-webhooks">Webhook subscriptions</h2>
      <p>They stay. Delete any you do not recognise on the <a href="/webhooks">webhooks</a> page.</p>
      <${ErrorText} error=${subs.error} />
      ${subs.data?.items.length === 0 && html`<p class="empty">None.</p>`}
      <ul class="review">
        ${subs.data?.items.map((s) => html`<li key=${s.id}><code class="url">${s.url}</code></li>`)}
      </ul>
    </section>
    <section aria-labelledby="review-bots">
      <h2 id="review-bots">Chat bots</h2>
      <p>They stay, and their URLs still take posts. Rotate or delete any you do not recognise on
        the <a href="/intake/bots">bots</a> page.</p>
      <${ErrorText} error=${bots.error} />
      ${bots.data?.items.length === 0 && html`<p class="empty">None.</p>`}
      <ul class="review">
        ${bots.data?.items.map((b) =>
          html`
            <li key=${b.id}><strong>${b.name}</strong> <code class="url">${b.url}</code>
              ${b.outputWebhook && html`
                forwards to <code class="url">${b.outputWebhook}</code>
              `}</li>
          `
        )}
      </ul>
    </section>
    <div class="actions"><button type="button" onClick=${onDone}>Continue</button></div>
  `;
}
