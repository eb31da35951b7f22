// @ts-check
/**
 * Email intake set-up: sources (a forwarding address to copy, or a mailbox the service reads
 * over IMAP) and the senders each accepts.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { dateTime, plural } from "../format.js";
import { session } from "../session.js";
import {
  Checkbox,
  ConfirmButton,
  CopyButton,
  ErrorText,
  Form,
  Loading,
  Page,
  replaceItem,
  SelectField,
  TextField,
  useLoad,
} from "../ui.js";
import { IntakeNav } from "./parts.js";
import { CheckNow, EditMailbox, portFor, TestConnection, useMailboxFields } from "./mailbox.js";
import { MailCannotArrive, SecretsProblem, useDeployment } from "../deployment.js";

/** @typedef {import("../api.js").Schemas["EmailSource"]} Source */
/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/** One address or `@domain` a line. @param {string} text */
const senderList = (text) => text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);

/** @param {ScreenProps} props */
export function EmailSources({ path }) {
  const sources = useLoad(
    () => ok(api.GET("/api/email-sources", { params: { query: { limit: "200" } } })),
    [],
  );
  const replace = replaceItem(sources);
  return html`
    <${Page} title="Email intake">
      <${IntakeNav} current=${path} />
      <${SecretsProblem} />
      <p class="lead">Forward order emails to a source's address, or let the service read a
        mailbox. Each email becomes an order, or adds to the order with the same number.</p>
      <${ErrorText} error=${sources.error} />
      ${sources.loading && !sources.data && html`<${Loading} />`}
      ${sources.data?.items.length === 0 &&
        html`<p class="empty">No source yet: add one below.</p>`}
      <ul class="cards">
        ${sources.data?.items.map((s) =>
          html`
            <li key=${s.id}>
              <${SourceCard} source=${s}
                onChange=${replace} onDeleted=${sources.reload} />
            </li>
          `
        )}
      </ul>
      <${NewSource} onCreated=${sources.reload} />
    <//>
  `;
}

