// @ts-check
/**
 * Every email received, newest first, with what became of it; importing a pasted email; and
 * re-reading stored messages with today's templates.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ApiError, ok } from "../api.js";
import { bytes, dateTime, plural } from "../format.js";
import { navigate, setQuery } from "../router.js";
import { session } from "../session.js";
import {
  ConfirmButton,
  ErrorText,
  Form,
  Loading,
  Page,
  SelectField,
  TextField,
  useAction,
  useLoad,
} from "../ui.js";
import { IntakeNav, RawMessage } from "./parts.js";

/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/** @param {{sources: {id: string, name: string}[], onDone: () => void}} props */
function ImportEmail({ sources, onDone }) {
  const [raw, setRaw] = useState("");
  const [sourceId, setSourceId] = useState("");
  const [result, setResult] = useState(/** @type {import("preact").ComponentChildren} */ (null));
  const submit = async () => {
    setResult(null);
    const { data, error, response } = await api.POST("/api/email/import", {
      body: { raw, ...(sourceId && { sourceId }) },
    });
    if (response.status === 202 && data && "orderId" in data) {
      setResult(html`<p role="status" class="notice">${data.merged ? "Added to " : "Created "}<a
        href=${`/orders/${data.orderId}`}>the order</a>.</p>`);
      setRaw("");
      onDone();
      return;
    }
    if (response.status === 200) {
      setResult(
        html`<p role="status" class="notice">Already received: this email was imported before.</p>`,
      );
      return;
    }
    const body = /** @type {{error?: string, blockedSender?: string, logId?: string}} */ (
      error ?? {}
    );
    // Logged all the same: the list shows it (with "Make an order from this" when it made none).
    if (body.logId) onDone();
    const message = body.blockedSender
      ? `${body.error} (${body.blockedSender}). Add the sender to the source's allowed senders.`
      : response.status === 422
      ? `${body.error}. It is in the list below: "Make an order from this" reads it as one anyway.`
      : body.error ?? `The service answered ${response.status}`;
    throw Object.assign(new ApiError(response.status, message, body), { field: "raw" });
  };
  return html`
    <${Form} onSubmit=${submit} submit="Import" busyText="Reading…" class="form panel"
      label="Import an email">
      <h2>Import an email</h2>
      <${TextField} label="The whole email (headers and body)" name="raw" value=${raw} onInput=${setRaw}
        multiline rows=${8} spellcheck=${false}
        hint="In your mail program: Show original / View source, then copy everything." />
      ${sources.length > 0 && html`
        <${SelectField} label="Source" name="sourceId" value=${sourceId}
          onChange=${setSourceId} options=${[
            ["", "None (no allow-list)"],
            ...sources.map((s) => [s.id, s.name]),
          ]}
          hint="Its allowed senders apply." />
      `}
      ${result}
    <//>
  `;
}

function Reparse() {
  const [result, setResult] = useState(
    /** @type {{reparsed: number, changed: number} | null} */ (null),
  );
  const { run, busy, error } = useAction(async () => {
    setResult(null);
    setResult(await ok(api.POST("/api/orders/reparse", { body: {} })));
  });
  return html`
    <section class="panel" aria-labelledby="reparse">
      <h2 id="reparse">Read stored messages again</h2>
      <p>After adding or changing a template, re-read every stored message. Fields you edited
        yourself stay as they are; no webhook fires.</p>
      <div class="actions">
        <button type="button" class="secondary" onClick=${() =>
          run()} disabled=${busy} aria-busy=${busy}>
          ${busy ? "Re-reading…" : "Re-read all orders"}</button>
        ${busy && html`<progress aria-label="Re-reading orders"></progress>`}
        ${result &&
          html`<span role="status">${
            plural(result.reparsed, "order")
          } re-read, ${result.changed.toLocaleString()} changed.</span>`}
        <${ErrorText} error=${error} />
      </div>
    </section>
  `;
}

