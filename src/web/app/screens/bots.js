// @ts-check
/**
 * Chat bots: each has a URL that checkout bots post to (copy it into the bot's webhook setting);
 * its stats and recent posts; rename, forward elsewhere, pause, rotate the URL, delete. Below
 * them, the workspace's forwarding settings and the embed copier (chat_settings.js).
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { dateTime } from "../format.js";
import { session } from "../session.js";
import {
  ConfirmButton,
  CopyButton,
  ErrorText,
  Form,
  Loading,
  Page,
  replaceItem,
  TextField,
  useAction,
  useLoad,
} from "../ui.js";
import { ChatSettings, EmbedCopier } from "./chat_settings.js";
import { IntakeNav } from "./parts.js";
import { LocalLinks, useDeployment } from "../deployment.js";

/** @typedef {import("../api.js").Schemas} Schemas */
/** @typedef {Schemas["Bot"]} Bot */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

const OUTCOME = {
  created: "Created an order",
  merged: "Added to an order",
  rejected: "Over the plan limit",
  ignored: "No checkout in it",
};

/** @param {ScreenProps} props */
export function Bots({ path }) {
  const bots = useLoad(
    () => ok(api.GET("/api/bots", { params: { query: { limit: "200" } } })),
    [],
  );
  const replace = replaceItem(bots);
  return html`
    <${Page} title="Chat bots">
      <${IntakeNav} current=${path} />
      <p class="lead">Give a checkout bot the URL of one of these as its webhook: every checkout
        it posts becomes an order, or adds to the order with the same number.</p>
      <${ErrorText} error=${bots.error} />
      ${bots.loading && !bots.data && html`<${Loading} />`}
      ${bots.data?.items.length === 0 && html`<p class="empty">No bot yet: add one below.</p>`}
      <ul class="cards">
        ${bots.data?.items.map((b) =>
          html`
            <li key=${b.id}>
              <${BotCard} bot=${b} onChange=${replace} onDeleted=${bots.reload} />
            </li>
          `
        )}
      </ul>
      <${NewBot} onCreated=${bots.reload} />
      <${ChatSettings} />
      <${EmbedCopier} />
    <//>
  `;
}

/** @param {{onCreated: () => void}} props */
function NewBot({ onCreated }) {
  const [name, setName] = useState("");
  const submit = async () => {
    await ok(api.POST("/api/bots", { body: { name: name.trim() } }));
    setName("");
    onCreated();
  };
  return html`
    <${Form} onSubmit=${submit} submit="Add bot" busyText="Adding…" class="form panel inline-form"
      label="Add a bot">
      <${TextField} label="Bot name" name="name" value=${name} onInput=${setName} required
        placeholder="Checkout bot" hint="Up to 80 characters." />
      <//>
  `;
}

