// @ts-check
/**
 * The workspace currency (settings `currency`, docs/insights.md): imported orders whose total
 * is printed in it count that total as their cost. Defaults from the account's time zone.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { useDeployment } from "../deployment.js";
import { Form, Loading, SelectField, useLoad } from "../ui.js";

/** @typedef {import("../api.js").Schemas["WorkspaceSettings"]["currency"]} Currency */

export function CurrencySetting() {
  // `POST /api/settings {}` changes nothing and answers the settings (their only read).
  const settings = useLoad(() => ok(api.POST("/api/settings", { body: {} })), []);
  const [chosen, setChosen] = useState(/** @type {Currency | undefined} */ (undefined));
  const [saved, setSaved] = useState(false);
  const current = chosen ?? settings.data?.settings.currency;
  // The server's list (GET /api/deployment), so the choices are always ones it accepts.
  const currencies = useDeployment()?.currencies ?? (current ? [current] : []);
  const submit = async () => {
    setSaved(false);
    if (!current) return;
    settings.set(await ok(api.POST("/api/settings", { body: { currency: current } })));
    setSaved(true);
  };
  return html`
    <section class="panel" aria-labelledby="currency">
      <h2 id="currency">Currency</h2>
      ${settings.loading && html`<${Loading} />`}
      ${current && html`
        <${Form} onSubmit=${submit} submit="Save currency" busyText="Saving…" label="Currency"
          secondary=${saved && html`<span role="status" class="saved">Saved</span>`}>
          <${SelectField} label="Your currency" name="currency" value=${current}
            options=${currencies}
            onChange=${(/** @type {string} */ v) => setChosen(/** @type {Currency} */ (v))}
            hint="Costs and profit count in it. An imported order whose total is in it gets that total as its cost; a total in another currency is shown as read, with its cost not set." />
          <//>
      `}
    </section>
  `;
}
