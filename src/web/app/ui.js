// @ts-check
/**
 * The pieces every screen shares: labelled fields, forms that show each API error next to the
 * field it names (else next to the button), loading and progress, copy buttons, confirmations
 * in a modal dialog, paging.
 */
import { html } from "htm/preact";
import { fieldMessage } from "./api.js";
import { createContext } from "preact";
import {
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "preact/hooks";

/** @typedef {import("preact").ComponentChildren} Children */

let ids = 0;
/** A stable id for label-control pairs. */
export const useId = () => useRef(`f${++ids}`).current;

/**
 * Runs async work with its state: busy while it runs, the error it ended with.
 * @template {unknown[]} A
 * @param {(...args: A) => Promise<unknown>} work
 */
export function useAction(work) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {Error | null} */ (null));
  const run = useCallback(async (/** @type {A} */ ...args) => {
    setBusy(true);
    setError(null);
    try {
      await work(...args);
      return true;
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      return false;
    } finally {
      setBusy(false);
    }
  }, [work]);
  return { run, busy, error, setError };
}

/**
 * Loads data for a screen; `reload` loads it again, `set` replaces it after a change.
 * @template T
 * @param {() => Promise<T>} load
 * @param {unknown[]} deps
 */
export function useLoad(load, deps) {
  const [state, setState] = useState(
    /** @type {{data?: T, error?: Error, loading: boolean}} */ ({ loading: true }),
  );
  const [tick, setTick] = useState(0);
  // Before paint, not after it: the request leaves a frame earlier.
  useLayoutEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error) => live && setState((s) => ({ ...s, error, loading: false })),
    );
    return () => void (live = false);
  }, [...deps, tick]);
  return {
    ...state,
    reload: () => setTick((t) => t + 1),
    /** @param {T} data */
    set: (data) => setState({ data, loading: false }),
  };
}

/**
 * A function that puts an item the API answered with (after a change) in place of the item of
 * the same id in a loaded page of items.
 * @template {{items: {id: string}[]}} P
 * @param {{data?: P, set: (data: P) => void}} loaded
 * @returns {(item: P["items"][number]) => void}
 */
export const replaceItem = (loaded) => (item) => {
  if (!loaded.data) return;
  const items = loaded.data.items.map((x) => x.id === item.id ? item : x);
  loaded.set(/** @type {P} */ ({ ...loaded.data, items }));
};

/**
 * Facts as labelled values; empty values are left out.
 * @param {{facts: [string, unknown][], children?: Children}} props
 */
export function Facts({ facts, children }) {
  return html`
    <dl class="facts">
      ${facts.filter(([, v]) => v !== undefined && v !== null && v !== "").map(([k, v]) =>
        html`
          <div>
            <dt>${k}</dt>
            <dd>${v}</dd>
          </div>
        `
      )}
      ${children}
    </dl>
  `;
}

/**
 * The request field an error is about: what the API named (ApiError) or what a check in the
 * page named (`fieldError`).
 * @param {Error} error
 * @returns {string | undefined}
 */
const fieldOf = (error) => /** @type {{field?: string}} */ (error).field;

/**
 * An error a screen finds before asking the API, shown by the field it names.
 * @param {string} field
 * @param {string} message
 */
export const fieldError = (field, message) => Object.assign(new Error(message), { field });

/** Fields register here so the form knows which errors they show themselves. */
const FormContext = createContext(
  /** @type {{error: Error | null, names: Set<string>} | null} */ (null),
);

/**
 * The message for one field when the API's error named it.
 * @param {string} name
 */
export function useFieldError(name) {
  const form = useContext(FormContext);
  form?.names.add(name);
  const error = form?.error;
  return error && fieldOf(error) === name ? fieldMessage(error) : undefined;
}

/**
 * A form whose submit runs `onSubmit`; the button says what is happening; an error is shown
 * by the field it names, or beside the button.
 * @param {{onSubmit: () => Promise<unknown>, submit: string, busyText?: string,
 *   children: Children, class?: string, secondary?: Children, label?: string}} props
 */
export function Form(props) {
  const { run, busy, error } = useAction(props.onSubmit);
  const names = useRef(new Set()).current;
  return html`
    <form class=${props.class ?? "form"} aria-label=${props.label} noValidate
      onSubmit=${(/** @type {Event} */ e) => {
        e.preventDefault();
        run();
      }}>
      <${FormContext.Provider} value=${{ error, names }}>
        ${props.children}
        <div class="actions">
          <button type="submit" disabled=${busy} aria-busy=${busy}>
            ${busy ? props.busyText ?? "Working…" : props.submit}
          </button>
          ${props.secondary}
          <${FormError} />
        </div>
      <//>
    </form>
  `;
}

