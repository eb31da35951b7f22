// @ts-check
/**
 * The chat side of the workspace, under the bots: where posts are forwarded and order updates
 * announced, the digest, and the embed copier (a user script that copies bots' embeds from the
 * chat platform) with the posts it could not read.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { dateTime } from "../format.js";
import { session } from "../session.js";
import {
  Checkbox,
  ConfirmButton,
  CopyButton,
  ErrorText,
  Form,
  Loading,
  SelectField,
  TextField,
  useAction,
  useLoad,
} from "../ui.js";

/** @typedef {import("../api.js").Schemas} Schemas */
/** @typedef {Schemas["ChatSettingsChange"]["digest"]} Digest */

/**
 * Every digest cadence, as a record the generated types keep complete.
 * @type {Record<Digest, string>}
 */
const DIGESTS = { off: "Off", daily: "Daily", weekly: "Weekly" };

/**
 * The settings form. The API has no read of the settings alone (the snapshot carries them with
 * every order), and `POST /api/settings` with nothing to change writes nothing and answers the
 * current values: that is how the form learns them.
 */
export function ChatSettings() {
  const settings = useLoad(() => ok(api.POST("/api/settings", { body: {} })), []);
  return html`
    <section class="panel" aria-labelledby="chat-settings">
      <h2 id="chat-settings">Forwarding and updates</h2>
      <${ErrorText} error=${settings.error} />
      ${settings.loading && !settings.data && html`<${Loading} />`}
      ${settings.data && html`
        <${SettingsForm} initial=${settings.data.settings}
          onSaved=${settings.set} />
      `}
      <${Digest} />
    </section>
  `;
}

/**
 * @param {{initial: Schemas["WorkspaceSettings"],
 *   onSaved: (s: {settings: Schemas["WorkspaceSettings"]}) => void}} props
 */
function SettingsForm({ initial, onSaved }) {
  const [output, setOutput] = useState(initial.outputWebhook ?? "");
  const [updates, setUpdates] = useState(initial.updatesWebhook ?? "");
  const [forwardOn, setForwardOn] = useState(initial.forwardOn);
  const [saved, setSaved] = useState(false);
  const submit = async () => {
    setSaved(false);
    onSaved(
      await ok(api.POST("/api/settings", {
        body: {
          outputWebhook: output.trim() || null,
          updatesWebhook: updates.trim() || null,
          forwardOn,
        },
      })),
    );
    setSaved(true);
  };
  return html`
    <${Form} onSubmit=${submit} submit="Save settings" busyText="Saving…"
      label="Forwarding and updates" secondary=${html`<span role="status">${
        saved ? "Saved" : ""
      }</span>`}>
      <div class="two">
        <${TextField} label="Forward posts to" name="outputWebhook" value=${output}
          onInput=${setOutput} type="url" placeholder="https://discord.com/api/webhooks/…"
          hint="Each post that makes or adds to an order, sent on unchanged (a bot's own address wins)." />
        <${TextField} label="Announce updates to" name="updatesWebhook" value=${updates}
          onInput=${setUpdates} type="url" placeholder="https://discord.com/api/webhooks/…"
          hint="Shipped and delivered orders, and the digest, posted as a chat message." />
      </div>
      <${Checkbox} label="Forward posts" name="forwardOn" checked=${forwardOn}
        onChange=${setForwardOn} />
      <//>
  `;
}