/** @param {{source: Source, onChange: (s: Source) => void, onDeleted: () => void}} props */
function SourceCard({ source, onChange, onDeleted }) {
  const zone = session()?.user.timezone;
  const deployment = useDeployment();
  // A mailbox whose last read failed is failing, not active, until a read succeeds.
  const failing = source.kind === "imap" && Boolean(source.lastError);
  const [editing, setEditing] = useState(false);
  const [senders, setSenders] = useState(source.allowedSenders.join("\n"));
  const [saved, setSaved] = useState(false);
  /** @param {import("../api.js").Schemas["PatchEmailSource"]} body */
  const change = async (body) => {
    const result = await ok(api.PATCH("/api/email-sources/{id}", {
      params: { path: { id: source.id } },
      body,
    }));
    onChange(result.source);
  };
  const [toggleError, setToggleError] = useState(/** @type {Error | null} */ (null));
  return html`
    <article class="panel" aria-labelledby=${`src-${source.id}`}>
      <div class="card-head">
        <h2 id=${`src-${source.id}`}>${source.name}</h2>
        <span class="tag">${source.kind === "imap" ? "Mailbox (IMAP)" : "Forwarding"}</span>
        <span class=${source.active && !failing ? "tag on" : "tag off"}>${!source.active
          ? "Paused"
          : failing
          ? "Failing"
          : "Active"}</span>
      </div>
      ${source.forwardingAddress && html`
        <p class="code-row"><span class="sub">Forward to</span>
          <code>${source.forwardingAddress}</code>
          <${CopyButton} text=${source.forwardingAddress} label="Copy address" /></p>
        <${MailCannotArrive} deployment=${deployment} />
      `}
      ${source.kind === "imap" && html`
        <p class="sub">${source.username} at ${source.host}:${source.port}${source.tls
          ? " (TLS)"
          : ""},
          folder ${source.mailbox}. ${source.lastPolledAt
            ? `Last read ${dateTime(source.lastPolledAt, zone)}.`
            : "Not read yet."}</p>
        ${source.lastError && html`
          <p class="error"
            role="status">Failing: ${source.lastError}${source.lastPolledAt
              ? ` (last tried ${dateTime(source.lastPolledAt, zone)})`
              : ""}. Correct the connection below, then test it.</p>
        `}
        <div class="actions">
          <${CheckNow} source=${source} onChange=${onChange} />
          <button type="button" class="secondary small" onClick=${() => setEditing(!editing)}
            aria-expanded=${editing || failing}>${editing || failing
              ? "Connection settings"
              : "Edit connection"}</button>
        </div>
        ${(editing || failing) && html`<${EditMailbox} source=${source} onChange=${onChange} />`}
      `}
      <${Form} label=${`Allowed senders of ${source.name}`} submit="Save senders" busyText="Saving…"
        onSubmit=${async () => {
          setSaved(false);
          await change({ allowedSenders: senderList(senders) });
          setSaved(true);
        }} secondary=${saved && html`<span role="status" class="saved">Saved</span>`}>
        <${TextField} label="Allowed senders" name="allowedSenders" value=${senders} multiline rows=${3}
          onInput=${setSenders} spellcheck=${false}
          hint="One address (orders@shop.com) or domain (@shop.com) a line. Empty: any sender." />
      <//>
      <${Rebuild} source=${source} />
      <div class="actions">
        <button type="button" class="secondary small" onClick=${() =>
          change({ active: !source.active }).then(() => setToggleError(null), setToggleError)}>
          ${source.active ? "Pause" : "Resume"}</button>
        <a class="button secondary small" href=${`/intake/inbox?sourceId=${source.id}`}>Messages</a>
        <${ConfirmButton} label="Delete" buttonLabel=${`Delete ${source.name}`} title="Delete this source?"
          confirm="Delete source" question=${html`<p>${
            source.forwardingAddress
              ? html`Mail to <code>${source.forwardingAddress}</code> stops being accepted at once.`
              : "The mailbox is no longer read."
          } Orders it made stay.</p>`}
          onConfirm=${async () => {
            await ok(
              api.DELETE("/api/email-sources/{id}", { params: { path: { id: source.id } } }),
            );
            onDeleted();
          }} />
        <${ErrorText} error=${toggleError} />
      </div>
    </article>
  `;
}

/** How often a running rebuild's progress is read again. */
const PROGRESS_MS = 1500;

/**
 * Reads the source's mail of the last days again with today's templates. The API runs it in the
 * background and records its counts; the page shows the latest rebuild and reads its progress
 * again while it runs. A second start while one runs is the API's 409, shown here.
 * @param {{source: Source}} props
 */
function Rebuild({ source }) {
  const [days, setDays] = useState("30");
  const progress = useLoad(
    () => ok(api.GET("/api/email-sources/{id}/rebuild", { params: { path: { id: source.id } } })),
    [source.id],
  );
  const rebuild = progress.data?.rebuild;
  const running = Boolean(rebuild && !rebuild.finishedAt);
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(progress.reload, PROGRESS_MS);
    return () => clearTimeout(timer);
  }, [running, progress.data]);
  const submit = async () => {
    await ok(api.POST("/api/email-sources/{id}/rebuild", {
      params: { path: { id: source.id } },
      body: { sinceDays: Number(days) },
    }));
    progress.reload();
  };
  return html`
    <${Form} class="form" label=${`Read ${source.name} again`} submit="Read again"
      busyText="Starting…" onSubmit=${submit} secondary=${rebuild &&
        html`<${RebuildStatus} rebuild=${rebuild} />`}>
      <${TextField} label="Days to read again" name="sinceDays" value=${days} onInput=${setDays}
        inputMode="numeric" hint=${source.kind === "imap"
          ? "The mailbox's messages of these days, with today's templates (1 to 365)."
          : "The stored messages of these days, with today's templates (1 to 365)."} />
      <//>
  `;
}

