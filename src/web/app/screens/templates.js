// @ts-check
/**
 * Custom templates (regular expressions for a sender the built-in readers do not know) and a
 * live preview: paste an email and see what the service reads from it with today's templates.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, ok } from "../api.js";
import {
  ConfirmButton,
  ErrorText,
  Form,
  Loading,
  Page,
  SelectField,
  TextField,
  useLoad,
} from "../ui.js";
import { IntakeNav } from "./parts.js";

/** @typedef {import("../api.js").Schemas["CustomTemplate"]} Template */
/** @typedef {import("../api.js").Schemas["CreateTemplate"]} TemplateBody */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/**
 * The fields a template can read, labelled; a record, so the generated types keep it complete.
 * @type {Record<keyof TemplateBody["fields"], string>}
 */
const FIELD_LABELS = {
  orderNumber: "Order number",
  itemSummary: "Item",
  store: "Store",
  total: "Total",
  price: "Price",
  trackingNumber: "Tracking number",
  carrier: "Carrier",
  estimatedDelivery: "Estimated delivery",
  size: "Size",
  quantity: "Quantity",
  imageUrl: "Image URL",
};
const FIELDS = /** @type {(keyof TemplateBody["fields"])[]} */ (Object.keys(FIELD_LABELS));

/** @param {ScreenProps} props */
export function Templates({ path }) {
  const templates = useLoad(() => ok(api.GET("/api/templates")), []);
  const [previewTick, setPreviewTick] = useState(0);
  const [editing, setEditing] = useState(/** @type {Template | null} */ (null));
  const saved = () => {
    setEditing(null);
    templates.reload();
    setPreviewTick((t) => t + 1);
  };
  const custom = templates.data?.custom;
  const handWritten = custom?.filter((t) => !t.learned);
  const learned = custom?.filter((t) => t.learned);
  return html`
    <${Page} title="Templates">
      <${IntakeNav} current=${path} />
      <p class="lead">Built-in readers cover common stores. For another sender, write a template:
        it is tried first, newest first.</p>
      <${Preview} tick=${previewTick} />
      <section aria-labelledby="custom">
        <h2 id="custom">Your templates</h2>
        <${ErrorText} error=${templates.error} />
        ${templates.loading && !templates.data && html`<${Loading} />`}
        ${handWritten?.length === 0 && html`<p class="empty">None yet.</p>`}
        <${TemplateCards} items=${handWritten ?? []} editing=${editing} setEditing=${setEditing}
          saved=${saved} />
        ${!editing && html`<${TemplateForm} onSaved=${saved} />`}
      </section>
      ${learned?.length
        ? html`
          <section aria-labelledby="learned">
            <h2 id="learned">Learned from your corrections</h2>
            <p class="sub">When you correct an order read from an email, the reader learns where
              that sender puts the value. Edit or delete what it learned here.</p>
            <${TemplateCards} items=${learned} editing=${editing} setEditing=${setEditing}
              saved=${saved} />
          </section>
        `
        : null}
      <details class="panel">
        <summary>Built-in readers (${templates.data?.builtIn.length ?? 0})</summary>
        <ul class="columns">
          ${templates.data?.builtIn.map((t) =>
            html`<li>${t.name} <span class="sub">${t.stores.join(", ")}</span></li>`
          )}
        </ul>
      </details>
      <//>
  `;
}

/**
 * Template cards, each editable in place and deletable; a learned one names its order.
 * @param {{items: Template[], editing: Template | null, setEditing: (t: Template | null) => void,
 *   saved: () => void}} props
 */
function TemplateCards({ items, editing, setEditing, saved }) {
  return html`
    <ul class="cards">
      ${items.map((t) =>
        html`
          <li key=${t.id} class="panel">
            ${editing?.id === t.id
              ? html`<${TemplateForm} template=${t} onSaved=${saved} onCancel=${() =>
                setEditing(null)} />`
              : html`
                <h3>${t.name}</h3>
                <p class="sub">${[
                  t.match.from && `from ${t.match.from}`,
                  t.match.subject && `subject /${t.match.subject}/`,
                ].filter(Boolean).join(", ")}
                  ${t.status ? ` · marks orders ${t.status}` : ""}</p>
                <p class="sub">Reads ${Object.keys(t.fields).join(", ") || "no field"}</p>
                ${t.learned && html`
                  <p class="sub">Learned from <a href=${`/orders/${t.learned.orderId}`}>the
                    order you corrected</a></p>
                `}
                <div class="actions">
                  <button type="button" class="secondary small" onClick=${() =>
                    setEditing(t)}>Edit</button>
                  <${ConfirmButton} label="Delete" buttonLabel=${`Delete template ${t.name}`}
                    title="Delete this template?" confirm="Delete template"
                    question=${html`<p>Orders already read keep their fields.</p>`}
                    onConfirm=${async () => {
                      await ok(
                        api.DELETE("/api/templates/custom/{id}", {
                          params: { path: { id: t.id } },
                        }),
                      );
                      saved();
                    }} />
                </div>
              `}
          </li>
        `
      )}
    </ul>
  `;
}

