// @ts-check
/**
 * One order: its fields edited with PATCH (what a person sets is kept from later messages),
 * the carrier's scans, and the messages that made it. Also the inline editors and the create
 * form the table uses.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { centsText, dateTime, parseCents } from "../format.js";
import { navigate } from "../router.js";
import { session } from "../session.js";
import {
  ConfirmButton,
  ErrorText,
  fieldError,
  Form,
  Loading,
  Page,
  SelectField,
  TextField,
  useId,
  useLoad,
} from "../ui.js";
import { CarrierEvents, DetectedCarrier } from "./carrier.js";
import { RawMessage } from "./parts.js";

/** @typedef {import("../api.js").Schemas["Order"]} Order */
/** @typedef {import("../api.js").Schemas["PatchOrder"]} PatchOrder */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/**
 * Every status, as a record so the generated types keep the list complete.
 * @type {Record<Order["status"], true>}
 */
const ALL_STATUSES = { ordered: true, shipped: true, delivered: true, canceled: true, issue: true };
export const STATUSES = /** @type {Order["status"][]} */ (Object.keys(ALL_STATUSES));

/**
 * @param {string} id
 * @param {PatchOrder} body
 */
const patch = (id, body) =>
  ok(api.PATCH("/api/orders/{id}", { params: { path: { id } }, body })).then((r) => r.order);

/** The status of one order, changed as soon as it is picked. @param {{order: Order, onChange: (o: Order) => void}} props */
export function StatusSelect({ order, onChange }) {
  const id = useId();
  const [error, setError] = useState(/** @type {Error | null} */ (null));
  const [busy, setBusy] = useState(false);
  return html`
    <label class="visually-hidden" for=${id}>Status of ${order.itemSummary}</label>
    <select id=${id} value=${order.status} disabled=${busy} aria-busy=${busy}
      class=${`status status-${order.status}`} aria-invalid=${error ? "true" : undefined}
      onChange=${async (/** @type {Event} */ e) => {
        const select = /** @type {HTMLSelectElement} */ (e.currentTarget);
        setBusy(true);
        setError(null);
        try {
          onChange(
            await patch(order.id, { status: /** @type {Order["status"]} */ (select.value) }),
          );
        } catch (err) {
          select.value = order.status;
          setError(/** @type {Error} */ (err));
        } finally {
          setBusy(false);
        }
      }}>
      ${STATUSES.map((s) => html`<option value=${s}>${s}</option>`)}
    </select>
    <${ErrorText} error=${error} />
  `;
}

/** The sale price, saved when the field is left or Enter is pressed. @param {{order: Order, onChange: (o: Order) => void}} props */
export function PriceInput({ order, onChange }) {
  const id = useId();
  const saved = centsText(order.salePriceCents);
  const [text, setText] = useState(saved);
  const [error, setError] = useState(/** @type {Error | null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(saved), [saved]);
  const save = async () => {
    if (text.trim() === saved) return;
    setError(null);
    let cents;
    try {
      cents = parseCents(text);
    } catch (err) {
      setError(/** @type {Error} */ (err));
      return;
    }
    setBusy(true);
    try {
      onChange(await patch(order.id, { salePriceCents: cents }));
    } catch (err) {
      setError(/** @type {Error} */ (err));
    } finally {
      setBusy(false);
    }
  };
  return html`
    <label class="visually-hidden" for=${id}>Sale price of ${order.itemSummary}</label>
    <input id=${id} class="price" inputMode="decimal" value=${text} placeholder="—"
      aria-invalid=${error ? "true" : undefined} aria-busy=${busy} aria-describedby=${error
        ? `${id}-e`
        : undefined}
      onInput=${(/** @type {Event} */ e) =>
        setText(/** @type {HTMLInputElement} */ (e.currentTarget).value)}
      onChange=${save}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => e.key === "Enter" && save()} />
    ${error && html`<p class="error" id=${`${id}-e`} role="alert">${error.message}</p>`}
  `;
}