/** @param {{rebuild: NonNullable<import("../api.js").Schemas["EmailSourceRebuildProgress"]>}} props */
function RebuildStatus({ rebuild }) {
  const counts = `${rebuild.read} ${rebuild.read === 1 ? "message" : "messages"} read, ` +
    `${rebuild.stored} stored`;
  if (!rebuild.finishedAt) {
    return html`<span role="status" class="saved">Reading the last ${rebuild.sinceDays} days
      again: ${counts} so far…</span>`;
  }
  const reparsed = rebuild.reparsed ?? 0;
  // One string: htm drops the space of a line break between two expressions.
  const again = `${plural(reparsed, "order")} read again (${dateTime(rebuild.finishedAt)}).`;
  return html`<span role="status" class=${rebuild.error ? "error" : "saved"}>
    ${rebuild.error ? `Stopped: ${rebuild.error}. ` : "Done: "}${counts}, ${again}
  </span>`;
}

/** @param {{onCreated: () => void}} props */
function NewSource({ onCreated }) {
  const blank = { kind: "forwarding", name: "", allowedSenders: "" };
  const [form, setForm] = useState(blank);
  /** @param {keyof typeof blank} key */
  const set = (key) => (/** @type {string | boolean} */ v) => setForm({ ...form, [key]: v });
  const mailbox = useMailboxFields({
    host: "",
    port: portFor(true),
    tls: true,
    username: "",
    password: "",
    mailbox: "INBOX",
  });
  const box = mailbox.fields;
  const setBox = mailbox.set;
  const imap = form.kind === "imap";
  const imapBody = () => ({
    host: box.host.trim(),
    port: Number(box.port) || Number(portFor(box.tls)),
    tls: box.tls,
    username: box.username,
    password: box.password,
    mailbox: box.mailbox.trim() || "INBOX",
  });
  const submit = async () => {
    /** @type {import("../api.js").Schemas["CreateEmailSource"]} */
    const body = {
      kind: imap ? "imap" : "forwarding",
      allowedSenders: senderList(form.allowedSenders),
      ...(form.name.trim() && { name: form.name.trim() }),
    };
    if (imap) Object.assign(body, imapBody());
    await ok(api.POST("/api/email-sources", { body }));
    setForm(blank);
    mailbox.reset();
    onCreated();
  };
  return html`
    <${Form} onSubmit=${submit} submit="Add source" busyText="Adding…" class="form panel"
      label="Add an email source">
      <h2>Add a source</h2>
      <${SelectField} label="Kind" name="kind" value=${form.kind} onChange=${set("kind")}
        options=${[["forwarding", "Forwarding address"], ["imap", "Mailbox over IMAP"]]}
        hint=${imap
          ? "The service signs in and reads new mail every few minutes."
          : "You get an address; forward order emails to it."} />
      <${TextField} label="Name" name="name" value=${form.name} onInput=${set("name")}
        placeholder=${imap ? "Work mailbox" : "Forwarded orders"} />
      ${imap && html`
        <div class="grid">
          <${TextField} label="IMAP server" name="host" value=${box.host} onInput=${setBox("host")}
            placeholder="imap.example.com" required autocomplete="off" />
          <${TextField} label="Port" name="port" value=${box.port} onInput=${setBox("port")}
            inputMode="numeric" hint="993 with TLS, 143 without, unless you type another." />
          <${TextField} label="Username" name="username" value=${box.username}
            onInput=${setBox("username")} required autocomplete="off" />
          <${TextField} label="Password" name="password" type="password" value=${box.password}
            onInput=${setBox("password")} required autocomplete="new-password"
            hint="An app password where the provider offers one. Stored encrypted, never shown again." />
          <${TextField} label="Folder" name="mailbox" value=${box.mailbox}
            onInput=${setBox("mailbox")} />
        </div>
        <${Checkbox} label="Use TLS" name="tls" checked=${box.tls} onChange=${setBox("tls")} />
        <${TestConnection} body=${imapBody} />
      `}
      <${TextField} label="Allowed senders" name="allowedSenders" value=${form.allowedSenders}
        onInput=${set("allowedSenders")} multiline rows=${3} spellcheck=${false}
        hint="One address or @domain a line. Empty: any sender." />
    <//>
  `;
}
