// @ts-check
/**
 * Webhook subscriptions: create (the signing secret shown once), test with the result, pause,
 * rotate, delete; and the delivery log.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { dateTime, plural } from "../format.js";
import { session } from "../session.js";
import {
  Checkbox,
  ConfirmButton,
  ErrorText,
  fieldError,
  Form,
  Loading,
  Page,
  replaceItem,
  SelectField,
  ShownOnce,
  TextField,
  useAction,
  useFieldError,
  useLoad,
} from "../ui.js";
import { WebhooksNav } from "./parts.js";
import { SecretsProblem } from "../deployment.js";

/** @typedef {import("../api.js").Schemas["WebhookSubscription"]} Subscription */
/** @typedef {import("../api.js").Schemas["EventType"]} EventType */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/**
 * Every event type, as a record so the generated types make it complete: a type the API adds or
 * drops fails `deno check` here.
 * @type {Record<EventType, true>}
 */
const ALL_TYPES = {
  "order.created": true,
  "order.merged": true,
  "order.updated": true,
  "order.shipped": true,
  "order.delivered": true,
  "order.tracking_updated": true,
  "share.created": true,
};
const EVENT_TYPES = /** @type {EventType[]} */ (Object.keys(ALL_TYPES));
/** What a new subscription starts with, as the spec's dashboard does. */
const DEFAULT_TYPES = ["order.created", "order.shipped", "order.delivered"];

/** @param {ScreenProps} props */
export function Webhooks({ path }) {
  const subs = useLoad(
    () => ok(api.GET("/api/webhook-subscriptions", { params: { query: { limit: "200" } } })),
    [],
  );
  const [secret, setSecret] = useState(/** @type {{url: string, secret: string} | null} */ (null));
  const replace = replaceItem(subs);
  return html`
    <${Page} title="Webhooks">
      <${WebhooksNav} current=${path} />
      <${SecretsProblem} />
      <p class="lead">The service POSTs signed events to your HTTPS endpoints. Verify
        the <code>X-Service-Signature</code> header with the subscription's secret.</p>
      ${secret && html`
        <${ShownOnce} label=${`Signing secret for ${secret.url}`} value=${secret.secret}
          onDone=${() => setSecret(null)} />
      `}
      <${ErrorText} error=${subs.error} />
      ${subs.loading && !subs.data && html`<${Loading} />`}
      ${subs.data?.items.length === 0 && html`<p class="empty">No subscription yet.</p>`}
      <ul class="cards">
        ${subs.data?.items.map((s) =>
          html`
            <li key=${s.id}>
              <${SubscriptionCard} sub=${s}
                onChange=${replace} onDeleted=${subs.reload} onSecret=${setSecret} />
            </li>
          `
        )}
      </ul>
      <${NewSubscription} onCreated=${(/** @type {{url: string, secret: string}} */ s) => {
        setSecret(s);
        subs.reload();
      }} />
    <//>
  `;
}

/** @param {{value: string[], onChange: (v: string[]) => void}} props */
function EventTypes({ value, onChange }) {
  const error = useFieldError("eventTypes");
  return html`
    <fieldset class="types" aria-invalid=${error ? "true" : undefined}>
      <legend>Events</legend>
      ${EVENT_TYPES.map((t) =>
        html`
          <${Checkbox} label=${html`<code>${t}</code>`} name=${`type-${t}`}
            checked=${value.includes(t)}
            onChange=${(/** @type {boolean} */ on) =>
              onChange(on ? [...value, t] : value.filter((v) => v !== t))} />
        `
      )}
      ${error && html`<p class="error">${error}</p>`}
    </fieldset>
  `;
}

