// @ts-check
/**
 * Insights: profit over a range (`GET /api/profitability`) with a bar per month and a card to
 * share it, and the month's calendar (`GET /api/calendar`).
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { centsText, count } from "../format.js";
import { ErrorText, Facts, Loading, Page, SelectField, useLoad } from "../ui.js";
import { InsightsNav } from "./parts.js";
import { ShareProfit } from "./shares.js";

/** @typedef {import("../api.js").Schemas} Schemas */
/** @typedef {Schemas["Profitability"]["range"]} Range */
/** @typedef {Schemas["Profitability"]["byMonth"][number]} Month */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/**
 * Every range, as a record the generated types keep complete.
 * @type {Record<Range, string>}
 */
export const RANGES = {
  month: "This month",
  quarter: "This quarter",
  year: "This year",
  all: "All time",
};

/** @param {ScreenProps} props */
export function Insights({ path }) {
  return html`
    <${Page} title="Insights">
      <${InsightsNav} current=${path} />
      <${Profit} />
      <${Calendar} />
      <//>
  `;
}

function Profit() {
  const [range, setRange] = useState(/** @type {Range} */ ("year"));
  const figures = useLoad(
    () => ok(api.GET("/api/profitability", { params: { query: { range } } })),
    [range],
  );
  const p = figures.data;
  /** @type {[string, string][]} */
  const facts = p
    ? [
      ["Orders", count(p.orders)],
      ["Spent", centsText(p.spentCents)],
      ["Revenue", centsText(p.revenueCents)],
      ["Cost of what sold", centsText(p.soldCostCents)],
      ["Recurring costs", centsText(p.recurringCents)],
    ]
    : [];
  return html`
    <section class="panel" aria-labelledby="profit" aria-busy=${figures.loading}>
      <div class="card-head">
        <h2 id="profit">Profit</h2>
        <${SelectField} class="inline" label="Range" name="range" value=${range}
          options=${Object.entries(RANGES)} onChange=${(/** @type {string} */ v) =>
            setRange(/** @type {Range} */ (v))} />
      </div>
      <${ErrorText} error=${figures.error} />
      ${!p && figures.loading && html`<${Loading} />`}
      ${p && html`
        <p class=${figures.loading ? "big stale" : "big"}>
          <span class="sub">${p.from} to ${p.to}</span>
          <strong class=${p.profitCents < 0 ? "profit loss" : "profit"}>${centsText(
            p.profitCents,
          )}</strong>
        </p>
        <${Facts} facts=${facts} />
        <p class="hint">Profit is revenue less what the sold orders cost, less recurring costs.
          Canceled orders are left out.</p>
        <${Chart} months=${p.byMonth} />
        <${ShareProfit} range=${range} />
      `}
    </section>
  `;
}

/**
 * "2026-03" -> "Mar"; when the months span years, with the year on January and on the first
 * month shown (the range's dates above say the year otherwise).
 * @param {string} month
 * @param {boolean} first
 * @param {boolean} years
 */
function monthLabel(month, first, years) {
  const date = new Date(`${month}-01T00:00:00Z`);
  const name = date.toLocaleDateString(undefined, { month: "short", timeZone: "UTC" });
  return years && (first || month.endsWith("-01")) ? `${name} ’${month.slice(2, 4)}` : name;
}

/**
 * A bar per month around a zero line, labelled below in HTML (text stays readable when the
 * drawing scales down), then the same figures as a table for screen readers and exact values
 * (the drawing is hidden from them).
 * @param {{months: Month[]}} props
 */