/** Money fields typed as text, sent as cents. */
const MONEY = /** @type {const} */ (["costCents", "salePriceCents"]);
/** Text fields of the form, as the API names them. */
const TEXT = /** @type {const} */ ([
  ["itemSummary", "Item"],
  ["orderNumber", "Order number"],
  ["store", "Store"],
  ["trackingNumber", "Tracking number"],
  ["carrier", "Carrier"],
  ["total", "Total (as shown by the store)"],
]);

/** @typedef {Record<string, string>} Draft */

/** @param {Partial<Order>} order @returns {Draft} */
const draftOf = (order) => ({
  ...Object.fromEntries(TEXT.map(([k]) => [k, String(order[k] ?? "")])),
  costCents: centsText(order.costCents),
  salePriceCents: centsText(order.salePriceCents),
  status: order.status ?? "ordered",
  estimatedDelivery: order.estimatedDelivery ?? "",
});

/**
 * The fields that differ from the order, as a PATCH (or create) body.
 * @param {Draft} draft
 * @param {Partial<Order>} order
 */
function changes(draft, order) {
  /** @type {Record<string, unknown>} */
  const body = {};
  const before = draftOf(order);
  for (const [key, value] of Object.entries(draft)) {
    if (value.trim() === before[key]) continue;
    if (MONEY.includes(/** @type {never} */ (key))) {
      try {
        body[key] = parseCents(value);
      } catch (err) {
        throw fieldError(key, /** @type {Error} */ (err).message);
      }
    } else body[key] = value.trim() === "" ? undefined : value.trim();
  }
  return body;
}

/** @param {{draft: Draft, set: (d: Draft) => void}} props */
function OrderFields({ draft, set }) {
  /** @param {string} key */
  const field = (key) => (/** @type {string} */ v) => set({ ...draft, [key]: v });
  return html`
    <div class="grid">
      ${TEXT.map(([key, label]) =>
        html`
          <${TextField} label=${label} name=${key} value=${draft[key]}
            onInput=${field(key)} required=${key === "itemSummary"} />
        `
      )}
      <${TextField} label="Cost" name="costCents" value=${draft.costCents} onInput=${field(
        "costCents",
      )}
        inputMode="decimal" hint="What you paid, e.g. 24.99" />
      <${TextField} label="Sale price" name="salePriceCents" value=${draft.salePriceCents}
        onInput=${field("salePriceCents")} inputMode="decimal" hint="What you sold it for" />
      <${SelectField} label="Status" name="status" value=${draft.status} onChange=${field("status")}
        options=${STATUSES} />
      <${TextField} label="Estimated delivery" name="estimatedDelivery" type="date"
        value=${draft.estimatedDelivery} onInput=${field("estimatedDelivery")} />
    </div>
    <${DetectedCarrier} trackingNumber=${draft.trackingNumber} carrier=${draft.carrier}
      onUse=${field("carrier")} />
  `;
}

/** @param {{onCreated: (o: Order) => void}} props */
export function NewOrder({ onCreated }) {
  const [draft, setDraft] = useState(draftOf({}));
  const submit = async () => {
    const body = /** @type {import("../api.js").Schemas["CreateOrder"]} */ (changes(draft, {}));
    const result = await ok(api.POST("/api/orders", { body }));
    onCreated(result.order);
  };
  return html`
    <${Form} onSubmit=${submit} submit="Create order" busyText="Creating…" class="form panel"
      label="New order">
      <h2>New order</h2>
      <p class="hint">An order number that matches an existing order adds to that order.</p>
      <${OrderFields} draft=${draft} set=${setDraft} />
      <//>
  `;
}