/** @param {{onCreated: (s: {url: string, secret: string}) => void}} props */
function NewSubscription({ onCreated }) {
  const [url, setUrl] = useState("");
  const [types, setTypes] = useState(DEFAULT_TYPES);
  const submit = async () => {
    if (types.length === 0) throw fieldError("eventTypes", "Pick at least one event.");
    const created = await ok(api.POST("/api/webhook-subscriptions", {
      body: { url: url.trim(), eventTypes: /** @type {EventType[]} */ (types) },
    }));
    setUrl("");
    setTypes(DEFAULT_TYPES);
    onCreated({ url: created.url, secret: created.secret });
  };
  return html`
    <${Form} onSubmit=${submit} submit="Add subscription" busyText="Adding…" class="form panel"
      label="Add a subscription">
      <h2>Add a subscription</h2>
      <${TextField} label="Endpoint URL" name="url" type="url" value=${url} onInput=${setUrl}
        required
        placeholder="https://example.com/hooks/orders" />
      <${EventTypes} value=${types} onChange=${setTypes} />
      <//>
  `;
}

/** The events a subscription receives, changed in place. @param {{sub: Subscription, onChange: (s: Subscription) => void}} props */
function Events({ sub, onChange }) {
  const [editing, setEditing] = useState(false);
  const [types, setTypes] = useState(/** @type {string[]} */ (sub.eventTypes));
  if (!editing) {
    return html`
      <p class="tags">${sub.eventTypes.map((t) => html`<code class="tag">${t}</code>`)}
        <button type="button" class="secondary small" aria-label=${`Edit events of ${sub.url}`}
          onClick=${() => {
            setTypes(sub.eventTypes);
            setEditing(true);
          }}>Edit events</button></p>
    `;
  }
  const submit = async () => {
    if (types.length === 0) throw fieldError("eventTypes", "Pick at least one event.");
    onChange(
      await ok(api.PATCH("/api/webhook-subscriptions/{id}", {
        params: { path: { id: sub.id } },
        body: { eventTypes: /** @type {EventType[]} */ (types) },
      })),
    );
    setEditing(false);
  };
  return html`
    <${Form} onSubmit=${submit} submit="Save events" busyText="Saving…" label=${`Events of ${sub.url}`}
      secondary=${html`<button type="button" class="secondary" onClick=${() =>
        setEditing(false)}>Cancel</button>`}>
      <${EventTypes} value=${types} onChange=${setTypes} />
      <//>
  `;
}

/** @param {{sub: Subscription, onChange: (s: Subscription) => void, onDeleted: () => void,
 *   onSecret: (s: {url: string, secret: string}) => void}} props */
