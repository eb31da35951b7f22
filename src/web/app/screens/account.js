// @ts-check
/** The account: profile, timezone, ways in, plan and usage, the export, and deletion. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ApiError, ok } from "../api.js";
import { bytes } from "../format.js";
import { navigate } from "../router.js";
import { session, signedOut, userChanged } from "../session.js";
import {
  Checkbox,
  ConfirmButton,
  ErrorText,
  Form,
  Page,
  TextField,
  TimezoneField,
  useAction,
} from "../ui.js";
import { AccountNav } from "./parts.js";
import { Plan } from "./plan.js";
import { Security } from "./security.js";
import { CurrencySetting } from "./currency.js";
import { Invite } from "./invite.js";

/** @typedef {import("../app.js").ScreenProps} ScreenProps */
/** @typedef {import("../session.js").User} User */

/** @param {ScreenProps} props */
export function Account({ path }) {
  const user = session()?.user;
  if (!user) return null;
  return html`
    <${Page} title="Account">
      <${AccountNav} current=${path} />
      <${Plan} />
      <${Profile} user=${user} />
      <${Security} />
      <${CurrencySetting} />
      <${Invite} />
      <${Export} />
      <${DeleteAccount} email=${user.email} />
      <//>
  `;
}

/** @param {{user: User}} props */
function Profile({ user }) {
  const [username, setUsername] = useState(user.username ?? "");
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [timezone, setTimezone] = useState(user.timezone);
  const [saved, setSaved] = useState(false);
  const submit = async () => {
    setSaved(false);
    // One endpoint per field: only what changed is sent, each answer is the account as it is.
    if (username.trim() !== (user.username ?? "")) {
      userChanged(
        (await ok(api.POST("/api/account/username", { body: { username: username.trim() } }))).user,
      );
    }
    if (displayName.trim() !== (user.displayName ?? "")) {
      userChanged(
        (await ok(api.POST("/api/account/display-name", {
          body: { displayName: displayName.trim() },
        }))).user,
      );
    }
    if (timezone !== user.timezone) {
      userChanged((await ok(api.POST("/api/account/timezone", { body: { timezone } }))).user);
    }
    setSaved(true);
  };
  const visibility = useAction(
    async (/** @type {"publicProfile" | "publicStats"} */ key, /** @type {boolean} */ on) => {
      const result = key === "publicProfile"
        ? await ok(api.POST("/api/account/visibility", { body: { publicProfile: on } }))
        : await ok(api.POST("/api/account/public-stats", { body: { publicStats: on } }));
      userChanged(result.user);
    },
  );
  return html`
    <section class="panel" aria-labelledby="profile">
      <h2 id="profile">Profile</h2>
      <p class="sub">Signed in as <strong>${user.email}</strong>${user.emailVerified
        ? " (verified)"
        : ""}.</p>
      <${Form} onSubmit=${submit} submit="Save profile" busyText="Saving…" label="Profile"
        secondary=${saved && html`<span role="status" class="saved">Saved</span>`}>
        <div class="grid">
          <${TextField} label="Username" name="username" value=${username} onInput=${setUsername}
            autocomplete="nickname" hint="Shown on your public profile." />
          <${TextField} label="Display name" name="displayName" value=${displayName}
            onInput=${setDisplayName} autocomplete="name" />
          <${TimezoneField} value=${timezone} onChange=${setTimezone}
            hint="Dates, date filters and the monthly count follow it." />
        </div>
        <//>
        <fieldset class="types">
          <legend>Visibility</legend>
          <${Checkbox} name="publicProfile" label="Public profile" checked=${user.publicProfile}
            onChange=${(/** @type {boolean} */ on) => visibility.run("publicProfile", on)} />
          <${Checkbox} name="publicStats"
            label="Public stats (shows your spend)"
            hint="Your order count and spend (what your orders cost) on the leaderboard while the profile is public; order counts on the profile; checkouts in the community feed."
            checked=${user.publicStats}
            onChange=${(/** @type {boolean} */ on) => visibility.run("publicStats", on)} />
          <${ErrorText} error=${visibility.error} />
        </fieldset>
        </section>
  `;
}

function Export() {
  const [received, setReceived] = useState(0);
  const { run, busy, error } = useAction(async () => {
    setReceived(0);
    const { response } = await api.GET("/api/account/export", { parseAs: "stream" });
    if (!response.ok || !response.body) {
      const body = await response.json().catch(() => ({}));
      throw new ApiError(response.status, body.error ?? `The service answered ${response.status}`);
    }
    // Read as it arrives, so a large export shows how far it has come.
    const parts = [];
    let total = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      total += value.length;
      setReceived(total);
    }
    const name =
      /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ??
        "order-tracker-export.json";
    const url = URL.createObjectURL(new Blob(parts, { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  return html`
    <section class="panel" aria-labelledby="export">
      <h2 id="export">Export</h2>
      <p>Everything the account holds, as one JSON file: orders, sources, templates, webhooks,
        keys (without secrets) and stored messages.</p>
      <div class="actions">
        <button type="button" onClick=${() => run()} disabled=${busy} aria-busy=${busy}>
          ${busy ? "Exporting…" : "Download export"}</button>
        ${busy && html`
          <progress aria-label="Export download"></progress>
          <span role="status">${bytes(received)} received</span>
        `}
        <${ErrorText} error=${error} />
      </div>
    </section>
  `;
}

/** @param {{email: string}} props */
function DeleteAccount({ email }) {
  const [typed, setTyped] = useState("");
  const matches = typed.trim().toLowerCase() === email.toLowerCase();
  return html`
    <section class="panel danger-zone" aria-labelledby="delete">
      <h2 id="delete">Delete the account</h2>
      <p>Every order, source, template, webhook, key and message goes, at once and for good.
        Download the export first if you want to keep anything.</p>
      <${ConfirmButton} label="Delete account…" title="Delete the account?" confirm="Delete everything"
        ready=${matches}
        question=${html`<p>Type <strong>${email}</strong> to confirm.</p>`}
        onConfirm=${async () => {
          await ok(api.DELETE("/api/account", { body: { confirmEmail: typed } }));
          signedOut();
          navigate("/sign-in", { replace: true });
        }}>
        <${TextField} label="Account email" name="confirmEmail" value=${typed} onInput=${setTyped}
          autocomplete="off" />
        <//>
        </section>
  `;
}
