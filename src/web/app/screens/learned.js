// @ts-check
/**
 * What the reader learned from an edit of an email order (CONTRACT "Learning from
 * corrections"): learning runs after the edit is saved, so the order page asks a few times for
 * a learned template of this order newer than the edit, says what it learned and offers an
 * Undo that deletes it.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { ErrorText, useAction } from "../ui.js";

/** @typedef {import("../api.js").Schemas["CustomTemplate"]} Template */
/** @typedef {import("../api.js").Schemas["Order"]} Order */

/** The fields learning can learn, as a person names them. @type {Record<string, string>} */
const LEARNED_LABELS = {
  orderNumber: "order number",
  itemSummary: "item name",
  store: "store",
  total: "total",
  price: "price",
  trackingNumber: "tracking number",
  estimatedDelivery: "delivery date",
  size: "size",
  quantity: "quantity",
};

/** Asks this many times, this far apart, before saying nothing. */
const TRIES = 8;
const PAUSE_MS = 300;

/**
 * The learned template an edit of `order` (saved at `order.updatedAt`) wrote, and which of the
 * edited `fields` it reads; null when nothing was learned. `signal` stops the asking (and the
 * request in flight) when the page has moved on, so it does not go on polling other screens.
 * @param {Order} order
 * @param {string[]} fields
 * @param {AbortSignal} signal
 * @returns {Promise<{template: Template, fields: string[]} | null>}
 */
export async function learnedFrom(order, fields, signal) {
  const wanted = fields.filter((f) => f in LEARNED_LABELS);
  if (order.source !== "email" || wanted.length === 0) return null;
  for (let i = 0; i < TRIES; i++) {
    await new Promise((r) => setTimeout(r, PAUSE_MS));
    if (signal.aborted) return null;
    const { items } = await ok(api.GET("/api/templates/custom", { signal }));
    const template = items.find((t) =>
      t.learned?.orderId === order.id && t.learned.at >= order.updatedAt &&
      wanted.includes(t.learned.field)
    );
    if (template) return { template, fields: wanted.filter((f) => f in template.fields) };
  }
  return null;
}

/** @param {{learned: {template: Template, fields: string[]}}} props */
export function LearnedNote({ learned }) {
  const [undone, setUndone] = useState(false);
  const { template, fields } = learned;
  const undo = useAction(async () => {
    await ok(
      api.DELETE("/api/templates/custom/{id}", { params: { path: { id: template.id } } }),
    );
    setUndone(true);
  });
  const from = template.match.from ?? template.name;
  return html`
    <div class="panel learned" role="status">
      ${undone ? html`<p>Undone: mail from ${from} is read as before.</p>` : html`
        <p>Learned for mail from ${from}: ${fields.map((f) => LEARNED_LABELS[f]).join(", ")}</p>
        <button type="button" class="secondary small" disabled=${undo.busy}
          onClick=${() => undo.run()}>Undo</button>
      `}
      <${ErrorText} error=${undo.error} />
    </div>
  `;
}