function SubscriptionCard({ sub, onChange, onDeleted, onSecret }) {
  const zone = session()?.user.timezone;
  const [eventType, setEventType] = useState(sub.eventTypes[0] ?? "order.created");
  const [result, setResult] = useState(
    /** @type {import("../api.js").Schemas["WebhookTestResult"] | null} */ (null),
  );
  const test = useAction(async () => {
    setResult(null);
    setResult(
      await ok(api.POST("/api/webhook-subscriptions/{id}/test", {
        params: { path: { id: sub.id } },
        body: { eventType: /** @type {EventType} */ (eventType) },
      })),
    );
  });
  const toggle = useAction(async () => {
    onChange(
      await ok(api.PATCH("/api/webhook-subscriptions/{id}", {
        params: { path: { id: sub.id } },
        body: { active: !sub.active },
      })),
    );
  });
  const titleId = `sub-${sub.id}`;
  return html`
    <article class="panel" aria-labelledby=${titleId}>
      <div class="card-head">
        <h2 id=${titleId} class="url">${sub.url}</h2>
        <span class=${sub.active ? "tag on" : "tag off"}>${sub.active ? "Active" : "Paused"}</span>
      </div>
      <${Events} sub=${sub} onChange=${onChange} />
      <p class="sub">Secret ${sub.prefix ?? "?"}… · ${sub.lastFiredAt
        ? `last sent ${dateTime(sub.lastFiredAt, zone)}`
        : "never sent"}
        ${sub.failureCount ? ` · ${plural(sub.failureCount, "failure")} in a row` : ""}</p>
      ${sub.lastError && html`<p class="error">Last error: ${sub.lastError}</p>`}
      ${sub.needsSecretRotation &&
        html`<p class="error">Events are skipped until the secret is rotated.</p>`}
      <div class="actions test">
        <${SelectField} label="Test event" name="eventType" value=${eventType} onChange=${setEventType}
          options=${sub.eventTypes} class="inline" />
        <button type="button" class="secondary small" onClick=${() => test.run()} disabled=${test
          .busy}
          aria-busy=${test.busy}>${test.busy ? "Sending…" : "Send test"}</button>
        <span role="status">${result &&
          (result.ok
            ? html`<span class="okay">Delivered: HTTP ${result.status}</span>`
            : html`<span class="error">Failed: ${
              result.error ?? `HTTP ${result.status}`
            }</span>`)}</span>
        <${ErrorText} error=${test.error} />
      </div>
      <div class="actions">
        <button type="button" class="secondary small" onClick=${() =>
          toggle.run()} disabled=${toggle.busy}>
          ${sub.active ? "Pause" : "Resume"}</button>
        <${ConfirmButton} class="secondary small" label="Rotate secret" buttonLabel=${`Rotate secret of ${sub.url}`}
          title="Rotate the signing secret?" confirm="Rotate"
          question=${html`<p>The current secret stops working at once. Update your endpoint with
            the new one, shown next.</p>`}
          onConfirm=${async () => {
            const rotated = await ok(api.POST("/api/webhook-subscriptions/{id}/rotate-secret", {
              params: { path: { id: sub.id } },
            }));
            onSecret({ url: rotated.url, secret: rotated.secret });
            const { secret: _, ...rest } = rotated;
            onChange(rest);
          }} />
        <${ConfirmButton} label="Delete" buttonLabel=${`Delete the subscription to ${sub.url}`}
          title="Delete this subscription?" confirm="Delete"
          question=${html`<p>No more events go to <code>${sub.url}</code>.</p>`}
          onConfirm=${async () => {
            await ok(
              api.DELETE("/api/webhook-subscriptions/{id}", { params: { path: { id: sub.id } } }),
            );
            onDeleted();
          }} />
        <${ErrorText} error=${toggle.error} />
      </div>
    </article>
  `;
}

/** @param {ScreenProps} props */
export function WebhookLog({ path }) {
  const zone = session()?.user.timezone;
  const logs = useLoad(
    () => ok(api.GET("/api/webhook-logs", { params: { query: { limit: "200" } } })),
    [],
  );
  const subs = useLoad(
    () => ok(api.GET("/api/webhook-subscriptions", { params: { query: { limit: "200" } } })),
    [],
  );
  const urls = new Map((subs.data?.items ?? []).map((s) => [s.id, s.url]));
  return html`
    <${Page} title="Delivery log" actions=${html`
      <button type="button" class="secondary"
        onClick=${logs.reload}>Refresh</button>
    `}>
      <${WebhooksNav} current=${path} />
      <p class="lead">Every delivery attempt of the last 7 days, newest first.</p>
      <${ErrorText} error=${logs.error} />
      ${logs.loading && !logs.data && html`<${Loading} />`}
      ${logs.data?.logs.length === 0 && html`<p class="empty">Nothing sent yet.</p>`}
      ${logs.data && logs.data.logs.length > 0 && html`
        <table class="log">
          <caption class="visually-hidden">Webhook deliveries</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Endpoint</th>
              <th scope="col">Result</th>
              <th scope="col" class="num">Time</th>
            </tr>
          </thead>
          <tbody>
            ${logs.data.logs.map((l) =>
              html`
                <tr>
                  <td data-label="When">${dateTime(l.createdAt, zone)}</td>
                  <td data-label="Event"><code>${l.eventType}</code>${l.test ? " (test)" : ""}</td>
                  <td data-label="Endpoint" class="url">${urls.get(l.subscriptionId) ??
                    l.subscriptionId}</td>
                  <td data-label="Result">${l.ok
                    ? html`<span class="okay">HTTP ${l.status}</span>`
                    : html`<span class="error">${l.error ?? `HTTP ${l.status}`}</span>`}</td>
                  <td data-label="Time" class="num">${l.durationMs} ms</td>
                </tr>
              `
            )}
          </tbody>
        </table>
      `}
    <//>
  `;
}