/** @param {{template?: Template, onSaved: () => void, onCancel?: () => void}} props */
function TemplateForm({ template, onSaved, onCancel }) {
  const [name, setName] = useState(template?.name ?? "");
  const [from, setFrom] = useState(template?.match.from ?? "");
  const [subject, setSubject] = useState(template?.match.subject ?? "");
  const [status, setStatus] = useState(template?.status ?? "");
  const [fields, setFields] = useState(
    /** @type {Record<string, string>} */ ({ ...(template?.fields ?? {}) }),
  );
  const submit = async () => {
    /** @type {TemplateBody} */
    const body = {
      name: name.trim(),
      match: { ...(from.trim() && { from: from.trim() }), ...(subject && { subject }) },
      fields: Object.fromEntries(Object.entries(fields).filter(([, v]) => v.trim())),
      ...(status && { status: /** @type {TemplateBody["status"]} */ (status) }),
    };
    if (template) {
      await ok(
        api.PATCH("/api/templates/custom/{id}", { params: { path: { id: template.id } }, body }),
      );
    } else {
      await ok(api.POST("/api/templates/custom", { body }));
    }
    onSaved();
  };
  return html`
    <${Form} onSubmit=${submit} submit=${template
      ? "Save template"
      : "Add template"} busyText="Saving…"
      class="form panel" label=${template ? `Edit ${template.name}` : "New template"}
      secondary=${onCancel &&
        html`<button type="button" class="secondary" onClick=${onCancel}>Cancel</button>`}>
      <h3>${template ? `Edit ${template.name}` : "New template"}</h3>
      <${TextField} label="Name" name="name" value=${name} onInput=${setName} required />
      <div class="grid">
        <${TextField} label="Sender" name="match.from" value=${from} onInput=${setFrom}
          placeholder="orders@shop.com or @shop.com" />
        <${TextField} label="Subject (regular expression)" name="match.subject" value=${subject}
          onInput=${setSubject} placeholder="Order #\\d+ confirmed" spellcheck=${false} />
      </div>
      <p class="hint">Give a sender, a subject or both. Each field below is a regular expression
        with one capture group, matched against the email's text.</p>
      <div class="grid">
        ${FIELDS.map((f) =>
          html`
            <${TextField} label=${FIELD_LABELS[f]} name=${`fields.${f}`} value=${fields[f] ?? ""}
              onInput=${(/** @type {string} */ v) =>
                setFields({ ...fields, [f]: v })} spellcheck=${false}
              class="mono" />
          `
        )}
      </div>
      <${SelectField} label="Status of matching emails" name="status" value=${status}
        onChange=${setStatus}
        options=${[["", "Not set"], "ordered", "shipped", "delivered", "canceled"]} />
      <//>
  `;
}

/** Reads the pasted email on every pause in typing (and after a template is saved). @param {{tick: number}} props */
function Preview({ tick }) {
  const [raw, setRaw] = useState("");
  const [state, setState] = useState(
    /** @type {{busy?: boolean, result?: import("../api.js").Schemas["EmailPreviewResult"], error?: Error}} */ ({}),
  );
  useEffect(() => {
    if (!raw.trim()) return setState({});
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setState((s) => ({ ...s, busy: true }));
      try {
        const result = await ok(
          api.POST("/api/email/preview", { body: { raw }, signal: controller.signal }),
        );
        setState({ result });
      } catch (err) {
        if (!controller.signal.aborted) setState({ error: /** @type {Error} */ (err) });
      }
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [raw, tick]);
  const error = state.error instanceof ApiError && state.error.status === 422
    ? "No order can be read from this email with today's templates."
    : state.error;
  return html`
    <section class="panel" aria-labelledby="preview">
      <h2 id="preview">Try an email</h2>
      <div class="two">
        <${TextField} label="Paste a whole email" name="raw" value=${raw} onInput=${setRaw}
          multiline
          rows=${10} spellcheck=${false} hint="Nothing is stored: the email is only read."
          error=${typeof error === "string" ? error : error?.message} />
        <div aria-live="polite" aria-busy=${!!state.busy} class="preview-out">
          ${state.busy && html`<${Loading} label="Reading…" />`}
          ${state.result && html`
            <p>Read by <strong>${state.result.template}</strong>
              ${Object.entries(state.result.signals).filter(([, v]) => v).map(([k]) =>
                html`
                  <span class="tag">${k}</span>
                `
              )}</p>
            <dl class="facts">
              ${Object.entries(state.result.fields).map(([k, v]) =>
                html`
                  <div>
                    <dt>${k}</dt>
                    <dd>${typeof v === "string" ? v : JSON.stringify(v)}</dd>
                  </div>
                `
              )}
            </dl>
          `}
          ${!raw.trim() && html`<p class="sub">What the service reads appears here.</p>`}
        </div>
      </div>
    </section>
  `;
}
