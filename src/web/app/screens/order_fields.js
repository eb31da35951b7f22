// @ts-check
/**
 * An order's editors, shared by the table and the order page: status and sale price edited in
 * place, the fields as a form (a PATCH of what changed), the new-order form.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { centsText, parseCents } from "../format.js";
import { ErrorText, fieldError, Form, SelectField, TextField, useId } from "../ui.js";
import { DetectedCarrier } from "./carrier.js";

/** @typedef {import("../api.js").Schemas["Order"]} Order */
/** @typedef {import("../api.js").Schemas["PatchOrder"]} PatchOrder */

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
export const patch = (id, body) =>
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
export const draftOf = (order) => ({
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
export function changes(draft, order) {
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
export function OrderFields({ draft, set }) {
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