/**
 * "Make an order from this" for an email that made none: the person confirms, the message is
 * read again as an order, and its page opens to check and correct what was read.
 * @param {{id: string}} props
 */
function MakeOrder({ id }) {
  return html`
    <${ConfirmButton} label="Make an order from this" title="Make an order from this email?"
      class="secondary small"
      confirm="Make the order"
      question=${html`<p>What the reader finds in it (item, order number, store, total, ...)
        becomes an order; you can correct it on the order's page.</p>`}
      onConfirm=${async () => {
        const made = await ok(api.POST("/api/inbox/{id}/order", { params: { path: { id } } }));
        if ("orderId" in made) navigate(`/orders/${made.orderId}`);
      }} />
  `;
}

const OUTCOME = {
  created: "Created an order",
  merged: "Added to an order",
  duplicate: "Duplicate",
  blocked: "Blocked sender",
  unreadable: "No order found",
  rejected: "Over the plan limit",
  ignored: "Ignored",
};

/** @param {ScreenProps} props */
export function Inbox({ query, path }) {
  const sourceId = query.get("sourceId") ?? "";
  const zone = session()?.user.timezone;
  const sources = useLoad(
    () => ok(api.GET("/api/email-sources", { params: { query: { limit: "200" } } })),
    [],
  );
  const inbox = useLoad(
    () => ok(api.GET("/api/inbox", { params: { query: sourceId ? { sourceId } : {} } })),
    [sourceId],
  );
  const list = sources.data?.items ?? [];
  const names = new Map(list.map((s) => [s.id, s.name]));
  return html`
    <${Page} title="Inbox">
      <${IntakeNav} current=${path} />
      <${ImportEmail} sources=${list} onDone=${inbox.reload} />
      <section aria-labelledby="received">
        <h2 id="received">Received</h2>
        ${list.length > 0 && html`
          <form class="filters" aria-label="Filter the inbox"
            onSubmit=${(/** @type {Event} */ e) => e.preventDefault()}>
            <${SelectField} label="Source" name="sourceId" value=${sourceId}
              onChange=${(/** @type {string} */ v) => setQuery({ sourceId: v })}
              options=${[["", "All sources"], ...list.map((s) => [s.id, s.name])]} />
          </form>
        `}
        <${ErrorText} error=${inbox.error} />
        ${inbox.loading && !inbox.data && html`<${Loading} />`}
        ${inbox.data &&
          (inbox.data.items.length === 0 ? html`<p class="empty">No email received yet.</p>` : html`
            <p class="sub">The newest ${inbox.data.items.length.toLocaleString()} of ${inbox.data
              .total.toLocaleString()}</p>
            <ul class="messages">
              ${inbox.data.items.map((m) =>
                html`
                  <li>
                    <p><strong>${m.subject || "(no subject)"}</strong></p>
                    <p class="sub">${m.from ?? "unknown sender"} · ${dateTime(m.receivedAt, zone)}
                      ${m.sourceId && names.has(m.sourceId) ? ` · ${names.get(m.sourceId)}` : ""}
                      ${m.rawSize ? ` · ${bytes(m.rawSize)}` : ""}</p>
                    <p><span class=${`outcome outcome-${m.outcome}`}>${OUTCOME[m.outcome] ??
                      m.outcome}</span>
                      ${m.orderId && html`
                        <a href=${`/orders/${m.orderId}`}>Open the order</a>
                      `}
                      ${m.why && html`
                        <span class="sub">${m.why}</span>
                      `}</p>
                    ${m.rawSize && (m.outcome === "ignored" || m.outcome === "unreadable")
                      ? html`<${MakeOrder} id=${m.id} />`
                      : null}
                    ${m.rawSize ? html`<${RawMessage} id=${m.id} />` : null}
                  </li>
                `
              )}
            </ul>
          `)}
      </section>
      <${Reparse} />
      <//>
  `;
}
