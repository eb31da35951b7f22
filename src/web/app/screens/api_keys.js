// @ts-check
/** API keys: create (the key shown once), list with last use, revoke. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { dateTime } from "../format.js";
import { session } from "../session.js";
import {
  ConfirmButton,
  ErrorText,
  Form,
  Loading,
  Page,
  ShownOnce,
  TextField,
  useLoad,
} from "../ui.js";
import { AccountNav } from "./parts.js";

/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/** @param {ScreenProps} props */
export function ApiKeys({ path }) {
  const zone = session()?.user.timezone;
  const keys = useLoad(() => ok(api.GET("/api/account/api-keys")), []);
  const [name, setName] = useState("");
  const [created, setCreated] = useState(/** @type {{name: string, key: string} | null} */ (null));
  const submit = async () => {
    const result = await ok(api.POST("/api/account/api-keys", { body: { name: name.trim() } }));
    setCreated({ name: result.record.name, key: result.key });
    setName("");
    keys.reload();
  };
  return html`
    <${Page} title="API keys">
      <${AccountNav} current=${path} />
      <p class="lead">A key acts as you on every endpoint (except export and deletion): keep it
        on servers, never in a web page. Up to 25 keys.</p>
      ${created && html`
        <${ShownOnce} label=${`API key ${created.name}`} value=${created.key}
          onDone=${() => setCreated(null)} />
      `}
      <${Form} onSubmit=${submit} submit="Create key" busyText="Creating…" class="form panel inline-form"
        label="Create an API key">
        <${TextField} label="Key name" name="name" value=${name} onInput=${setName}
          placeholder="Shop sync" hint="Up to 80 characters." />
      <//>
      <${ErrorText} error=${keys.error} />
      ${keys.loading && !keys.data && html`<${Loading} />`}
      ${keys.data?.items.length === 0 && html`<p class="empty">No key yet.</p>`}
      ${keys.data && keys.data.items.length > 0 && html`
        <table>
          <caption class="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${keys.data.items.map((k) =>
              html`
                <tr>
                  <th scope="row" data-label="Name">${k.name}</th>
                  <td data-label="Key"><code>${k.prefix}…</code></td>
                  <td data-label="Created">${dateTime(k.createdAt, zone)}</td>
                  <td data-label="Last used">${k.lastUsedAt
                    ? dateTime(k.lastUsedAt, zone)
                    : "never"}</td>
                  <td class="row-actions">
                    <${ConfirmButton} label="Revoke" buttonLabel=${`Revoke ${k.name}`} title="Revoke this key?"
                      confirm="Revoke key"
                      question=${html`<p>Requests with <code>${k.prefix}…</code> fail from now on.</p>`}
                      onConfirm=${async () => {
                        await ok(
                          api.DELETE("/api/account/api-keys/{id}", {
                            params: { path: { id: k.id } },
                          }),
                        );
                        keys.reload();
                      }} />
                  </td>
                </tr>
              `
            )}
          </tbody>
        </table>
      `}
    <//>
  `;
}
