// @ts-check
/**
 * The IMAP mailbox settings of the email screen: "Test connection" (sign-in and folder, in a
 * few seconds, the error in words), the port that follows the TLS box (993/143) unless typed,
 * and correcting a source's server, sign-in and password.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { plural } from "../format.js";
import { Checkbox, ErrorText, fieldError, Form, TextField, useAction } from "../ui.js";

/** @typedef {import("../api.js").Schemas["EmailSource"]} Source */
/** @typedef {import("../api.js").Schemas["MailboxTest"]} MailboxTest */

/** The port IMAP uses with and without TLS. @param {boolean} tls */
export const portFor = (tls) => (tls ? "993" : "143");

/**
 * Mailbox fields as typed, with the port following the TLS box until the person types one.
 * @param {{host: string, port: string, tls: boolean, username: string, password: string,
 *   mailbox: string}} initial
 */
export function useMailboxFields(initial) {
  const [fields, setFields] = useState(initial);
  const [portTyped, setPortTyped] = useState(initial.port !== portFor(initial.tls));
  /** @param {keyof typeof initial} key */
  const set = (key) => (/** @type {string | boolean} */ value) => {
    if (key === "port") setPortTyped(true);
    setFields((f) => ({
      ...f,
      [key]: value,
      ...(key === "tls" && !portTyped ? { port: portFor(Boolean(value)) } : {}),
    }));
  };
  const reset = () => {
    setFields(initial);
    setPortTyped(initial.port !== portFor(initial.tls));
  };
  return { fields, set, reset };
}

/**
 * "Test connection" with the fields as typed; for a source being edited its stored password
 * is used when none is typed.
 * @param {{body: () => MailboxTest}} props
 */
export function TestConnection({ body }) {
  const [result, setResult] = useState(
    /** @type {import("../api.js").Schemas["MailboxTestResult"] | null} */ (null),
  );
  const test = useAction(async () => {
    setResult(null);
    setResult(await ok(api.POST("/api/email-sources/test-connection", { body: body() })));
  });
  return html`
    <div class="actions">
      <button type="button" class="secondary small" onClick=${() => test.run()}
        disabled=${test.busy} aria-busy=${test.busy}>
        ${test.busy ? "Testing…" : "Test connection"}</button>
      <span role="status" class=${result?.ok ? "okay" : "error"}>${result
        ? result.ok ? `Signed in; folder ${result.mailbox} opened.` : result.error
        : ""}</span>
      <${ErrorText} error=${test.error} />
    </div>
  `;
}

/** @param {{source: Source, onChange: (s: Source) => void}} props */
export function EditMailbox({ source, onChange }) {
  const initial = {
    host: source.host ?? "",
    port: String(source.port ?? 993),
    tls: source.tls ?? true,
    username: source.username ?? "",
    password: "",
    mailbox: source.mailbox ?? "INBOX",
  };
  const { fields, set } = useMailboxFields(initial);
  const [saved, setSaved] = useState(false);
  const port = Number(fields.port) || Number(portFor(fields.tls));
  /** @type {() => MailboxTest} */
  const testBody = () => ({
    sourceId: source.id,
    host: fields.host.trim(),
    port,
    tls: fields.tls,
    username: fields.username,
    mailbox: fields.mailbox.trim() || "INBOX",
    ...(fields.password && { password: fields.password }),
  });
  const submit = async () => {
    setSaved(false);
    /** @type {import("../api.js").Schemas["PatchEmailSource"]} */
    const body = {};
    if (fields.host.trim() !== initial.host) body.host = fields.host.trim();
    if (String(port) !== initial.port) body.port = port;
    if (fields.tls !== initial.tls) body.tls = fields.tls;
    if (fields.username !== initial.username) body.username = fields.username;
    if ((fields.mailbox.trim() || "INBOX") !== initial.mailbox) {
      body.mailbox = fields.mailbox.trim() || "INBOX";
    }
    // The password travels with any change of where and as whom to sign in: the server
    // requires it then, so a stored password never goes to another server.
    const signIn = ["host", "port", "tls", "username"].some((k) => k in body);
    if (signIn && !fields.password) {
      throw fieldError("password", "Type the password again to change the server or username.");
    }
    if (fields.password) body.password = fields.password;
    if (Object.keys(body).length === 0) return setSaved(true);
    const result = await ok(api.PATCH("/api/email-sources/{id}", {
      params: { path: { id: source.id } },
      body,
    }));
    onChange(result.source);
    setSaved(true);
  };
  return html`
    <${Form} onSubmit=${submit} submit="Save connection" busyText="Saving…"
      label=${`Connection of ${source.name}`}
      secondary=${saved && html`<span role="status" class="saved">Saved</span>`}>
      <div class="grid">
        <${TextField} label="IMAP server" name="host" value=${fields.host} onInput=${set("host")}
          autocomplete="off" />
        <${TextField} label="Port" name="port" value=${fields.port} onInput=${set("port")}
          inputMode="numeric" />
        <${TextField} label="Username" name="username" value=${fields.username}
          onInput=${set("username")} autocomplete="off" />
        <${TextField} label="Password" name="password" type="password" value=${fields.password}
          onInput=${set("password")} autocomplete="new-password"
          hint="Empty keeps the stored one; needed again to change the server or username." />
        <${TextField} label="Folder" name="mailbox" value=${fields.mailbox}
          onInput=${set("mailbox")} />
      </div>
      <${Checkbox} label="Use TLS" name="tls" checked=${fields.tls} onChange=${set("tls")} />
      <${TestConnection} body=${testBody} />
      <//>
  `;
}

/**
 * "Check now": reads the mailbox at once and says what came of it.
 * @param {{source: Source, onChange: (s: Source) => void}} props
 */
export function CheckNow({ source, onChange }) {
  const [said, setSaid] = useState("");
  const check = useAction(async () => {
    setSaid("");
    const result = await ok(api.POST("/api/email-sources/{id}/check", {
      params: { path: { id: source.id } },
    }));
    onChange(result.source);
    setSaid(
      result.error
        ? ""
        : `Checked: ${plural(result.read, "message")} read${result.more ? ", more to come" : ""}.`,
    );
  });
  return html`
    <button type="button" class="secondary small" onClick=${() => check.run()}
      disabled=${check.busy} aria-busy=${check.busy}>${check.busy
        ? "Checking…"
        : "Check now"}</button>
    <span role="status" class="okay">${said}</span>
    <${ErrorText} error=${check.error} />
  `;
}
