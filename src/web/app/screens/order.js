// @ts-check
/**
 * One order: its facts, its fields edited with PATCH (what a person sets is kept from later
 * messages), the carrier's scans, the messages that made it, and a share card of it.
 */
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { centsText, dateTime, printedCents } from "../format.js";
import { navigate } from "../router.js";
import { session } from "../session.js";
import { ConfirmButton, ErrorText, Facts, Form, Loading, Page, useAction, useLoad } from "../ui.js";
import { CarrierEvents, carrierName } from "./carrier.js";
import { learnedFrom, LearnedNote } from "./learned.js";
import { changes, draftOf, OrderFields, patch } from "./order_fields.js";
import { fieldWords, provenance } from "./provenance.js";
import { RawMessage } from "./parts.js";
import { ShareOrder } from "./shares.js";

/** @typedef {import("../api.js").Schemas["Order"]} Order */
/** @typedef {import("../api.js").Schemas["PatchOrder"]} PatchOrder */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

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
    <${Page} title=${order.itemSummary || "(item not named)"} back=${back} actions=${html`
      <${ConfirmButton} label="Delete order" title="Delete this order?" confirm="Delete order"
        question=${html`<p>The order and its history are removed. This cannot be undone.</p>`}
        onConfirm=${async () => {
          await ok(api.DELETE("/api/orders/{id}", { params: { path: { id } } }));
          navigate("/");
        }} />
    `}>
      <${Summary} order=${order} />
      <${CostNotSet} order=${order} onSaved=${loaded.set} />
      <${EditOrder} order=${order} onSaved=${loaded.set} />
      <${CarrierEvents} trackingNumber=${order.trackingNumber} carrier=${order.carrier}
        onMoved=${loaded.reload} />
      <${History} id=${id} />
      <${ShareOrder} orderId=${id} />
      <//>
  `;
}

/** Where an order came from, in words. */
const SOURCE_WORDS = { manual: "Entered by hand", email: "An email", chat: "A chat post" };

/** @param {{order: Order}} props */
function Summary({ order }) {
  const zone = session()?.user.timezone;
  const profit = order.salePriceCents !== undefined && order.costCents !== undefined
    ? order.salePriceCents - order.costCents
    : undefined;
  /** @type {[string, unknown][]} */
  const facts = [
    ["Status", order.status],
    ["Received", dateTime(order.receivedAt, zone)],
    ["Came from", SOURCE_WORDS[order.source]],
    ["Carrier", carrierName(order.carrier)],
    ["Size", order.size],
    ["Quantity", order.quantity],
    ["Price (as read)", order.price],
    ["Profit", centsText(profit)],
    ["Delivered", order.actualDelivery],
    ["Edited by you", order.userEdited.length ? fieldWords(order.userEdited) : ""],
  ];
  return html`
    <${Facts} facts=${facts}>
      ${order.imageUrl && html`
        <div>
          <dt>Image</dt>
          <dd><a href=${order.imageUrl} target="_blank" rel="noopener noreferrer">Product
            image</a></dd>
        </div>
      `}
      ${order.trackingUrl && html`
        <div>
          <dt>Tracking</dt>
          <dd><a href=${order.trackingUrl} target="_blank" rel="noopener noreferrer">Carrier
            page</a></dd>
        </div>
      `}
    <//>
  `;
}

/**
 * An order with a total but no cost: its total was in another currency than the workspace's
 * (or it was entered without one). One click uses the total as the cost.
 * @param {{order: Order, onSaved: (o: Order) => void}} props
 */
function CostNotSet({ order, onSaved }) {
  const cents = printedCents(order.total);
  const use = useAction(async () => {
    if (cents !== null) onSaved(await patch(order.id, { costCents: cents }));
  });
  if (!order.total || order.costCents !== undefined) return null;
  return html`
    <div class="notice actions" role="note">
      <p>Total ${order.total} as read; cost not set, so profit leaves this order out.</p>
      ${cents !== null && html`
        <button type="button" class="secondary small" onClick=${() => use.run()}
          disabled=${use.busy} aria-busy=${use.busy}>Use ${centsText(cents)} as the cost</button>
      `}
      <${ErrorText} error=${use.error} />
    </div>
  `;
}

/** @param {{order: Order, onSaved: (o: Order) => void}} props */
function EditOrder({ order, onSaved }) {
  const [draft, setDraft] = useState(draftOf(order));
  const [saved, setSaved] = useState(false);
  const [learned, setLearned] = useState(
    /** @type {Awaited<ReturnType<typeof learnedFrom>>} */ (null),
  );
  // Only the latest edit's answer is asked for: a newer edit, or leaving the page, stops the
  // asking of the one before.
  const asking = useRef(/** @type {AbortController | null} */ (null));
  useEffect(() => () => asking.current?.abort(), []);
  useEffect(() => setDraft(draftOf(order)), [order]);
  const submit = async () => {
    asking.current?.abort();
    setSaved(false);
    setLearned(null);
    const body = changes(draft, order);
    if (Object.keys(body).length === 0) return setSaved(true);
    // A cleared sale price is null in a PATCH; other cleared fields are left as they were.
    const result = await patch(order.id, /** @type {PatchOrder} */ (body));
    onSaved(result);
    setSaved(true);
    // The reader may learn from the edit, after it is saved: say what, when it has.
    const ask = asking.current = new AbortController();
    learnedFrom(result, Object.keys(body), ask.signal)
      .then((l) => !ask.signal.aborted && setLearned(l))
      .catch(() => {});
  };
  return html`
    <${Form} onSubmit=${submit} submit="Save changes" busyText="Saving…" class="form panel"
      label="Edit order" secondary=${saved && html`<span role="status" class="saved">Saved</span>`}>
      <h2>Details</h2>
      <${OrderFields} draft=${draft} set=${setDraft} />
      <//>
    ${learned && html`<${LearnedNote} key=${learned.template.id} learned=${learned} />`}
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
              ${m.setFields?.length
                ? html`<p class="sub provenance">${provenance(m, zone)}.</p>`
                : null}
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
