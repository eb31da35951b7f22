// @ts-check
/**
 * Share cards: a public page and image (`/s/<slug>`, `/s/<slug>.png`) for a profit figure or an
 * order, made from the insights and order screens, listed and deleted here.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { dateTime } from "../format.js";
import { session } from "../session.js";
import {
  Checkbox,
  ConfirmButton,
  CopyButton,
  ErrorText,
  Loading,
  Page,
  useAction,
  useLoad,
} from "../ui.js";
import { InsightsNav } from "./parts.js";

/** @typedef {import("../api.js").Schemas} Schemas */
/** @typedef {Schemas["ShareCard"]} Share */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/** The card's image, served by this origin whatever `BASE_URL` the share's own URL names. */
const imageOf = (/** @type {Share} */ s) => `/s/${encodeURIComponent(s.slug)}.png`;

/**
 * A share just made: its link to copy and its image.
 * @param {{share: Share}} props
 */
function Made({ share }) {
  return html`
    <div class="made" role="region" aria-label="Share card made">
      <p class="code-row"><span class="sub">Public link</span><code class="url">${share.url}</code>
        <${CopyButton} text=${share.url} label="Copy link" /></p>
      <img class="card-image" src=${imageOf(share)} width="600" height="315"
        alt=${[share.title, ...share.lines].join(". ")} />
    </div>
  `;
}

/**
 * Shares the profit of a range.
 * @param {{range: Schemas["Profitability"]["range"]}} props
 */
export function ShareProfit({ range }) {
  const [share, setShare] = useState(/** @type {Share | null} */ (null));
  const make = useAction(async () => {
    setShare((await ok(api.POST("/api/shares", { body: { kind: "profit", range } }))).share);
  });
  return html`
    <div class="actions">
      <button type="button" class="secondary small" onClick=${() => make.run()}
        disabled=${make.busy} aria-busy=${make.busy}>${make.busy
          ? "Making…"
          : "Share this profit"}</button>
      <${ErrorText} error=${make.error} />
    </div>
    ${share && html`<${Made} share=${share} />`}
  `;
}

/**
 * Shares one order, with or without its money.
 * @param {{orderId: string}} props
 */
export function ShareOrder({ orderId }) {
  const [showPrices, setShowPrices] = useState(false);
  const [share, setShare] = useState(/** @type {Share | null} */ (null));
  const make = useAction(async () => {
    const body = { kind: /** @type {const} */ ("order"), orderId, showPrices };
    setShare((await ok(api.POST("/api/shares", { body }))).share);
  });
  return html`
    <section class="panel" aria-labelledby="share-order">
      <h2 id="share-order">Share</h2>
      <p class="sub">A public page and image of this order: item, store and status, never its
        numbers.</p>
      <${Checkbox} label="Show what I paid and sold it for" name="showPrices"
        checked=${showPrices} onChange=${setShowPrices} />
      <div class="actions">
        <button type="button" class="secondary small" onClick=${() => make.run()}
          disabled=${make.busy} aria-busy=${make.busy}>${make.busy
            ? "Making…"
            : "Make a share card"}</button>
        <${ErrorText} error=${make.error} />
      </div>
      ${share && html`<${Made} share=${share} />`}
    </section>
  `;
}

/** @param {ScreenProps} props */
export function Shares({ path }) {
  const zone = session()?.user.timezone;
  const shares = useLoad(() => ok(api.GET("/api/shares")), []);
  return html`
    <${Page} title="Share cards">
      <${InsightsNav} current=${path} />
      <p class="lead">Public pages with an image, for posting your results. Make them from the
        profit on Insights or from an order's page; deleting one takes its page and image down.</p>
      <${ErrorText} error=${shares.error} />
      ${shares.loading && !shares.data && html`<${Loading} />`}
      ${shares.data?.shares.length === 0 && html`<p class="empty">No share card yet.</p>`}
      <ul class="cards shares">
        ${shares.data?.shares.map((s) =>
          html`
            <li key=${s.slug}>
              <article class="panel" aria-labelledby=${`share-${s.slug}`}>
                <img class="card-image" src=${imageOf(s)} width="600" height="315" loading="lazy"
                  alt=${[s.title, ...s.lines].join(". ")} />
                <h2 id=${`share-${s.slug}`}>${s.title}</h2>
                <p class="sub">${s.kind === "profit" ? "Profit" : "Order"} · made ${dateTime(
                  s.createdAt,
                  zone,
                )}</p>
                <p class="code-row"><code class="url">${s.url}</code>
                  <${CopyButton} text=${s.url} label="Copy link" /></p>
                <div class="actions">
                  <a class="button secondary small" href=${s.url} target="_blank"
                    rel="noopener noreferrer">Open the page</a>
                  <${ConfirmButton} label="Delete" buttonLabel=${`Delete the card ${s.title}`}
                    title="Delete this share card?" confirm="Delete card"
                    question=${html`<p>Its page and image stop answering at once.</p>`}
                    onConfirm=${async () => {
                      await ok(api.DELETE("/api/shares/{slug}", {
                        params: { path: { slug: s.slug } },
                      }));
                      shares.reload();
                    }} />
                </div>
              </article>
            </li>
          `
        )}
      </ul>
    <//>
  `;
}
