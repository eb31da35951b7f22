// @ts-check
/**
 * What this deployment can do (`GET /api/deployment`), read once per page load and shared by
 * the screens that say it where it matters: a forwarding address mail cannot reach yet, links
 * that say localhost, a link that went to the server log, plan counters without billing.
 */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "./api.js";

/** @typedef {import("./api.js").Schemas["Deployment"]} Deployment */

/** @type {Promise<Deployment> | undefined} */
let reading;

/** The deployment's facts, undefined until read (or when they cannot be read). */
export function useDeployment() {
  const [value, setValue] = useState(/** @type {Deployment | undefined} */ (undefined));
  useEffect(() => {
    let live = true;
    reading ??= ok(api.GET("/api/deployment"));
    reading.then((d) => live && setValue(d), () => void (reading = undefined));
    return () => void (live = false);
  }, []);
  return value;
}

/** @param {{deployment?: Deployment}} props */
export function MailCannotArrive({ deployment }) {
  if (!deployment || deployment.mail.canArrive) return null;
  const { mail } = deployment;
  const why = [
    mail.smtpPort === undefined && !mail.mailWorker
      ? "this server has no mail receiver (the operator sets SMTP_PORT for the built-in one, or INBOUND_MAIL_KEY for a mail worker)"
      : "",
    mail.missing.includes("MAIL_DOMAIN")
      ? `its mail domain ${mail.domain} is not on the internet (the operator sets MAIL_DOMAIN)`
      : "",
  ].filter(Boolean).join(", and ");
  return html`<p class="notice" role="note"><strong>Mail cannot reach this address yet:</strong>
    ${" "}${why}. Until then, paste emails in the inbox or connect a mailbox over IMAP.</p>`;
}

/** @param {{deployment?: Deployment}} props */
export function LocalLinks({ deployment }) {
  if (!deployment?.baseUrlLocal) return null;
  return html`<p class="notice" role="note"><strong>These links say ${deployment.baseUrl}</strong>:
    only this machine can open them. The operator sets BASE_URL to the address others reach this
    server at.</p>`;
}

/**
 * The secrets key does not open the secrets stored here (a restore without its key file):
 * webhook signatures and mailbox sign-ins fail until the operator puts the key back.
 */
export function SecretsProblem() {
  const deployment = useDeployment();
  if (deployment?.secretsKey !== "mismatch") return null;
  return html`<p class="error" role="alert"><strong>Stored secrets cannot be read.</strong>
    ${" "}${deployment.secretsProblem}</p>`;
}