/** @param {ScreenProps} props */
export function OrderPage({ params }) {
  const id = params.id;
  const loaded = useLoad(
    () => ok(api.GET("/api/orders/{id}", { params: { path: { id } } })).then((r) => r.order),
    [id],
  );
  const order = loaded.data;
  const back = html`<p class="back"><a href="/">← Orders</a></p>`;
  if (!order) {
    return html`<${Page} title="Order" back=${back}>
      ${loaded.error ? html`<${ErrorText} error=${loaded.error} />` : html`<${Loading} />`}
    <//>`;
  }
  return html`
    <${Page} title=${order.itemSummary} back=${back} actions=${html`
      <${ConfirmButton} label="Delete order" title="Delete this order?" confirm="Delete order"
        question=${html`<p>The order and its history are removed. This cannot be undone.</p>`}
        onConfirm=${async () => {
          await ok(api.DELETE("/api/orders/{id}", { params: { path: { id } } }));
          navigate("/");
        }} />
    `}>
      <${Summary} order=${order} />
      <${EditOrder} order=${order} onSaved=${loaded.set} />
      <${CarrierEvents} trackingNumber=${order.trackingNumber} carrier=${order.carrier}
        onMoved=${loaded.reload} />
      <${History} id=${id} />
      <//>
  `;
}

/** @param {{order: Order}} props */
function Summary({ order }) {
  const zone = session()?.user.timezone;
  const profit = order.salePriceCents !== undefined && order.costCents !== undefined
    ? order.salePriceCents - order.costCents
    : undefined;
  const facts = [
    ["Status", order.status],
    ["Received", dateTime(order.receivedAt, zone)],
    ["Source", order.source],
    ["Profit", centsText(profit)],
    ["Delivered", order.actualDelivery],
    ["Edited by you", order.userEdited.join(", ")],
  ].filter(([, v]) => v);
  return html`
    <dl class="facts">
      ${facts.map(([k, v]) =>
        html`
          <div>
            <dt>${k}</dt>
            <dd>${v}</dd>
          </div>
        `
      )}
      ${order.trackingUrl && html`
        <div>
          <dt>Tracking</dt>
          <dd>
                <a href=${order
                  .trackingUrl} target="_blank" rel="noopener noreferrer">Carrier page</a></dd>
        </div>
      `}
    </dl>
  `;
}

/** @param {{order: Order, onSaved: (o: Order) => void}} props */
function EditOrder({ order, onSaved }) {
  const [draft, setDraft] = useState(draftOf(order));
  const [saved, setSaved] = useState(false);
  useEffect(() => setDraft(draftOf(order)), [order]);
  const submit = async () => {
    setSaved(false);
    const body = changes(draft, order);
    if (Object.keys(body).length === 0) return setSaved(true);
    // A cleared sale price is null in a PATCH; other cleared fields are left as they were.
    const result = await patch(order.id, /** @type {PatchOrder} */ (body));
    onSaved(result);
    setSaved(true);
  };
  return html`
    <${Form} onSubmit=${submit} submit="Save changes" busyText="Saving…" class="form panel"
      label="Edit order" secondary=${saved && html`<span role="status" class="saved">Saved</span>`}>
      <h2>Details</h2>
      <${OrderFields} draft=${draft} set=${setDraft} />
      <//>
  `;
}

/** @param {{id: string}} props */
function History({ id }) {
  const zone = session()?.user.timezone;
  const messages = useLoad(
    () => ok(api.GET("/api/orders/{id}/messages", { params: { path: { id } } })),
    [id],
  );
  return html`
    <section class="panel" aria-labelledby="history">
      <h2 id="history">Messages</h2>
      <${ErrorText} error=${messages.error} />
      ${messages.loading && html`<${Loading} />`}
      ${messages.data?.items.length === 0 &&
        html`<p class="empty">Entered by hand: no message made this order.</p>`}
      <ol class="history">
        ${messages.data?.items.map((m) =>
          html`
            <li>
              <p><strong>${m.subject ?? m.itemSummary ?? m.channel}</strong>
                <span class="sub"> ${m.from ? `from ${m.from} · ` : ""}${dateTime(
                  m.receivedAt,
                  zone,
                )} · ${m.outcome}</span></p>
              ${m.setFields?.length ? html`<p class="sub">Set ${m.setFields.join(", ")}</p>` : null}
              ${m.channel === "email" && m.rawSize
                ? html`
                  <${RawMessage} id=${m.id} />
                `
                : null}
            </li>
          `
        )}
      </ol>
    </section>
  `;
}