function Chart({ months }) {
  const values = months.map((m) => m.profitCents);
  const top = Math.max(0, ...values);
  const bottom = Math.min(0, ...values);
  const span = top - bottom || 1;
  const height = 160;
  const zero = (top / span) * height;
  const step = 40;
  const width = months.length * step;
  // Labels fit one a month up to 12 months, every few months beyond.
  const every = Math.ceil(months.length / 12);
  const years = months.length > 0 &&
    months[0].month.slice(0, 4) !== months.at(-1)?.month.slice(0, 4);
  return html`
    <figure class="chart">
      <svg viewBox=${`0 0 ${width} ${height}`} aria-hidden="true" focusable="false"
        preserveAspectRatio="none">
        ${months.map((m, i) => {
          const h = Math.max((Math.abs(m.profitCents) / span) * height, m.profitCents ? 1 : 0);
          return html`
            <rect key=${m.month} x=${i * step + 6} y=${m.profitCents >= 0 ? zero - h : zero}
              width=${step - 12} height=${h} class=${m.profitCents < 0 ? "bar loss" : "bar"} />
          `;
        })}
        <line x1="0" x2=${width} y1=${zero} y2=${zero} class="axis" />
      </svg>
      <div class="chart-labels" aria-hidden="true">
        ${months.map((m, i) =>
          html`<span key=${m.month}>${
            i % every === 0 ? monthLabel(m.month, i === 0, years) : ""
          }</span>`
        )}
      </div>
      <figcaption class="visually-hidden">Profit by month</figcaption>
    </figure>
    <details class="months">
      <summary>Figures by month</summary>
      <table>
        <caption class="visually-hidden">Money by month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col" class="num">Spent</th>
            <th scope="col" class="num">Revenue</th>
            <th scope="col" class="num">Profit</th>
          </tr>
        </thead>
        <tbody>
          ${[...months].reverse().map((m) =>
            html`
              <tr key=${m.month}>
                <th scope="row">${m.month}</th>
                <td data-label="Spent" class="num">${centsText(m.spentCents)}</td>
                <td data-label="Revenue" class="num">${centsText(m.revenueCents)}</td>
                <td data-label="Profit" class=${m.profitCents < 0 ? "num loss" : "num"}>${centsText(
                  m.profitCents,
                )}</td>
              </tr>
            `
          )}
        </tbody>
      </table>
    </details>
  `;
}

const KINDS = /** @type {const} */ ([
  ["ordered", "ordered"],
  ["shipped", "shipped"],
  ["delivered", "delivered"],
  ["expected", "expected"],
]);

/** @param {string} month YYYY-MM @param {number} by */
function shift(month, by) {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
}

/** The days of a month with what happened on each: received, shipped, delivered, expected. */
function Calendar() {
  const [month, setMonth] = useState(/** @type {string | undefined} */ (undefined));
  const cal = useLoad(
    () => ok(api.GET("/api/calendar", { params: { query: month ? { month } : {} } })),
    [month],
  );
  const c = cal.data;
  const first = c ? new Date(`${c.month}-01T00:00:00Z`).getUTCDay() : 0;
  // Monday first: blank cells before the 1st.
  const blanks = (first + 6) % 7;
  const title = c
    ? new Date(`${c.month}-01T00:00:00Z`).toLocaleDateString(undefined, {
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    })
    : "";
  return html`
    <section class="panel" aria-labelledby="calendar" aria-busy=${cal.loading}>
      <div class="card-head">
        <h2 id="calendar">Calendar${title && html`: <span>${title}</span>`}</h2>
        ${c && html`
          <div class="actions">
            <button type="button" class="secondary small" onClick=${() =>
              setMonth(shift(c.month, -1))}>Previous month</button>
            <button type="button" class="secondary small" onClick=${() =>
              setMonth(shift(c.month, 1))}>Next month</button>
          </div>
        `}
      </div>
      <${ErrorText} error=${cal.error} />
      ${!c && cal.loading && html`<${Loading} />`}
      ${c && c.days.every((d) => KINDS.every(([k]) => d[k] === 0)) &&
        html`<p class="sub">Nothing happened this month.</p>`}
      ${c && html`
        <ol class=${cal.loading ? "calendar stale" : "calendar"}>
          ${["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((d) =>
            html`<li class="weekday" aria-hidden="true">${d}</li>`
          )}
          ${Array.from({ length: blanks }, () => html`<li class="blank" aria-hidden="true"></li>`)}
          ${c.days.map((d) => {
            const busy = KINDS.filter(([k]) => d[k] > 0);
            return html`
              <li key=${d.date} class=${busy.length ? "day" : "day quiet"}>
                <span class="date">${Number(d.date.slice(8))}</span>
                ${busy.length === 0 && html`<span class="visually-hidden">nothing</span>`}
                ${busy.map(([k, label]) =>
                  html`<span class=${`count ${k}`}>${d[k]} ${label}</span>`
                )}
              </li>
            `;
          })}
        </ol>
      `}
    </section>
  `;
}
