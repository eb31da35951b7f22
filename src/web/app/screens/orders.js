// @ts-check
/**
 * The orders table: filters and paging kept in the address (so reload and back work), paged
 * exactly as GET /api/orders pages, with status and sale price edited in place.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { dateOnly, dateTime, moneyText } from "../format.js";
import { setQuery } from "../router.js";
import { session } from "../session.js";
import {
  ConfirmButton,
  ErrorText,
  Loading,
  Page,
  Pager,
  replaceItem,
  SelectField,
  TextField,
  useLoad,
} from "../ui.js";
import { NewOrder, PriceInput, STATUSES, StatusSelect } from "./order_fields.js";
import { carrierName } from "./carrier.js";

/** @typedef {import("../api.js").Schemas["Order"]} Order */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

const PAGE_SIZES = ["25", "50", "100", "200"];

/** @param {ScreenProps} props */
export function Orders({ query }) {
  const status = query.get("status") ?? "";
  const q = query.get("q") ?? "";
  const from = query.get("from") ?? "";
  const to = query.get("to") ?? "";
  const limit = PAGE_SIZES.includes(query.get("limit") ?? "") ? query.get("limit") ?? "50" : "50";
  const offset = query.get("offset") ?? "0";
  const [adding, setAdding] = useState(false);
  const list = useLoad(
    () =>
      ok(api.GET("/api/orders", {
        params: {
          query: {
            limit,
            offset,
            ...(status && { status }),
            ...(q && { q }),
            ...(from && { from }),
            ...(to && { to }),
          },
        },
      })),
    [status, q, from, to, limit, offset],
  );
  const replace = replaceItem(list);
  // The workspace currency, for costs and profit (`POST /api/settings {}` reads the settings).
  const settings = useLoad(() => ok(api.POST("/api/settings", { body: {} })), []);
  const currency = settings.data?.settings.currency;

  return html`
    <${Page} title="Orders" actions=${html`
      <button type="button" onClick=${() => setAdding(!adding)} aria-expanded=${adding}>
        ${adding ? "Close" : "New order"}</button>
    `}>
      ${adding && html`<${NewOrder} onCreated=${() => {
        setAdding(false);
        list.reload();
      }} />`}
      <${Filters} status=${status} q=${q} from=${from} to=${to} limit=${limit} />
      <${ErrorText} error=${list.error} />
      ${list.loading && !list.data ? html`<${Loading} label="Loading orders…" />` : null}
      ${list.data && html`
        <div class=${list.loading ? "stale" : ""} aria-busy=${list.loading}>
          ${list.data.items.length === 0
            ? html`<p class="empty">${
              status || q || from || to
                ? "No order matches these filters."
                : "No orders yet. Create one, import an email or set up intake."
            }</p>`
            : html`
              <${Table} orders=${list.data.items} currency=${currency} onChange=${replace}
                onDeleted=${() => list.reload()} />
            `}
          <${Pager} what="Orders" total=${list.data.total} limit=${list.data.limit}
            offset=${list.data.offset} shown=${list.data.items.length}
            onOffset=${(/** @type {number} */ o) => setQuery({ offset: o || null })} />
        </div>
      `}
    <//>
  `;
}

/** @param {{status: string, q: string, from: string, to: string, limit: string}} props */
function Filters({ status, q, from, to, limit }) {
  // The search box waits for a pause in typing before it asks the API.
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  useEffect(() => {
    if (text === q) return;
    const timer = setTimeout(() => setQuery({ q: text.trim(), offset: null }), 300);
    return () => clearTimeout(timer);
  }, [text]);
  /** @param {string} key */
  const set = (key) => (/** @type {string} */ v) => setQuery({ [key]: v, offset: null });
  return html`
    <form class="filters" role="search" aria-label="Filter orders"
      onSubmit=${(/** @type {Event} */ e) => {
        e.preventDefault();
        setQuery({ q: text.trim(), offset: null });
      }}>
      <${TextField} label="Search" name="q" type="search" value=${text} onInput=${setText}
        placeholder="Order number, item, store, tracking" class="grow" />
      <${SelectField} label="Status" name="status" value=${status} onChange=${set("status")}
        options=${[["", "Any status"], ...STATUSES.map((s) => [s, s])]} />
      <${TextField} label="Received from" name="from" type="date" value=${from}
        onInput=${set("from")} />
      <${TextField} label="Received to" name="to" type="date" value=${to} onInput=${set("to")} />
      <${SelectField} label="Per page" name="limit" value=${limit} onChange=${set("limit")}
        options=${PAGE_SIZES} />
    </form>
  `;
}

