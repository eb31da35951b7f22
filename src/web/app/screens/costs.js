// @ts-check
/** Recurring costs (`/api/subscriptions`): what is paid every week, month, quarter or year. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { centsText, parseCents } from "../format.js";
import {
  ConfirmButton,
  ErrorText,
  fieldError,
  Form,
  Loading,
  Page,
  Pager,
  replaceItem,
  SelectField,
  TextField,
  useAction,
  useLoad,
} from "../ui.js";
import { InsightsNav } from "./parts.js";

/** @typedef {import("../api.js").Schemas} Schemas */
/** @typedef {Schemas["RecurringCost"]} Cost */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/**
 * Every frequency, as a record the generated types keep complete.
 * @type {Record<Cost["frequency"], string>}
 */
const FREQUENCIES = {
  weekly: "Weekly",
  monthly: "Monthly",
  quarterly: "Quarterly",
  yearly: "Yearly",
};
const LIMIT = 50;

/** @param {ScreenProps} props */
export function Costs({ path }) {
  const [offset, setOffset] = useState(0);
  const costs = useLoad(
    () =>
      ok(api.GET("/api/subscriptions", {
        params: { query: { limit: String(LIMIT), offset: String(offset) } },
      })),
    [offset],
  );
  const replace = replaceItem(costs);
  const items = costs.data?.items ?? [];
  return html`
    <${Page} title="Recurring costs">
      <${InsightsNav} current=${path} />
      <p class="lead">Tools, proxies, subscriptions: each is taken from your profit on its start
        date and every period after it, while it is active.</p>
      <${ErrorText} error=${costs.error} />
      ${costs.loading && !costs.data && html`<${Loading} />`}
      ${costs.data && items.length === 0 && html`<p class="empty">No recurring cost yet.</p>`}
      ${items.length > 0 && html`
        <table class=${costs.loading ? "stale" : ""}>
          <caption class="visually-hidden">Recurring costs</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" class="num">Cost</th>
              <th scope="col">Every</th>
              <th scope="col">From</th>
              <th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            ${items.map((c) =>
              html`<${Row} key=${c.id} cost=${c} onChange=${replace} onDeleted=${costs.reload} />`
            )}
          </tbody>
        </table>
      `}
      ${costs.data && costs.data.total > LIMIT && html`
        <${Pager} total=${costs.data.total} limit=${LIMIT} offset=${offset} shown=${items.length}
          onOffset=${setOffset} what="Recurring costs" />
      `}
      <${NewCost} onCreated=${costs.reload} />
    <//>
  `;
}

/** @param {{cost: Cost, onChange: (c: Cost) => void, onDeleted: () => void}} props */
function Row({ cost, onChange, onDeleted }) {
  const toggle = useAction(async () => {
    const result = await ok(api.PATCH("/api/subscriptions/{id}", {
      params: { path: { id: cost.id } },
      body: { active: !cost.active },
    }));
    onChange(result.subscription);
  });
  return html`
    <tr>
      <th scope="row" data-label="Name">${cost.name}${!cost.active &&
        html`
          <span class="tag off">Paused</span>
        `}</th>
      <td data-label="Cost" class="num">${centsText(cost.costCents)}</td>
      <td data-label="Every">${FREQUENCIES[cost.frequency]}</td>
      <td data-label="From">${cost.startDate}</td>
      <td class="row-actions">
        <button type="button" class="secondary small" onClick=${() => toggle.run()}
          disabled=${toggle.busy} aria-label=${`${cost.active ? "Pause" : "Resume"} ${cost.name}`}>
          ${cost.active ? "Pause" : "Resume"}</button>
        <${ConfirmButton} label="Delete" buttonLabel=${`Delete ${cost.name}`}
          title="Delete this cost?" confirm="Delete cost"
          question=${html`<p>Profit is worked out again without it, for past months too.</p>`}
          onConfirm=${async () => {
            await ok(api.DELETE("/api/subscriptions/{id}", { params: { path: { id: cost.id } } }));
            onDeleted();
          }} />
        <${ErrorText} error=${toggle.error} />
      </td>
    </tr>
  `;
}

/** @param {{onCreated: () => void}} props */
function NewCost({ onCreated }) {
  const [name, setName] = useState("");
  const [cost, setCost] = useState("");
  const [frequency, setFrequency] = useState(/** @type {Cost["frequency"]} */ ("monthly"));
  const [startDate, setStartDate] = useState("");
  const submit = async () => {
    let costCents;
    try {
      costCents = parseCents(cost);
    } catch (err) {
      throw fieldError("costCents", /** @type {Error} */ (err).message);
    }
    if (costCents === null) throw fieldError("costCents", "Enter what it costs each time.");
    await ok(api.POST("/api/subscriptions", {
      body: { name: name.trim(), costCents, frequency, startDate: startDate || undefined },
    }));
    setName("");
    setCost("");
    setStartDate("");
    onCreated();
  };
  return html`
    <${Form} onSubmit=${submit} submit="Add cost" busyText="Adding…" class="form panel"
      label="Add a recurring cost">
      <h2>Add a recurring cost</h2>
      <div class="grid">
        <${TextField} label="Name" name="name" value=${name} onInput=${setName} required
          placeholder="Proxy plan" />
        <${TextField} label="Cost" name="costCents" value=${cost} onInput=${setCost} required
          inputMode="decimal" hint="Each time it is paid, e.g. 29.99" />
        <${SelectField} label="Every" name="frequency" value=${frequency}
          options=${Object.entries(FREQUENCIES)} onChange=${(/** @type {string} */ v) =>
            setFrequency(/** @type {Cost["frequency"]} */ (v))} />
        <${TextField} label="From" name="startDate" type="date" value=${startDate}
          onInput=${setStartDate} hint="Empty: today" />
      </div>
      <//>
  `;
}