/** @param {{bot: Bot, onChange: (b: Bot) => void, onDeleted: () => void}} props */
function BotCard({ bot, onChange, onDeleted }) {
  const zone = session()?.user.timezone;
  const [showLog, setShowLog] = useState(false);
  const toggle = useAction(async () => {
    const result = await ok(api.PATCH("/api/bots/{id}", {
      params: { path: { id: bot.id } },
      body: { active: !bot.active },
    }));
    onChange(result.bot);
  });
  const stats = useLoad(
    () =>
      ok(api.GET("/api/bots/{id}", { params: { path: { id: bot.id } } })).then((r) => r.bot.stats),
    // Opening the posts refreshes the counts too: both change with every post.
    [bot.id, bot.slug, showLog],
  );
  const [editing, setEditing] = useState(false);
  const titleId = `bot-${bot.id}`;
  const deployment = useDeployment();
  return html`
    <article class="panel" aria-labelledby=${titleId}>
      <div class="card-head">
        <h2 id=${titleId}>${bot.name}</h2>
        <span class=${bot.active ? "tag on" : "tag off"}>${bot.active ? "Active" : "Paused"}</span>
      </div>
      <p class="code-row"><span class="sub">Webhook URL</span>
        <code class="url">${bot.url}</code>
        <${CopyButton} text=${bot.url} label="Copy URL" /></p>
      <${LocalLinks} deployment=${deployment} />
      ${bot.outputWebhook && html`<p class="sub">Forwards its posts to ${bot.outputWebhook}</p>`}
      ${stats.data &&
        html`<p class="sub stats">${statsText(stats.data, zone, deployment?.billing)}</p>`}
      <div class="actions">
        <button type="button" class="secondary small" onClick=${() => setShowLog(!showLog)}
          aria-expanded=${showLog}>${showLog ? "Hide posts" : "Recent posts"}</button>
        <button type="button" class="secondary small" onClick=${() => setEditing(!editing)}
          aria-expanded=${editing}>Edit</button>
        <button type="button" class="secondary small" onClick=${() =>
          toggle.run()} disabled=${toggle.busy}>
          ${bot.active ? "Pause" : "Resume"}</button>
        <${ConfirmButton} class="secondary small" label="New URL" buttonLabel=${`New URL for ${bot.name}`}
          title="Give this bot a new URL?" confirm="Rotate URL"
          question=${html`<p>The current URL stops working at once; paste the new one into the
            checkout bot.</p>`}
          onConfirm=${async () => {
            const result = await ok(
              api.POST("/api/bots/{id}/rotate", { params: { path: { id: bot.id } } }),
            );
            onChange(result.bot);
          }} />
        <${ConfirmButton} label="Delete" buttonLabel=${`Delete ${bot.name}`} title="Delete this bot?"
          confirm="Delete bot" question=${html`<p>Its URL stops working at once. Orders it made stay.</p>`}
          onConfirm=${async () => {
            await ok(api.DELETE("/api/bots/{id}", { params: { path: { id: bot.id } } }));
            onDeleted();
          }} />
        <${ErrorText} error=${toggle.error} />
      </div>
      ${editing && html`<${EditBot} bot=${bot} onSaved=${(/** @type {Bot} */ b) => {
        onChange(b);
        setEditing(false);
      }} />`}
      ${showLog && html`<${BotLog} id=${bot.id} />`}
    </article>
  `;
}

/**
 * @param {Schemas["BotStats"]} s
 * @param {string | undefined} zone
 * @param {boolean | undefined} billing without billing there is no plan limit to be over
 */
const statsText = (s, zone, billing) =>
  `Posts: ${s.orders.toLocaleString()} created an order, ${s.merged.toLocaleString()} merged` +
  (billing ? `, ${s.rejected.toLocaleString()} over the plan limit` : "") +
  (s.lastPostAt ? `; last post ${dateTime(s.lastPostAt, zone)}.` : ".");

/** @param {{bot: Bot, onSaved: (b: Bot) => void}} props */
function EditBot({ bot, onSaved }) {
  const [name, setName] = useState(bot.name);
  const [forward, setForward] = useState(bot.outputWebhook ?? "");
  const submit = async () => {
    const result = await ok(api.PATCH("/api/bots/{id}", {
      params: { path: { id: bot.id } },
      body: { name: name.trim(), outputWebhook: forward.trim() || null },
    }));
    onSaved(result.bot);
  };
  return html`
    <${Form} onSubmit=${submit} submit="Save bot" busyText="Saving…" label=${`Edit ${bot.name}`}>
      <div class="two">
        <${TextField} label="Bot name" name="name" value=${name} onInput=${setName} required />
        <${TextField} label="Forward its posts to" name="outputWebhook" value=${forward}
          onInput=${setForward} type="url" placeholder="https://discord.com/api/webhooks/…"
          hint="Optional; this bot's own forwarding address instead of the workspace's." />
      </div>
      <//>
  `;
}

/** @param {{id: string}} props */
function BotLog({ id }) {
  const zone = session()?.user.timezone;
  const logs = useLoad(
    () => ok(api.GET("/api/bots/{id}/logs", { params: { path: { id }, query: { limit: "50" } } })),
    [id],
  );
  return html`
    <div aria-live="polite">
      <${ErrorText} error=${logs.error} />
      ${logs.loading && html`<${Loading} />`}
      ${logs.data?.logs.length === 0 && html`<p class="empty">Nothing posted yet.</p>`}
      <ul class="messages">
        ${logs.data?.logs.map((l) =>
          html`
            <li>
              <p><strong>${l.itemSummary ?? "(no item)"}</strong>
                <span class="sub"> ${l.store ? `${l.store} · ` : ""}${dateTime(
                  l.receivedAt,
                  zone,
                )}</span></p>
              <p><span class=${`outcome outcome-${l.outcome}`}>${OUTCOME[l.outcome] ??
                l.outcome}</span>
                ${l.orderId && html`<a href=${`/orders/${l.orderId}`}>Open the order</a>`}</p>
            </li>
          `
        )}
      </ul>
    </div>
  `;
}