/**
 * @typedef {object} TableProps
 * @property {Order[]} orders
 * @property {string} [currency] the workspace's, for costs, sale prices and profit
 * @property {(o: Order) => void} onChange
 * @property {() => void} onDeleted
 */

/** @param {TableProps} props */
function Table({ orders, currency, onChange, onDeleted }) {
  const zone = session()?.user.timezone;
  return html`
    <table class="orders">
      <caption class="visually-hidden">Orders, newest received first</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Received</th>
          <th scope="col">Status</th>
          <th scope="col">Shipping</th>
          <th scope="col" class="num">Total</th>
          <th scope="col" class="num">Cost</th>
          <th scope="col" class="num">Sale price${currency ? ` (${currency})` : ""}</th>
          <th scope="col" class="num">Profit</th>
          <th scope="col"><span class="visually-hidden">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        ${orders.map((order) =>
          html`
            <${Row} key=${order.id} order=${order} zone=${zone} currency=${currency}
              onChange=${onChange} onDeleted=${onDeleted} />
          `
        )}
      </tbody>
    </table>
  `;
}

/** Where an order came from, in words. @type {Record<Order["source"], string>} */
const SOURCES = { manual: "entered by hand", email: "from email", chat: "from chat" };

/**
 * The carrier and where the parcel is: "UPS · delivered Nov 24, 2026", "FedEx · expected Nov
 * 28, 2026". Delivery dates are calendar days, shown as they are (UTC, never shifted a day).
 * @param {Order} order
 */
function shipping(order) {
  const carrier = carrierName(order.carrier);
  const when = order.actualDelivery
    ? `delivered ${day(order.actualDelivery)}`
    : order.estimatedDelivery
    ? `expected ${day(order.estimatedDelivery)}`
    : order.trackingNumber
    ? "tracking"
    : "";
  return [carrier, when].filter(Boolean).join(" · ");
}

/** A delivery day ("2026-11-28", or a full time) as the day it names. @param {string} value */
const day = (value) => dateOnly(value.length === 10 ? `${value}T12:00:00Z` : value, "UTC");

/**
 * @param {{order: Order, zone?: string, currency?: string, onChange: (o: Order) => void,
 *   onDeleted: () => void}} props
 */
function Row({ order, zone, currency, onChange, onDeleted }) {
  const profit = order.salePriceCents !== undefined && order.costCents !== undefined
    ? order.salePriceCents - order.costCents
    : undefined;
  return html`
    <tr>
      <th scope="row" data-label="Item">
        <a href=${`/orders/${encodeURIComponent(order.id)}`}>${order.itemSummary ||
          "(item not named)"}</a>
        <span class="sub">${[
          order.store,
          order.orderNumber && `#${order.orderNumber.replace(/^#/, "")}`,
          order.size && `size ${order.size}`,
          order.quantity && order.quantity > 1 && `× ${order.quantity}`,
          SOURCES[order.source],
        ].filter(Boolean).join(" · ")}</span>
      </th>
      <td data-label="Received">${dateTime(order.receivedAt, zone)}</td>
      <td data-label="Status">
        <${StatusSelect} order=${order} onChange=${onChange} />
      </td>
      <td data-label="Shipping">${shipping(order)}</td>
      <td data-label="Total" class="num">${order.total ?? order.price ?? ""}</td>
      <td data-label="Cost" class="num">${order.costCents === undefined && order.total
        ? html`<span class="sub">not set</span>`
        : moneyText(order.costCents, currency)}</td>
      <td data-label="Sale price" class="num">
        <${PriceInput} order=${order} onChange=${onChange} />
      </td>
      <td data-label="Profit" class=${`num ${profit !== undefined && profit < 0 ? "loss" : ""}`}>
        ${moneyText(profit, currency)}</td>
      <td class="row-actions">
        <${ConfirmButton} label="Delete" buttonLabel=${`Delete ${order.itemSummary}`}
          title="Delete this order?"
          question=${html`<p><strong>${order.itemSummary}</strong> and its history are removed.
            Webhooks are not told. This cannot be undone.</p>`}
          confirm="Delete order"
          onConfirm=${async () => {
            await ok(api.DELETE("/api/orders/{id}", { params: { path: { id: order.id } } }));
            onDeleted();
          }} />
      </td>
    </tr>
  `;
}
