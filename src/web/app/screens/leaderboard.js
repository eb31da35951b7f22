// @ts-check
/** The leaderboard (`GET /api/leaderboard`): accounts that chose to show their stats. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { centsText, count } from "../format.js";
import { session } from "../session.js";
import { ErrorText, Loading, Page, SelectField, useLoad } from "../ui.js";
import { InsightsNav } from "./parts.js";

/** @typedef {import("../api.js").Schemas["Leaderboard"]["timeframe"]} Timeframe */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/**
 * Every timeframe, as a record the generated types keep complete.
 * @type {Record<Timeframe, string>}
 */
const TIMEFRAMES = { week: "Last 7 days", month: "Last 30 days", all: "All time" };

/** @param {ScreenProps} props */
export function Leaderboard({ path }) {
  const [timeframe, setTimeframe] = useState(/** @type {Timeframe} */ ("month"));
  const board = useLoad(
    () => ok(api.GET("/api/leaderboard", { params: { query: { timeframe } } })),
    [timeframe],
  );
  const me = session()?.user.username;
  const entries = board.data?.entries ?? [];
  return html`
    <${Page} title="Leaderboard">
      <${InsightsNav} current=${path} />
      <p class="lead">Accounts with a public profile, public stats and a username, ranked by
        orders, with what their orders cost. Yours takes part when both are on
        (<a href="/account">Account</a>, Visibility).</p>
      <div class="filters">
        <${SelectField} label="Timeframe" name="timeframe" value=${timeframe}
          options=${Object.entries(TIMEFRAMES)} onChange=${(/** @type {string} */ v) =>
            setTimeframe(/** @type {Timeframe} */ (v))} />
      </div>
      <${ErrorText} error=${board.error} />
      ${board.loading && !board.data && html`<${Loading} />`}
      ${board.data && entries.length === 0 &&
        html`<p class="empty">Nobody with public stats has an order in this time.</p>`}
      ${entries.length > 0 && html`
        <table class=${board.loading ? "stale" : ""}>
          <caption class="visually-hidden">Leaderboard, ${TIMEFRAMES[timeframe]}</caption>
          <thead>
            <tr>
              <th scope="col" class="num">Rank</th>
              <th scope="col">Who</th>
              <th scope="col" class="num">Orders</th>
              <th scope="col" class="num">Value</th>
            </tr>
          </thead>
          <tbody>
            ${entries.map((e) =>
              html`
                <tr key=${e.username} class=${e.username === me ? "mine" : ""}>
                  <td data-label="Rank" class="num">${e.rank}</td>
                  <th scope="row" data-label="Who">${e.displayName ?? e.username}
                    <span class="sub">@${e.username}${e.username === me ? " (you)" : ""}</span></th>
                  <td data-label="Orders" class="num">${count(e.orders)}</td>
                  <td data-label="Value" class="num">${centsText(e.valueCents)}</td>
                </tr>
              `
            )}
          </tbody>
        </table>
      `}
    <//>
  `;
}