function FormError() {
  const form = useContext(FormContext);
  const error = form?.error;
  if (!error) return null;
  const field = fieldOf(error);
  if (field && form.names.has(field)) return null;
  return html`<${ErrorText} error=${error} />`;
}

/** @param {{error?: Error | string | null}} props */
export function ErrorText({ error }) {
  if (!error) return null;
  return html`<p class="error" role="alert">${
    typeof error === "string" ? error : error.message
  }</p>`;
}

/**
 * A labelled input. `name` is the API's field name, so its errors land here.
 * @param {{label: string, name: string, value: string | number | undefined,
 *   onInput: (value: string) => void, type?: string, hint?: string, required?: boolean,
 *   autocomplete?: string, placeholder?: string, error?: string, inputMode?: string,
 *   multiline?: boolean, rows?: number, class?: string, spellcheck?: boolean}} props
 */
export function TextField(props) {
  const id = useId();
  const fromForm = useFieldError(props.name);
  const error = props.error ?? fromForm;
  const described = [props.hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  const common = {
    id,
    name: props.name,
    value: props.value ?? "",
    required: props.required,
    placeholder: props.placeholder,
    autocomplete: props.autocomplete,
    inputMode: props.inputMode,
    spellcheck: props.spellcheck,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": described || undefined,
    onInput: (/** @type {Event} */ e) =>
      props.onInput(/** @type {HTMLInputElement} */ (e.currentTarget).value),
  };
  return html`
    <div class=${`field ${props.class ?? ""}`}>
      <label for=${id}>${props.label}${props.required
        ? html`<span aria-hidden="true"> *</span>`
        : ""}</label>
      ${props.multiline
        ? html`<textarea ...${common} rows=${props.rows ?? 6}></textarea>`
        : html`<input ...${common} type=${props.type ?? "text"} />`}
      ${props.hint && html`<p class="hint" id=${`${id}-hint`}>${props.hint}</p>`}
      ${error && html`<p class="error" id=${`${id}-error`}>${error}</p>`}
    </div>
  `;
}

/**
 * @param {{label: string, name: string, value: string, onChange: (value: string) => void,
 *   options: readonly (string | [string, string])[], hint?: string, class?: string}} props
 */
export function SelectField(props) {
  const id = useId();
  const error = useFieldError(props.name);
  return html`
    <div class=${`field ${props.class ?? ""}`}>
      <label for=${id}>${props.label}</label>
      <select id=${id} name=${props.name} value=${props.value}
        aria-invalid=${error ? "true" : undefined}
        aria-describedby=${error ? `${id}-error` : undefined}
        onChange=${(/** @type {Event} */ e) =>
          props.onChange(/** @type {HTMLSelectElement} */ (e.currentTarget).value)}>
        ${props.options.map((o) => {
          const [value, text] = typeof o === "string" ? [o, o] : o;
          return html`<option value=${value}>${text}</option>`;
        })}
      </select>
      ${props.hint && html`<p class="hint">${props.hint}</p>`}
      ${error && html`<p class="error" id=${`${id}-error`}>${error}</p>`}
    </div>
  `;
}

/** @param {{label: Children, name: string, checked: boolean, onChange: (v: boolean) => void, hint?: string}} props */
export function Checkbox(props) {
  const id = useId();
  const error = useFieldError(props.name);
  return html`
    <div class="check">
      <input type="checkbox" id=${id} name=${props.name} checked=${props.checked}
        onChange=${(/** @type {Event} */ e) =>
          props.onChange(/** @type {HTMLInputElement} */ (e.currentTarget).checked)} />
      <label for=${id}>${props.label}</label>
      ${props.hint && html`<p class="hint">${props.hint}</p>`}
      ${error && html`<p class="error">${error}</p>`}
    </div>
  `;
}

/**
 * A screen: its heading takes the focus when it opens, so keyboard and screen-reader users
 * start at the top of what changed.
 * @param {{title: string, children: Children, actions?: Children, back?: Children}} props
 */
export function Page({ title, children, actions, back }) {
  const heading = useRef(/** @type {HTMLHeadingElement | null} */ (null));
  useEffect(() => {
    document.title = `${title} · Order tracker`;
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return html`
    <section class="page" aria-labelledby="page-title">
      ${back}
      <div class="page-head">
        <h1 id="page-title" tabIndex="-1" ref=${heading}>${title}</h1>
        ${actions && html`<div class="page-actions">${actions}</div>`}
      </div>
      ${children}
    </section>
  `;
}

/** @param {{label?: string}} props */
export function Loading({ label = "Loading…" }) {
  return html`<p class="loading" role="status"><span class="spinner" aria-hidden="true"></span>${label}</p>`;
}

/**
 * Copies text to the clipboard and says so.
 * @param {{text: string, label?: string}} props
 */
export function CopyButton({ text, label = "Copy" }) {
  const [done, setDone] = useState(/** @type {string | null} */ (null));
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone("Copied");
    } catch {
      setDone("Copy failed: select the text and copy it");
    }
    setTimeout(() => setDone(null), 2500);
  };
  return html`
    <button type="button" class="secondary small" onClick=${copy}>${label}</button>
    <span class="copied" role="status">${done}</span>
  `;
}

/**
 * A secret the API shows once (API key, signing secret), with a copy button.
 * @param {{value: string, label: string, onDone?: () => void}} props
 */
export function ShownOnce({ value, label, onDone }) {
  return html`
    <div class="once" role="region" aria-label=${label}>
      <p><strong>${label}</strong>: copy it now. It is shown only this once.</p>
      <p class="code-row"><code class="secret">${value}</code><${CopyButton} text=${value} /></p>
      ${onDone &&
        html`<button type="button" class="secondary small" onClick=${onDone}>I have saved it</button>`}
    </div>
  `;
}

/**
 * A button that asks first, in a modal dialog, and shows the API's error there.
 * @param {{label: string, title: string, question: Children, confirm: string,
 *   onConfirm: () => Promise<unknown>, class?: string, children?: Children,
 *   ready?: boolean, buttonLabel?: string}} props
 */
export function ConfirmButton(props) {
  // The dialog exists only while open: a table of 200 rows has 200 of these buttons.
  const [open, setOpen] = useState(false);
  return html`
    <button type="button" class=${props.class ?? "danger small"} aria-label=${props.buttonLabel}
      aria-haspopup="dialog" onClick=${() => setOpen(true)}>${props.label}</button>
    ${open && html`<${ConfirmDialog} ...${props} onClose=${() => setOpen(false)} />`}
  `;
}

/** @param {Parameters<typeof ConfirmButton>[0] & {onClose: () => void}} props */
function ConfirmDialog(props) {
  const dialog = useRef(/** @type {HTMLDialogElement | null} */ (null));
  const { run, busy, error } = useAction(props.onConfirm);
  const id = useId();
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    d.showModal();
    d.addEventListener("close", props.onClose);
    return () => d.removeEventListener("close", props.onClose);
  }, []);
  return html`
    <dialog ref=${dialog} aria-labelledby=${`${id}-t`}>
      <form method="dialog" onSubmit=${async (/** @type {Event} */ e) => {
        e.preventDefault();
        if (await run()) dialog.current?.close();
      }}>
        <h2 id=${`${id}-t`}>${props.title}</h2>
        <div>${props.question}</div>
        ${props.children}
        <${ErrorText} error=${error} />
        <div class="actions">
          <button type="submit" class="danger" disabled=${busy || props.ready === false}
            aria-busy=${busy}>${busy ? "Working…" : props.confirm}</button>
          <button type="button" class="secondary" onClick=${() =>
            dialog.current?.close()}>Cancel</button>
        </div>
      </form>
    </dialog>
  `;
}