/** The digest's cadence (not readable alone either: chosen, then shown) and a digest now. */
function Digest() {
  const [cadence, setCadence] = useState(/** @type {Digest | ""} */ (""));
  const [next, setNext] = useState(/** @type {string | undefined} */ (undefined));
  const [sent, setSent] = useState(false);
  const zone = session()?.user.timezone;
  const save = useAction(async (/** @type {Digest} */ digest) => {
    setCadence(digest);
    const result = await ok(api.PATCH("/api/chat/settings", { body: { digest } }));
    setNext(result.settings.nextDigestAt);
  });
  const now = useAction(async () => {
    setSent(false);
    await ok(api.POST("/api/chat/digest"));
    setSent(true);
  });
  return html`
    <div class="actions">
      <${SelectField} class="inline" label="Digest" name="digest" value=${cadence}
        options=${[["", "Choose…"], ...Object.entries(DIGESTS)]}
        onChange=${(/** @type {string} */ v) => v && save.run(/** @type {Digest} */ (v))} />
      <button type="button" class="secondary small" onClick=${() => now.run()}
        disabled=${now.busy} aria-busy=${now.busy}>${now.busy
          ? "Posting…"
          : "Post a digest now"}</button>
      <span role="status">${save.busy ? "Saving…" : ""}${next
        ? `Next digest ${dateTime(next, zone)}.`
        : ""}${sent ? " Digest posted." : ""}</span>
      <${ErrorText} error=${save.error ?? now.error} />
    </div>
  `;
}

/** The embed copier's submission URL and the user script, then the posts it could not read. */
export function EmbedCopier() {
  const config = useLoad(() => ok(api.GET("/api/embed-copier/config")), []);
  const rotate = () => ok(api.POST("/api/embed-copier/rotate")).then((c) => config.set(c));
  const start = useAction(rotate);
  const url = config.data?.submitUrl;
  return html`
    <section class="panel" aria-labelledby="embed-copier">
      <h2 id="embed-copier">Embed copier</h2>
      <p class="sub">For bots that post only inside the chat platform: a user script in your
        browser copies their checkout embeds here. Install the user script (<a
        href="/api/embed-copier/userscript.js" download="embed-copier.user.js">download
        it</a>), then give it this URL.</p>
      <${ErrorText} error=${config.error} />
      ${config.loading && !config.data && html`<${Loading} />`}
      ${url && html`
        <p class="code-row"><span class="sub">Submission URL</span>
          <code class="url">${url}</code><${CopyButton} text=${url} label="Copy URL" /></p>
        <div class="actions">
          <${ConfirmButton} class="secondary small" label="New URL"
            buttonLabel="New URL for the embed copier" title="Issue a new submission URL?"
            confirm="Rotate URL" onConfirm=${rotate}
            question=${html`<p>The current URL stops working at once; paste the new one into
              the user script.</p>`} />
        </div>
      `}
      ${config.data && !url && html`
        <div class="actions">
          <button type="button" onClick=${() => start.run()} disabled=${start.busy}
            aria-busy=${start.busy}>${start.busy ? "Issuing…" : "Get a submission URL"}</button>
          <${ErrorText} error=${start.error} />
        </div>
      `}
      <${Samples} />
    </section>
  `;
}

/** Recent posts nothing could read: what a new template would need to match. */
function Samples() {
  const samples = useLoad(() => ok(api.GET("/api/embed-samples")), []);
  const zone = session()?.user.timezone;
  const items = samples.data?.items ?? [];
  return html`
    <h3 class="gap">Unread posts</h3>
    <${ErrorText} error=${samples.error} />
    ${samples.data && items.length === 0 &&
      html`<p class="sub">None: every post so far had a checkout in it.</p>`}
    <ul class="messages">
      ${items.map((s) =>
        html`
          <li key=${s.id}>
            <p><span class="sub">${dateTime(s.receivedAt, zone)}${s.why
              ? ` · ${s.why}`
              : ""}</span></p>
            <pre class="raw">${JSON.stringify(s.embed, null, 2)}</pre>
            <${ConfirmButton} label="Delete" buttonLabel="Delete this sample"
              title="Delete this sample?" confirm="Delete" question=${html`<p>It is only a
                copy kept for writing templates.</p>`}
              onConfirm=${async () => {
                await ok(api.DELETE("/api/embed-samples/{id}", { params: { path: { id: s.id } } }));
                samples.reload();
              }} />
          </li>
        `
      )}
    </ul>
  `;
}