/**
 * Previous and next pages of an offset-paged list, as the API pages it.
 * @param {{total: number, limit: number, offset: number, shown: number,
 *   onOffset: (offset: number) => void, what: string}} props
 */
export function Pager({ total, limit, offset, shown, onOffset, what }) {
  const first = total === 0 ? 0 : offset + 1;
  return html`
    <nav class="pager" aria-label=${`${what} pages`}>
      <button type="button" class="secondary small" disabled=${offset === 0}
        onClick=${() => onOffset(Math.max(0, offset - limit))}>Previous</button>
      <span role="status">${first.toLocaleString()}–${(offset + shown).toLocaleString()} of ${total
        .toLocaleString()}</span>
      <button type="button" class="secondary small" disabled=${offset + shown >= total}
        onClick=${() => onOffset(offset + limit)}>Next</button>
    </nav>
  `;
}

/** @param {{items: {href: string, label: string}[], current: string}} props */
export function SubNav({ items, current }) {
  return html`
    <nav class="subnav" aria-label="Section">
      ${items.map((i) =>
        html`
          <a href=${i.href} aria-current=${i.href === current ? "page" : undefined}>${i.label}</a>
        `
      )}
    </nav>
  `;
}

/** Every IANA zone the browser knows, for timezone pickers. */
const ZONES = typeof Intl.supportedValuesOf === "function"
  ? Intl.supportedValuesOf("timeZone")
  : ["UTC"];

/** @param {{value: string, onChange: (v: string) => void, hint?: string}} props */
export function TimezoneField({ value, onChange, hint }) {
  const options = ZONES.includes(value) ? ZONES : [value, ...ZONES];
  return html`
    <${SelectField} label="Timezone" name="timezone" value=${value} onChange=${onChange}
      options=${options} hint=${hint} />
  `;
}
